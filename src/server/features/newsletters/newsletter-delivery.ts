import { and, eq, sql } from 'drizzle-orm';
import { NEWSLETTER_MESSAGES } from '../../../shared/newsletters';
import type { Database } from '../../db/client';
import { newsletters, senderAccounts } from '../../db/schema/index';
import { now } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { SenderNetwork } from '../../lib/network-guard';
import { renderForContact } from '../campaigns/personalize';
import { accountLocalDate, effectiveDailyCap } from '../sender-accounts/sender-account-rules';
import { getSenderAccountRow } from '../sender-accounts/sender-accounts.service';
import { openSmtpTransport } from '../sender-accounts/sender-transport';
import { classifySmtpError } from '../sender-accounts/smtp-errors';
import { hasVisibleContent } from './bulk-html';
import { sendableHtml } from './newsletter-send.service';
import { getNewsletterRow } from './newsletters.service';

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
}): Promise<void> {
  const { db, user } = options;
  const row = await getNewsletterRow({ db, userId: user.id, id: options.id });
  if (!row.subject.trim()) throw new AppError('validation', NEWSLETTER_MESSAGES.needsSubject);
  if (!hasVisibleContent(row.html)) throw new AppError('validation', NEWSLETTER_MESSAGES.needsBody);
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
  const at = now();
  const day = accountLocalDate(at, account.timeZone);
  const cap = effectiveDailyCap(account, day);
  const [counted] = await db
    .update(senderAccounts)
    .set({
      sendsToday: sql`CASE WHEN ${senderAccounts.sendsDay} = ${day}::date THEN ${senderAccounts.sendsToday} + 1 ELSE 1 END`,
      sendsDay: day,
      lastUsedAt: at,
    })
    .where(
      and(
        eq(senderAccounts.id, account.id),
        sql`(${senderAccounts.sendsDay} IS DISTINCT FROM ${day}::date OR ${senderAccounts.sendsToday} < ${cap})`,
      ),
    )
    .returning({ id: senderAccounts.id });
  if (!counted) {
    throw new AppError(
      'conflict',
      `This account has reached today's limit of ${cap} emails. Try again tomorrow.`,
    );
  }
  const giveBack = () =>
    db.execute(sql`UPDATE sender_accounts SET sends_today = greatest(sends_today - 1, 0)
      WHERE id = ${account.id} AND sends_day = ${day}::date`);
  const transport = await openSmtpTransport({
    account,
    encryptionKey: options.encryptionKey,
    network: options.network,
    devMailboxPort: options.devMailboxPort,
  }).catch(async (error: unknown) => {
    await giveBack();
    throw new AppError('bad_request', classifySmtpError(error).safeMessage);
  });
  try {
    await transport.sendMail({
      from: { name: account.fromName, address: account.fromEmail },
      replyTo: account.replyTo ?? undefined,
      to,
      subject: `[Test] ${rendered.subject}`.replace(/[\r\n]+/g, ' '),
      html: rendered.html,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  } catch (error) {
    await giveBack();
    throw new AppError('bad_request', classifySmtpError(error).safeMessage);
  } finally {
    transport.close();
  }
}
