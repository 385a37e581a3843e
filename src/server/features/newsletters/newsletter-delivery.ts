import { and, eq } from 'drizzle-orm';
import { NEWSLETTER_MESSAGES } from '../../../shared/newsletters';
import type { Database } from '../../db/client';
import { newsletters, senderAccounts } from '../../db/schema/index';
import { AppError } from '../../lib/errors';
import type { SenderNetwork } from '../../lib/network-guard';
import { renderForContact } from '../personalization/personalization.service';
import { getSenderAccountRow, sendOneOffEmail } from '../sender-accounts/sender-accounts.service';
import { hasVisibleContent } from './bulk-html';
import { sendableHtml } from './newsletter-send.service';
import { getNewsletterRow } from './newsletters.service';
import { findNewsletterPlaceholders, listFields } from './presend-check';

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
    .where(eq(newsletters.webToken, options.token))
    .limit(1);
  if (!row) return null;
  const [sender] = row.senderAccountIds.length
    ? await options.db
        .select({ fromName: senderAccounts.fromName, fromEmail: senderAccounts.fromEmail })
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

export async function sendNewsletterTest(options: {
  db: Database;
  encryptionKey: Buffer;
  network: SenderNetwork;
  devMailboxPort: number | null;
  user: { id: string; email: string; firstName?: string | null; lastName?: string | null };
  id: string;
  input: { senderAccountId: string; to?: string };
}): Promise<{ warnings: string[] }> {
  const { db, user } = options;
  const row = await getNewsletterRow({ db, userId: user.id, id: options.id });
  if (!row.subject.trim()) throw new AppError('validation', NEWSLETTER_MESSAGES.needsSubject);
  if (!hasVisibleContent(row.html)) throw new AppError('validation', NEWSLETTER_MESSAGES.needsBody);
  // The test goes anyway; what a real send would refuse (presend-check.ts) comes back as warnings.
  const warnings = findNewsletterPlaceholders({
    ...row,
    knownFields: await listFields(db, user.id, row.listIds),
  }).map((issue) => issue.message);
  const account = await getSenderAccountRow({ db, userId: user.id, id: options.input.senderAccountId });
  const to = options.input.to ?? user.email;
  const rendered = renderForContact({
    subject: row.subject,
    html: sendableHtml(row),
    contact: {
      email: to,
      firstName: user.firstName ?? null,
      lastName: user.lastName ?? null,
      company: null,
      city: null,
      countryCode: null,
      fields: {},
    },
    sender: { fromName: account.fromName, fromEmail: account.fromEmail },
    seed: `${row.id}:${to}`,
  });

  // A test counts towards the account's sends today, like the sender test email.
  await sendOneOffEmail({
    db,
    account,
    encryptionKey: options.encryptionKey,
    network: options.network,
    devMailboxPort: options.devMailboxPort,
    mail: {
      from: { name: account.fromName, address: account.fromEmail },
      replyTo: account.replyTo ?? undefined,
      to,
      subject: `[Test] ${rendered.subject}`.replace(/[\r\n]+/g, ' '),
      html: rendered.html,
      disableFileAccess: true,
      disableUrlAccess: true,
    },
  });
  return { warnings };
}
