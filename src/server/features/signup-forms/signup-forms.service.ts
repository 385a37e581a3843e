import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '@server/db/client';
import { contactLists, signupConsents, signupForms, users } from '@server/db/schema';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { escapeHtml } from '@server/lib/html';
import type { SystemMailer } from '@server/lib/mailer';
import { emailSchema } from '@shared/contacts';
import {
  SIGNUP_FORM_LIMITS,
  type SignupForm,
  type SignupFormInput,
  signupFormInputSchema,
  subscribeSubmissionSchema,
} from '@shared/signup-forms';
import { and, count, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { addListContact, getListRow } from '../lists/lists.service';
import { isErased } from '../suppression/suppression.service';

/*
 * Subscribe forms with double opt-in. The visitor's address gets one mail with a signed link; only
 * following it (and pressing the button on the page it opens: mail scanners fetch links, they do not
 * press buttons) adds the address to the list, with the consent kept as proof. Nothing a visitor types
 * reaches anyone but the address typed, and that address at most three times a day per form.
 */

type FormRow = typeof signupForms.$inferSelect;

const DAY_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;
/** Confirmation mails one form may send in a day (a form abused as a mail cannon stops here). */
const REQUESTS_PER_FORM_PER_DAY = 500;

export function hostedFormUrl(appUrl: string, formId: string): string {
  return `${appUrl}/subscribe/${formId}`;
}

/** A plain HTML form for the user's own site; it posts to the same endpoint as the hosted page. */
export function embedFormHtml(appUrl: string, form: Pick<FormRow, 'id' | 'consentText'>): string {
  const action = escapeHtml(hostedFormUrl(appUrl, form.id));
  return [
    `<form action="${action}" method="post" accept-charset="utf-8">`,
    '  <label for="tambari-email">Email</label>',
    '  <input id="tambari-email" type="email" name="email" required autocomplete="email">',
    '  <label for="tambari-first-name">First name (optional)</label>',
    '  <input id="tambari-first-name" type="text" name="firstName" autocomplete="given-name">',
    `  <label><input type="checkbox" name="consent" value="yes" required> ${escapeHtml(form.consentText)}</label>`,
    '  <div style="position:absolute;left:-10000px" aria-hidden="true"><input type="text" name="website" tabindex="-1" autocomplete="off"></div>',
    '  <button type="submit">Subscribe</button>',
    '</form>',
  ].join('\n');
}

async function toDto(db: Database, appUrl: string, row: FormRow): Promise<SignupForm> {
  const since = new Date(now().getTime() - SIGNUP_FORM_LIMITS.confirmDays * DAY_MS);
  const [counts] = await db
    .select({
      confirmed: sql<number>`count(*) filter (where ${signupConsents.confirmedAt} is not null)`,
      pending: sql<number>`count(*) filter (where ${signupConsents.confirmedAt} is null and ${signupConsents.requestedAt} > ${since})`,
    })
    .from(signupConsents)
    .where(eq(signupConsents.formId, row.id));
  return {
    id: row.id,
    listId: row.listId,
    title: row.title,
    description: row.description,
    consentText: row.consentText,
    enabled: row.enabled,
    hostedUrl: hostedFormUrl(appUrl, row.id),
    embedHtml: embedFormHtml(appUrl, row),
    pending: Number(counts?.pending ?? 0),
    confirmed: Number(counts?.confirmed ?? 0),
    createdAt: row.createdAt.toISOString(),
  };
}

async function formOfList(db: Database, userId: string, listId: string): Promise<FormRow | null> {
  const [row] = await db
    .select()
    .from(signupForms)
    .where(and(eq(signupForms.listId, listId), eq(signupForms.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** The list's form, or null; another user's list answers 404. */
export async function getSignupForm(options: {
  db: Database;
  appUrl: string;
  userId: string;
  listId: string;
}): Promise<SignupForm | null> {
  const list = await getListRow({ db: options.db, userId: options.userId, id: options.listId });
  const row = await formOfList(options.db, options.userId, list.id);
  return row ? toDto(options.db, options.appUrl, row) : null;
}

/** Creates or updates the list's form. */
export async function saveSignupForm(options: {
  db: Database;
  appUrl: string;
  userId: string;
  listId: string;
  input: SignupFormInput;
}): Promise<SignupForm> {
  const input = signupFormInputSchema.parse(options.input);
  const list = await getListRow({ db: options.db, userId: options.userId, id: options.listId });
  const at = now();
  const [row] = await options.db
    .insert(signupForms)
    .values({ userId: options.userId, listId: list.id, ...input, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: signupForms.listId, set: { ...input, updatedAt: at } })
    .returning();
  return toDto(options.db, options.appUrl, row!);
}

export async function deleteSignupForm(options: { db: Database; userId: string; listId: string }) {
  const list = await getListRow({ db: options.db, userId: options.userId, id: options.listId });
  await options.db
    .delete(signupForms)
    .where(and(eq(signupForms.listId, list.id), eq(signupForms.userId, options.userId)));
}

export interface PublicForm {
  id: string;
  title: string;
  description: string;
  consentText: string;
  senderName: string;
}

/** An enabled form of a live, unfrozen list, as a visitor sees it; null otherwise. */
export async function loadPublicForm(options: { db: Database; formId: string }): Promise<PublicForm | null> {
  if (!emailSafeUuid(options.formId)) return null;
  const [row] = await options.db
    .select({
      id: signupForms.id,
      title: signupForms.title,
      description: signupForms.description,
      consentText: signupForms.consentText,
      senderName: users.name,
    })
    .from(signupForms)
    .innerJoin(contactLists, eq(contactLists.id, signupForms.listId))
    .innerJoin(users, eq(users.id, signupForms.userId))
    .where(
      and(
        eq(signupForms.id, options.formId),
        eq(signupForms.enabled, true),
        isNull(contactLists.deletedAt),
        isNull(contactLists.frozenAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

function emailSafeUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

export function hashIp(secret: string, ip: string): string {
  return createHmac('sha256', secret).update(`signup-ip:${ip}`).digest('hex');
}

export function confirmSignature(secret: string, consentId: string): string {
  return createHmac('sha256', secret).update(`signup-confirm:${consentId}`).digest('hex').slice(0, 32);
}

export type SubmitOutcome =
  | { kind: 'invalid'; errors: { email?: string; consent?: string }; email: string; firstName: string }
  | { kind: 'check_inbox' }
  | { kind: 'ip_limited' }
  | { kind: 'closed' };

/**
 * A visitor's signup. Every outcome a third party could probe (honeypot filled, address already on the
 * list, address mailed too often today) looks the same as success: "check your inbox".
 */
export async function submitSignup(options: {
  db: Database;
  mailer: SystemMailer;
  appUrl: string;
  secret: string;
  formId: string;
  body: unknown;
  ip: string;
}): Promise<SubmitOutcome> {
  const { db } = options;
  const form = await loadPublicForm({ db, formId: options.formId });
  if (!form) return { kind: 'closed' };
  const submission = subscribeSubmissionSchema.parse(
    typeof options.body === 'object' && options.body !== null ? options.body : {},
  );
  // A bot filled the field people never see: pretend, send nothing.
  if (submission.website.trim() !== '') return { kind: 'check_inbox' };
  const email = emailSchema.safeParse(submission.email);
  const errors: { email?: string; consent?: string } = {};
  if (!email.success) errors.email = 'Enter a valid email address';
  if (!['yes', 'on', 'true', '1'].includes(submission.consent))
    errors.consent = 'Tick the box to agree before subscribing';
  if (!email.success || errors.consent) {
    return { kind: 'invalid', errors, email: submission.email, firstName: submission.firstName };
  }
  const address = email.data;
  const normalized = address.trim().toLowerCase();
  // Someone who had themselves erased is never written or mailed again.
  if (await isErased({ db, email: address })) return { kind: 'check_inbox' };
  const ipHash = hashIp(options.secret, options.ip);
  const at = now();

  const [byIp] = await db
    .select({ n: count() })
    .from(signupConsents)
    .where(
      and(
        eq(signupConsents.ipHash, ipHash),
        gt(signupConsents.requestedAt, new Date(at.getTime() - HOUR_MS)),
      ),
    );
  if (Number(byIp?.n ?? 0) >= SIGNUP_FORM_LIMITS.requestsPerIpPerHour) return { kind: 'ip_limited' };

  const [formRow] = await db.select().from(signupForms).where(eq(signupForms.id, form.id)).limit(1);
  if (!formRow) return { kind: 'closed' };
  const dayAgo = new Date(at.getTime() - DAY_MS);
  const [[byAddress], [byForm]] = await Promise.all([
    db
      .select({ n: count() })
      .from(signupConsents)
      .where(
        and(
          eq(signupConsents.formId, form.id),
          eq(signupConsents.emailNormalized, normalized),
          gt(signupConsents.requestedAt, dayAgo),
        ),
      ),
    db
      .select({ n: count() })
      .from(signupConsents)
      .where(and(eq(signupConsents.formId, form.id), gt(signupConsents.requestedAt, dayAgo))),
  ]);
  if (Number(byForm?.n ?? 0) >= REQUESTS_PER_FORM_PER_DAY) return { kind: 'ip_limited' };

  const [consent] = await db
    .insert(signupConsents)
    .values({
      formId: form.id,
      userId: formRow.userId,
      listId: formRow.listId,
      email: address,
      emailNormalized: normalized,
      firstName: submission.firstName || null,
      ipHash,
      consentText: form.consentText,
      requestedAt: at,
    })
    .returning({ id: signupConsents.id });
  // Counted above, recorded either way (the IP limit sees it), but mailed only three times a day.
  if (Number(byAddress?.n ?? 0) >= SIGNUP_FORM_LIMITS.requestsPerAddressPerDay)
    return { kind: 'check_inbox' };

  const link = `${options.appUrl}/subscribe/confirm/${consent!.id}/${confirmSignature(options.secret, consent!.id)}`;
  const intro = `Someone, hopefully you, asked to receive emails from ${form.senderName} ("${form.title}") at this address.`;
  const action = 'Confirm your subscription here (the link works for 7 days):';
  const ignore =
    'If it was not you, ignore this email: you will not be subscribed and will not hear from us again.';
  await options.mailer.send({
    to: address,
    subject: `Confirm your subscription: ${form.title}`,
    text: `${intro}\n\n${action}\n${link}\n\n${ignore}`,
    html: `<p>${escapeHtml(intro)}</p><p>${escapeHtml(action)}<br><a href="${escapeHtml(link)}">Confirm my subscription</a></p><p>${escapeHtml(ignore)}</p>`,
  });
  return { kind: 'check_inbox' };
}

export interface PendingConsent {
  id: string;
  email: string;
  title: string;
  senderName: string;
  confirmed: boolean;
}

/** The consent a confirmation link names, when the signature holds and the link has not expired. */
export async function loadConsentForLink(options: {
  db: Database;
  secret: string;
  consentId: string;
  signature: string;
}): Promise<PendingConsent | null> {
  if (!emailSafeUuid(options.consentId)) return null;
  const expected = Buffer.from(confirmSignature(options.secret, options.consentId));
  const given = Buffer.from(options.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [row] = await options.db
    .select({
      id: signupConsents.id,
      email: signupConsents.email,
      requestedAt: signupConsents.requestedAt,
      confirmedAt: signupConsents.confirmedAt,
      title: signupForms.title,
      senderName: users.name,
    })
    .from(signupConsents)
    .innerJoin(signupForms, eq(signupForms.id, signupConsents.formId))
    .innerJoin(users, eq(users.id, signupForms.userId))
    .where(eq(signupConsents.id, options.consentId))
    .limit(1);
  if (!row) return null;
  const expired = now().getTime() - row.requestedAt.getTime() > SIGNUP_FORM_LIMITS.confirmDays * DAY_MS;
  if (expired && !row.confirmedAt) return null;
  return {
    id: row.id,
    email: row.email,
    title: row.title,
    senderName: row.senderName,
    confirmed: row.confirmedAt !== null,
  };
}

export type ConfirmOutcome = 'confirmed' | 'invalid' | 'closed';

/** The button on the confirmation page: the address joins the list and the consent is dated. */
export async function confirmSignup(options: {
  db: Database;
  secret: string;
  consentId: string;
  signature: string;
}): Promise<ConfirmOutcome> {
  const { db } = options;
  const pending = await loadConsentForLink(options);
  if (!pending) return 'invalid';
  if (pending.confirmed) return 'confirmed';
  const [consent] = await db.select().from(signupConsents).where(eq(signupConsents.id, pending.id)).limit(1);
  const [owner] = await db.select({ role: users.role }).from(users).where(eq(users.id, consent!.userId));
  try {
    await addListContact({
      db,
      actor: { id: consent!.userId, role: owner?.role ?? 'user' },
      listId: consent!.listId,
      fields: { email: consent!.email, firstName: consent!.firstName },
      source: 'signup_form',
    });
  } catch (error) {
    // Already a member: the consent still counts. A deleted, frozen or full list takes nobody.
    if (!(error instanceof AppError && error.code === 'conflict')) {
      if (error instanceof AppError) return 'closed';
      throw error;
    }
  }
  await db
    .update(signupConsents)
    .set({ confirmedAt: now() })
    .where(and(eq(signupConsents.id, pending.id), isNull(signupConsents.confirmedAt)));
  return 'confirmed';
}

/** Confirmed consents of a list, newest first: the proof a user can show for each subscriber. */
export async function listConsents(options: {
  db: Database;
  userId: string;
  listId: string;
  limit?: number;
}) {
  const list = await getListRow({ db: options.db, userId: options.userId, id: options.listId });
  return options.db
    .select({
      email: signupConsents.email,
      confirmedAt: signupConsents.confirmedAt,
      requestedAt: signupConsents.requestedAt,
      consentText: signupConsents.consentText,
      ipHash: signupConsents.ipHash,
    })
    .from(signupConsents)
    .where(and(eq(signupConsents.listId, list.id), isNotNull(signupConsents.confirmedAt)))
    .orderBy(sql`${signupConsents.confirmedAt} desc`)
    .limit(options.limit ?? 100);
}
