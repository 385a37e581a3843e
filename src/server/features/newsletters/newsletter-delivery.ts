import type { Database } from '@server/db/client';
import { newsletters, senderAccounts } from '@server/db/schema/index';
import { AppError } from '@server/lib/errors';
import type { SenderNetwork } from '@server/lib/network-guard';
import { NEWSLETTER_MESSAGES } from '@shared/newsletters';
import { and, eq, isNull } from 'drizzle-orm';
import { type AudienceContact, resolveAudienceBatches } from '../campaigns/audience.service';
import { customFieldsOfLists } from '../lists/lists.service';
import { renderForContact, toPersonalizeContact } from '../personalization/personalization.service';
import { getSenderAccountRow, sendOneOffEmail } from '../sender-accounts/sender-accounts.service';
import { composeTestMessage } from '../sending/sending.service';
import { hasVisibleContent } from './bulk-html';
import { sendableHtml } from './newsletter-send.service';
import { getNewsletterRow } from './newsletters.service';
import { findNewsletterPlaceholders } from './presend-check';

/*
 * The two ways to see a newsletter outside the send: a test email to yourself through one of your
 * sender accounts, and the public web version (/n/<token>) linked from the mail.
 */

/** A reader we know nothing about: every merge tag takes its fallback (or nothing). */
const NEUTRAL_CONTACT = {
  email: '',
  firstName: null,
  lastName: null,
  company: null,
  city: null,
  countryCode: null,
  fields: {},
};

/** The web version's HTML, or null when the token names nothing. */
export async function renderWebVersion(options: { db: Database; token: string }): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(options.token)) return null;
  const [row] = await options.db
    .select()
    .from(newsletters)
    // A deleted newsletter's web version is gone with it.
    .where(and(eq(newsletters.webToken, options.token), isNull(newsletters.deletedAt)))
    .limit(1);
  if (!row) return null;
  const [sender] = row.senderAccountIds.length
    ? await options.db
        .select({
          fromName: senderAccounts.fromName,
          fromEmail: senderAccounts.fromEmail,
          company: senderAccounts.company,
        })
        .from(senderAccounts)
        .where(and(eq(senderAccounts.userId, row.userId), eq(senderAccounts.id, row.senderAccountIds[0]!)))
        .limit(1)
    : [];
  const rendered = renderForContact({
    subject: row.subject,
    html: sendableHtml(row),
    contact: NEUTRAL_CONTACT,
    sender: sender ?? null,
    seed: row.id,
  });
  return rendered.html;
}

/**
 * Who a test stands for: the named contact of the audience (its lists narrowed by their segments), else
 * the first of it; with no lists yet, a reader we know nothing about (every merge tag takes its
 * fallback), never the sender.
 */
async function testContact(
  db: Database,
  userId: string,
  audience: { listIds: string[]; segmentIds: string[] },
  asContact: string | undefined,
): Promise<AudienceContact | typeof NEUTRAL_CONTACT> {
  const wanted = asContact?.trim().toLowerCase();
  let first: AudienceContact | null = null;
  if (audience.listIds.length > 0) {
    for await (const batch of resolveAudienceBatches({
      db,
      userId,
      audience: { ...audience, leadFilters: [] },
    })) {
      first ??= batch[0] ?? null;
      if (!wanted) break;
      const found = batch.find((c) => c.email.toLowerCase() === wanted);
      if (found) return found;
    }
  }
  if (wanted) {
    throw new AppError('validation', NEWSLETTER_MESSAGES.testContactNotFound, {
      errors: [{ path: 'asContact', message: NEWSLETTER_MESSAGES.testContactNotFound }],
    });
  }
  return first ?? NEUTRAL_CONTACT;
}

/**
 * A test copy of the real message: composed by the recipients' composer (text part, footer with the
 * postal address, List-Unsubscribe and List-Unsubscribe-Post), personalised as a contact of the audience,
 * only the subject marked "[Test]".
 */
export async function sendNewsletterTest(options: {
  db: Database;
  appUrl: string;
  encryptionKey: Buffer;
  network: SenderNetwork;
  devMailboxPort: number | null;
  user: { id: string; email: string };
  id: string;
  input: { senderAccountId: string; to?: string; asContact?: string };
}): Promise<{ warnings: string[] }> {
  const { db, user } = options;
  const row = await getNewsletterRow({ db, userId: user.id, id: options.id });
  if (!row.subject.trim()) throw new AppError('validation', NEWSLETTER_MESSAGES.needsSubject);
  if (!hasVisibleContent(row.html)) throw new AppError('validation', NEWSLETTER_MESSAGES.needsBody);
  // The test goes anyway; what a real send would refuse (presend-check.ts) comes back as warnings.
  const warnings = findNewsletterPlaceholders({
    ...row,
    knownFields: await customFieldsOfLists(db, user.id, row.listIds),
  }).map((issue) => issue.message);
  const account = await getSenderAccountRow({ db, userId: user.id, id: options.input.senderAccountId });
  const to = options.input.to ?? user.email;
  const contact = await testContact(
    db,
    user.id,
    { listIds: row.listIds, segmentIds: row.segmentIds },
    options.input.asContact,
  );
  const rendered = renderForContact({
    subject: row.subject,
    html: sendableHtml(row),
    contact: toPersonalizeContact(contact),
    sender: { fromName: account.fromName, fromEmail: account.fromEmail, company: account.company },
    seed: `${row.id}:${contact.email}`,
  });
  const { mail } = composeTestMessage({
    appUrl: options.appUrl,
    account,
    to: { name: null, email: to },
    subject: `[Test] ${rendered.subject}`,
    html: rendered.html,
    kind: row.kind,
  });
  // A test counts towards the account's sends today, like the sender test email.
  await sendOneOffEmail({
    db,
    account,
    encryptionKey: options.encryptionKey,
    network: options.network,
    devMailboxPort: options.devMailboxPort,
    mail,
  });
  return { warnings };
}
