import type { Database } from '@server/db/client';
import { senderAccounts, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { escapeHtml } from '@server/lib/html';
import type { SystemMailer } from '@server/lib/mailer';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';

/*
 * The account health the dispatcher reports: a run of authentication failures or a bounce rate past the
 * limit marks an account 'failing' (it stops sending) and tells its owner once, by email.
 */

/** Authentication failures in a row after which the account is marked failing. */
export const AUTH_FAILURES_BEFORE_FAILING = 3;

export const AUTH_FAILING_REASON =
  'The mail server refused the user name or password several times in a row. Check the password (for Gmail and Microsoft 365 use an app password).';

/**
 * Marks the account failing with a reason and emails its owner — only on the transition, so a worker that
 * reports the same problem again (or two workers at once) sends one notice. Safe to call repeatedly.
 */
export async function setSenderFailing(options: {
  db: Database;
  mailer: SystemMailer;
  appUrl: string;
  accountId: string;
  reason: string;
  log?: FastifyBaseLogger;
}): Promise<void> {
  const at = now();
  const reason = options.reason.replace(/[\r\n]+/g, ' ').slice(0, 500);
  const [changed] = await options.db
    .update(senderAccounts)
    .set({ status: 'failing', statusReason: reason, statusChangedAt: at })
    .where(and(eq(senderAccounts.id, options.accountId), ne(senderAccounts.status, 'failing')))
    .returning({ userId: senderAccounts.userId, fromEmail: senderAccounts.fromEmail });
  if (!changed) return;
  const [owner] = await options.db
    .select({ email: users.email, firstName: users.firstName, name: users.name })
    .from(users)
    .where(eq(users.id, changed.userId))
    .limit(1);
  if (!owner) return;
  const link = `${options.appUrl}/settings#sender-accounts`;
  const greeting = `Hello ${owner.firstName || owner.name || 'there'},`;
  const sentence = `Your sender account ${changed.fromEmail} was paused: ${reason}`;
  const fix = 'Fix it and resume it in Settings → Sender accounts:';
  try {
    await options.mailer.send({
      to: owner.email,
      subject: `Sender account paused: ${changed.fromEmail}`,
      text: `${greeting}\n\n${sentence}\n\n${fix} ${link}\n\nCampaigns keep sending through your other active accounts.\n\nTambari`,
      html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(sentence)}</p><p>${escapeHtml(fix)} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>Campaigns keep sending through your other active accounts.</p><p>Tambari</p>`,
    });
  } catch (error) {
    // The account is failing either way; the notice is shown in Settings too.
    options.log?.error({ err: error, senderAccountId: options.accountId }, 'sender failing notice not sent');
  }
}

/**
 * Counts one more authentication failure in a row; the third marks the account failing.
 * Answers the new count and whether the account is now failing.
 */
export async function recordAuthFailure(options: {
  db: Database;
  mailer: SystemMailer;
  appUrl: string;
  accountId: string;
  log?: FastifyBaseLogger;
}): Promise<{ authFailures: number; failing: boolean }> {
  const [row] = await options.db
    .update(senderAccounts)
    .set({ authFailures: sql`${senderAccounts.authFailures} + 1` })
    .where(eq(senderAccounts.id, options.accountId))
    .returning({ authFailures: senderAccounts.authFailures });
  if (!row) return { authFailures: 0, failing: false };
  if (row.authFailures < AUTH_FAILURES_BEFORE_FAILING)
    return { authFailures: row.authFailures, failing: false };
  await setSenderFailing({ ...options, reason: AUTH_FAILING_REASON });
  return { authFailures: row.authFailures, failing: true };
}

/** A send went through: the run of authentication failures is over. Writes nothing when there was none. */
export async function recordSendSuccess(options: { db: Database; accountId: string }): Promise<void> {
  await options.db
    .update(senderAccounts)
    .set({ authFailures: 0 })
    .where(and(eq(senderAccounts.id, options.accountId), ne(senderAccounts.authFailures, 0)));
}
