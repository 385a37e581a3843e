import type { Database } from '@server/db/client';
import type { SystemMailer } from '@server/lib/mailer';
import { sql } from 'drizzle-orm';
import { setSenderFailing } from '../sender-accounts/sender-status.service';

/** An account is paused when more than this share of its recent sends bounced. */
export const BOUNCE_RATE_LIMIT = 0.05;
/** Looked at over this many of its latest sends… */
export const BOUNCE_RATE_WINDOW = 100;
/** …once it has at least this many (two bounces in the first three sends say little). */
export const BOUNCE_RATE_MIN_SENDS = 20;

/**
 * Pauses (marks failing, with a notice to the owner) an account whose bounce rate over its last 100
 * sends passes 5%: a climbing bounce rate is what gets a domain blocklisted. Called after every hard
 * bounce, whether the server refused the recipient at once or a delivery report came back later.
 */
export async function checkSenderBounceRate(options: {
  db: Database;
  mailer: SystemMailer;
  appUrl: string;
  accountId: string;
}): Promise<{ bounced: number; total: number; paused: boolean }> {
  const result = await options.db.execute(sql`
    SELECT count(*) FILTER (WHERE state = 'bounced')::int AS bounced, count(*)::int AS total
    FROM (SELECT state FROM outbox_all
          WHERE sender_account_id = ${options.accountId} AND sent_at IS NOT NULL
          ORDER BY sent_at DESC LIMIT ${BOUNCE_RATE_WINDOW}) recent`);
  const row = (result as unknown as { rows: { bounced: number; total: number }[] }).rows[0];
  const bounced = Number(row?.bounced ?? 0);
  const total = Number(row?.total ?? 0);
  const paused = total >= BOUNCE_RATE_MIN_SENDS && bounced / total > BOUNCE_RATE_LIMIT;
  if (paused) {
    await setSenderFailing({
      db: options.db,
      mailer: options.mailer,
      appUrl: options.appUrl,
      accountId: options.accountId,
      reason: `${Math.round((bounced / total) * 100)}% of its last ${total} emails bounced (the limit is 5%). Clean the list before resuming.`,
    });
  }
  return { bounced, total, paused };
}
