import type { Database } from '@server/db/client';
import { sql } from 'drizzle-orm';

/*
 * A campaign's own daily cap (on top of each account's), in the campaign's time zone: a counter row per
 * campaign and day (campaign_send_days), taken under a row lock before accounts are chosen and given back
 * for messages that then do not leave. With several workers each batch in flight is counted the moment
 * it is taken, so together they never pass the cap.
 */

/** Takes up to `count` of today's sends; answers how many were granted (0 once the cap is reached). */
export async function takeCampaignSlots(
  db: Database,
  options: { campaignId: string; day: string; dayStart: Date; cap: number; count: number },
): Promise<number> {
  if (options.count <= 0) return 0;
  const { campaignId, day } = options;
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const lock = () =>
      tx.execute(sql`
        SELECT sent FROM campaign_send_days WHERE campaign_id = ${campaignId} AND day = ${day}::date
        FOR UPDATE`);
    let rows = rowsOf<{ sent: number }>(await lock());
    if (rows.length === 0) {
      // The day's first batch: start from what really left today (sends before an upgrade, a restart).
      await tx.execute(sql`
        INSERT INTO campaign_send_days (campaign_id, day, sent)
        SELECT ${campaignId}, ${day}::date, count(*)::int FROM outbox_messages
        WHERE campaign_id = ${campaignId} AND sent_at >= ${options.dayStart.toISOString()}::timestamptz
        ON CONFLICT DO NOTHING`);
      rows = rowsOf<{ sent: number }>(await lock());
    }
    const used = Number(rows[0]?.sent ?? 0);
    const granted = Math.max(0, Math.min(options.count, options.cap - used));
    if (granted > 0) {
      await tx.execute(sql`
        UPDATE campaign_send_days SET sent = sent + ${granted}
        WHERE campaign_id = ${campaignId} AND day = ${day}::date`);
    }
    return granted;
  });
}

/** Gives back sends taken for messages that did not leave (deferred after all, or failed to send). */
export async function releaseCampaignSlots(
  db: Database,
  options: { campaignId: string; day: string; count: number },
): Promise<void> {
  if (options.count <= 0) return;
  await db.execute(sql`
    UPDATE campaign_send_days SET sent = greatest(sent - ${options.count}, 0)
    WHERE campaign_id = ${options.campaignId} AND day = ${options.day}::date`);
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
