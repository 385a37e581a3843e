import { randomBytes } from 'node:crypto';
import type { Database } from '@server/db/client';
import { campaignContacts, campaignSenderAccounts, senderAccounts, users } from '@server/db/schema/index';
import { AppError, notFound } from '@server/lib/errors';
import type { HostLookup, SenderNetwork } from '@server/lib/network-guard';
import type { CampaignAudience, CampaignStep } from '@shared/campaigns';
import { shownUrl, type UnsafeUrl } from '@shared/mail-links';
import type { PersonalizePreview, PreviewContact, TestSendResult } from '@shared/personalize';
import { and, asc, eq, sql } from 'drizzle-orm';
import { customFieldsOfLists } from '../lists/lists.service';
import {
  findMergeTagProblems,
  type PersonalizeContact,
  type PersonalizeSender,
  renderForContact,
  renderSeed,
  SAMPLE_CONTACT,
  testSendWarnings,
} from '../personalization/personalization.service';
import type { SenderAccountRow } from '../sender-accounts/sender-accounts.service';
import { getSenderAccountRow, sendOneOffEmail } from '../sender-accounts/sender-accounts.service';
import {
  asEmailDocument,
  buildMailOptions,
  makeMessageId,
  prepareMessageContent,
  resolveTrackingBaseUrl,
  unsubscribeMailtoFor,
} from '../sending/sending.service';
import { resolveAudience } from './audience.service';
import { type CampaignRow, getCampaignRow } from './campaigns.service';
import { earlierStepSubject } from './sequencing';
import { loadSteps } from './steps.service';
import { repliesInThread, replySubject } from './thread-reply';

/*
 * Previews and test sends: a step's variant as one contact of the audience will receive it (same seed as
 * the real send, the compliance footer included, tracking left out), and one real email of it to the user
 * through a chosen sender account.
 */

export interface PersonalizeContext {
  db: Database;
  appUrl: string;
}

export interface TestSendContext extends PersonalizeContext {
  encryptionKey: Buffer;
  network: SenderNetwork;
  devMailboxPort: number | null;
  lookup?: HostLookup;
}

const PREVIEW_TOKEN = 'preview';

interface ChosenContact {
  contact: PersonalizeContact;
  sample: boolean;
}

export async function userRow(db: Database, userId: string) {
  const [row] = await db
    .select({ role: users.role, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('User not found');
  return row;
}

/** The first contact of an audience, or the one with this address; null when there is none. */
async function fromAudience(options: {
  db: Database;
  userId: string;
  role: string | null;
  audience: CampaignAudience;
  email?: string;
}): Promise<PersonalizeContact | null> {
  const wanted = options.email?.trim().toLowerCase();
  for await (const contact of resolveAudience({
    db: options.db,
    userId: options.userId,
    role: options.role,
    audience: options.audience,
    limit: wanted ? undefined : 1,
  })) {
    if (!wanted || contact.email.trim().toLowerCase() === wanted) return contact;
  }
  return null;
}

export async function chooseContact(options: {
  db: Database;
  campaign: CampaignRow;
  role: string | null;
  campaignContactId?: string;
  email?: string;
  sample?: boolean;
}): Promise<ChosenContact> {
  const { db, campaign } = options;
  if (options.sample) return { contact: SAMPLE_CONTACT, sample: true };
  const owned = and(
    eq(campaignContacts.campaignId, campaign.id),
    eq(campaignContacts.userId, campaign.userId),
  );
  if (options.campaignContactId) {
    const [row] = await db
      .select()
      .from(campaignContacts)
      .where(and(owned, eq(campaignContacts.id, options.campaignContactId)))
      .limit(1);
    if (!row) throw notFound('Contact not found');
    return { contact: row, sample: false };
  }
  const email = options.email?.trim().toLowerCase();
  const [copied] = await db
    .select()
    .from(campaignContacts)
    .where(and(owned, email ? sql`lower(${campaignContacts.email}) = ${email}` : undefined))
    .orderBy(asc(campaignContacts.createdAt), asc(campaignContacts.id))
    .limit(1);
  if (copied) return { contact: copied, sample: false };
  let found: PersonalizeContact | null = null;
  try {
    found = await fromAudience({
      db,
      userId: campaign.userId,
      role: options.role,
      audience: campaign.audience,
      email,
    });
  } catch (error) {
    // A deleted list or an out-of-plan filter: the pre-launch check reports it; the preview still works.
    if (!(error instanceof AppError) || email) throw error;
  }
  if (found) return { contact: found, sample: false };
  if (email) throw notFound("This address is not in the campaign's audience");
  return { contact: SAMPLE_CONTACT, sample: true };
}

export async function firstActiveAccount(
  db: Database,
  campaign: CampaignRow,
): Promise<SenderAccountRow | null> {
  const [row] = await db
    .select({ account: senderAccounts })
    .from(campaignSenderAccounts)
    .innerJoin(senderAccounts, eq(senderAccounts.id, campaignSenderAccounts.senderAccountId))
    .where(
      and(eq(campaignSenderAccounts.campaignId, campaign.id), eq(senderAccounts.userId, campaign.userId)),
    )
    .orderBy(
      sql`${senderAccounts.status} = 'active' desc`,
      asc(senderAccounts.createdAt),
      asc(senderAccounts.id),
    )
    .limit(1);
  return row?.account ?? null;
}

async function loadVariant(db: Database, campaign: CampaignRow, stepId: string, variantKey: string) {
  const steps = await loadSteps({ db, campaignId: campaign.id });
  const step = steps.find((s) => s.id === stepId);
  if (!step) throw notFound('Step not found');
  const variant = step.variants.find((v) => v.key === variantKey);
  if (!variant) throw notFound(`Step ${step.position} has no variant ${variantKey}`);
  return { steps, step, variant };
}

/**
 * The subject a step's copy goes out with for this contact: a follow-up replying in the thread shows
 * "Re: " and the subject of the nearest earlier step that has one (what the contact sees when the
 * earlier emails went out).
 */
function stepSubjectFor(options: {
  campaignId: string;
  steps: CampaignStep[];
  step: CampaignStep;
  variant: { subject: string };
  rendered: string;
  contact: PersonalizeContact;
  sender: PersonalizeSender;
}): string {
  if (!repliesInThread(options.step, options.variant)) return options.rendered;
  const earlier = earlierStepSubject({
    campaignId: options.campaignId,
    steps: options.steps,
    beforePosition: options.step.position,
    campaignContactId: options.contact.email,
    contact: options.contact,
    sender: options.sender,
  });
  return earlier ? replySubject(earlier) : options.rendered;
}

function removedLinkLines(removed: UnsafeUrl[]): string[] {
  return removed.map((link) => `${shownUrl(link.value)} — ${link.reason}`);
}

function previewContact(contact: PersonalizeContact): PreviewContact {
  return {
    email: contact.email,
    firstName: contact.firstName ?? null,
    lastName: contact.lastName ?? null,
    company: contact.company ?? null,
  };
}

function senderOf(
  account: SenderAccountRow | null,
  user: { email: string; firstName: string | null; lastName: string | null },
): PersonalizeSender {
  if (account) return { fromName: account.fromName, fromEmail: account.fromEmail, company: account.company };
  return {
    fromName: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email,
    fromEmail: user.email,
  };
}

/** The body and text part as the recipient sees them: with the footer when a sender account is known. */
function finish(input: {
  appUrl: string;
  trackingDomain: string | null;
  account: SenderAccountRow | null;
  contact: PersonalizeContact;
  subject: string;
  html: string;
}): { html: string; text: string } {
  const trackingBaseUrl = resolveTrackingBaseUrl({
    appUrl: input.appUrl,
    trackingDomain: input.trackingDomain,
  });
  const content = prepareMessageContent({
    html: input.html,
    token: PREVIEW_TOKEN,
    trackingBaseUrl,
    trackOpens: false,
    trackClicks: false,
  });
  // As the outbox will send it (queueMessages): a fragment becomes a document with a readable font.
  const html = asEmailDocument(content.html);
  if (!input.account) return { html, text: content.text };
  try {
    const mail = buildMailOptions({
      messageId: `${PREVIEW_TOKEN}@tambari.invalid`,
      token: PREVIEW_TOKEN,
      trackingBaseUrl,
      from: { name: input.account.fromName, email: input.account.fromEmail },
      replyTo: null,
      to: { name: null, email: input.contact.email },
      subject: input.subject,
      html,
      text: content.text,
      postalAddress: input.account.postalAddress,
      senderName: input.account.fromName,
      unsubscribeMailto: unsubscribeMailtoFor(input.account, PREVIEW_TOKEN),
    });
    return { html: String(mail.html), text: String(mail.text) };
  } catch {
    // An odd stored address must not break the preview; the body alone is still worth showing.
    return { html, text: content.text };
  }
}

export async function previewCampaignStep(
  options: PersonalizeContext & {
    userId: string;
    campaignId: string;
    stepId: string;
    variantKey: string;
    campaignContactId?: string;
    email?: string;
    sample?: boolean;
  },
): Promise<PersonalizePreview> {
  const { db } = options;
  const campaign = await getCampaignRow({ db, userId: options.userId, id: options.campaignId });
  const { steps, step, variant } = await loadVariant(db, campaign, options.stepId, options.variantKey);
  const user = await userRow(db, options.userId);
  const [chosen, account, knownFields] = await Promise.all([
    chooseContact({ ...options, campaign, role: user.role }),
    firstActiveAccount(db, campaign),
    customFieldsOfLists(db, campaign.userId, campaign.audience.listIds ?? []),
  ]);
  const sender = senderOf(account, user);
  const rendered = renderForContact({
    subject: variant.subject,
    html: variant.bodyHtml,
    contact: chosen.contact,
    sender,
    seed: renderSeed({ campaignId: campaign.id, stepId: step.id, email: chosen.contact.email }),
  });
  rendered.subject = stepSubjectFor({
    campaignId: campaign.id,
    steps,
    step,
    variant,
    rendered: rendered.subject,
    contact: chosen.contact,
    sender,
  });
  const problems = findMergeTagProblems({ subject: variant.subject, html: variant.bodyHtml, knownFields });
  const body = finish({
    appUrl: options.appUrl,
    trackingDomain: campaign.trackingDomain,
    account,
    contact: chosen.contact,
    subject: rendered.subject,
    html: rendered.html,
  });
  return {
    subject: rendered.subject,
    html: body.html,
    text: body.text,
    fallbacksUsed: rendered.fallbacksUsed,
    unknownTags: problems.unknownTags,
    syntaxErrors: problems.syntaxErrors,
    removedLinks: removedLinkLines(rendered.removedLinks),
    contact: previewContact(chosen.contact),
    sample: chosen.sample,
  };
}

/** Editors without a campaign (newsletter, bulk email, template): the first contact of the lists, or the sample. */
export async function previewContent(
  options: PersonalizeContext & { userId: string; subject: string; html: string; listIds?: string[] },
): Promise<PersonalizePreview> {
  const { db } = options;
  const user = await userRow(db, options.userId);
  const listIds = options.listIds ?? [];
  const knownFields = await customFieldsOfLists(db, options.userId, listIds);
  let contact: PersonalizeContact | null = null;
  if (listIds.length > 0) {
    try {
      contact = await fromAudience({
        db,
        userId: options.userId,
        role: user.role,
        audience: { listIds, leadFilters: [] },
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  const [account] = await db
    .select()
    .from(senderAccounts)
    .where(eq(senderAccounts.userId, options.userId))
    .orderBy(
      sql`${senderAccounts.status} = 'active' desc`,
      asc(senderAccounts.createdAt),
      asc(senderAccounts.id),
    )
    .limit(1);
  const shown = contact ?? SAMPLE_CONTACT;
  const rendered = renderForContact({
    subject: options.subject,
    html: options.html,
    contact: shown,
    sender: senderOf(account ?? null, user),
    seed: `preview:${shown.email.toLowerCase()}`,
  });
  const problems = findMergeTagProblems({ subject: options.subject, html: options.html, knownFields });
  const body = finish({
    appUrl: options.appUrl,
    trackingDomain: null,
    account: null,
    contact: shown,
    subject: rendered.subject,
    html: rendered.html,
  });
  return {
    subject: rendered.subject,
    html: body.html,
    text: body.text,
    fallbacksUsed: rendered.fallbacksUsed,
    unknownTags: problems.unknownTags,
    syntaxErrors: problems.syntaxErrors,
    removedLinks: removedLinkLines(rendered.removedLinks),
    contact: previewContact(shown),
    sample: contact === null,
  };
}

/** Takes one of today's sends of the account (refused at its cap), as sendSenderTestEmail does. */
/**
 * Sends one personalised copy of a step's variant to the user (or `to`) through the chosen account, with
 * the footer and unsubscribe headers of a real send and "[Test]" before the subject. No tracking, no
 * outbox row: it is not part of the campaign.
 */
export async function sendCampaignTestEmail(
  options: TestSendContext & {
    userId: string;
    campaignId: string;
    stepId: string;
    variantKey: string;
    senderAccountId: string;
    to?: string;
    email?: string;
    campaignContactId?: string;
  },
): Promise<TestSendResult> {
  const { db } = options;
  const campaign = await getCampaignRow({ db, userId: options.userId, id: options.campaignId });
  const { steps, step, variant } = await loadVariant(db, campaign, options.stepId, options.variantKey);
  const warnings = testSendWarnings({
    subject: variant.subject,
    html: variant.bodyHtml,
    knownFields: await customFieldsOfLists(db, campaign.userId, campaign.audience.listIds ?? []),
  });
  const account = await getSenderAccountRow({ db, userId: options.userId, id: options.senderAccountId });
  const user = await userRow(db, options.userId);
  const to = options.to ?? user.email;
  const chosen = await chooseContact({ ...options, campaign, role: user.role });
  const sender = { fromName: account.fromName, fromEmail: account.fromEmail, company: account.company };
  const rendered = renderForContact({
    subject: variant.subject,
    html: variant.bodyHtml,
    contact: chosen.contact,
    sender,
    seed: renderSeed({ campaignId: campaign.id, stepId: step.id, email: chosen.contact.email }),
  });
  rendered.subject = stepSubjectFor({
    campaignId: campaign.id,
    steps,
    step,
    variant,
    rendered: rendered.subject,
    contact: chosen.contact,
    sender,
  });
  const token = `test-${randomBytes(12).toString('base64url')}`;
  const trackingBaseUrl = resolveTrackingBaseUrl({
    appUrl: options.appUrl,
    trackingDomain: campaign.trackingDomain,
  });
  const content = prepareMessageContent({
    html: rendered.html,
    token,
    trackingBaseUrl,
    trackOpens: false,
    trackClicks: false,
  });
  const mail = buildMailOptions({
    messageId: makeMessageId(account.fromEmail),
    token,
    trackingBaseUrl,
    from: { name: account.fromName, email: account.fromEmail },
    replyTo: account.replyTo,
    to: { name: null, email: to },
    subject: `[Test] ${rendered.subject}`,
    html: asEmailDocument(content.html),
    text: content.text,
    postalAddress: account.postalAddress,
    senderName: account.fromName,
    unsubscribeMailto: unsubscribeMailtoFor(account, token),
  });

  await sendOneOffEmail({ ...options, account, mail });
  return { ok: true, to, warnings };
}
