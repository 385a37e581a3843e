import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import { sql } from 'drizzle-orm';
import { ABANDONED_NOTE, MAX_SEND_ATTEMPTS, REDELIVERY_NOTE, RETRY_BACKOFF_MS } from './retry-policy';

export { REDELIVERY_NOTE } from './retry-policy';

/**
 * Recovers messages whose worker died (or froze past its lease) while holding them.
 *
 * - phase 'claimed' or 'allocated': no SMTP conversation had started; the message goes back to the
 *   queue as it was.
 * - phase 'delivering': it was on (or next in line for) an SMTP connection, so it may or may not have
 *   left. We send it again, with the same Message-ID and from the same account: losing a message
 *   silently is worse, and receiving systems (Gmail among them) fold a second copy with the same
 *   Message-ID into the first. The row keeps a note, and docs/sending.md explains the window.
 *
 * What the allocation took (the account's daily count, the campaign's own cap, the domain's pace) is
 * given back, since the message takes it again when it is sent: a crash never burns a day's cap.
 *
 * The claim's attempt is not given back: a message whose handling keeps killing its worker waits longer
 * each time (the retry backoff) and is failed after MAX_SEND_ATTEMPTS, so it can never hold a queue.
 */
export async function recoverExpiredLeases(options: {
  db: Database;
  /** Tests on a shared database recover only their own user's rows; the job recovers all. */
  onlyUserId?: string;
}): Promise<{ requeued: number; redelivered: number; failed: number }> {
  const at = now().toISOString();
  const backoff = sql.join(
    RETRY_BACKOFF_MS.map((ms, i) => sql`WHEN e.attempts = ${i + 2}::int THEN ${ms}::int`),
    sql` `,
  );
  const result = await options.db.execute(sql`
    WITH expired AS (
      SELECT id, phase, attempts, user_id, campaign_id, campaign_contact_id, step_id, to_email,
        sender_account_id, slot_day, campaign_slot_day, pace_hour
      FROM outbox_messages
      WHERE state = 'sending' AND lease_until < ${at}::timestamptz
        ${options.onlyUserId ? sql`AND user_id = ${options.onlyUserId}` : sql``}
      FOR UPDATE SKIP LOCKED),
    recovered AS (
      UPDATE outbox_messages AS o
      SET state = CASE WHEN e.attempts >= ${MAX_SEND_ATTEMPTS}::int THEN 'failed' ELSE 'queued' END,
          last_error = CASE
            WHEN e.attempts >= ${MAX_SEND_ATTEMPTS}::int
              THEN ${ABANDONED_NOTE}::text || ' ' || e.attempts || ' times; gave up'
            WHEN e.phase = 'delivering' THEN ${REDELIVERY_NOTE}::text
            ELSE o.last_error END,
          send_after = CASE WHEN e.attempts <= 1 THEN ${at}::timestamptz
            ELSE ${at}::timestamptz + make_interval(secs => (CASE ${backoff} ELSE ${RETRY_BACKOFF_MS.at(-1)!}::int END) / 1000.0::double precision)
            END,
          phase = NULL, lease_owner = NULL, lease_until = NULL, updated_at = ${at}::timestamptz
      FROM expired e
      WHERE o.id = e.id
      RETURNING o.id, o.state, e.phase),
    account_slots AS (
      UPDATE sender_accounts a SET sends_today = greatest(a.sends_today - r.n, 0)
      FROM (SELECT sender_account_id, slot_day, count(*)::int AS n FROM expired
            WHERE phase IN ('allocated', 'delivering') AND sender_account_id IS NOT NULL AND slot_day IS NOT NULL
            GROUP BY sender_account_id, slot_day) r
      WHERE a.id = r.sender_account_id AND a.sends_day = r.slot_day
      RETURNING 1),
    campaign_slots AS (
      UPDATE campaign_send_days d SET sent = greatest(d.sent - r.n, 0)
      FROM (SELECT campaign_id, campaign_slot_day, count(*)::int AS n FROM expired
            WHERE phase IN ('allocated', 'delivering') AND campaign_slot_day IS NOT NULL
            GROUP BY campaign_id, campaign_slot_day) r
      WHERE d.campaign_id = r.campaign_id AND d.day = r.campaign_slot_day
      RETURNING 1),
    pace AS (
      UPDATE domain_pace_counters p SET sent = greatest(p.sent - r.n, 0)
      FROM (SELECT user_id, lower(split_part(to_email, '@', -1)) AS domain, pace_hour, count(*)::int AS n
            FROM expired
            WHERE phase IN ('allocated', 'delivering') AND pace_hour IS NOT NULL
            GROUP BY user_id, lower(split_part(to_email, '@', -1)), pace_hour) r
      WHERE p.user_id = r.user_id AND p.domain = r.domain AND p.hour_start = r.pace_hour
      RETURNING 1),
    failed_events AS (
      INSERT INTO email_events (user_id, campaign_id, step_id, campaign_contact_id, outbox_message_id,
        sender_account_id, type, detail, occurred_at)
      SELECT e.user_id, e.campaign_id, e.step_id, e.campaign_contact_id, e.id, e.sender_account_id, 'failed',
        ${ABANDONED_NOTE}::text || ' ' || e.attempts || ' times; gave up', ${at}::timestamptz
      FROM expired e JOIN recovered r ON r.id = e.id
      WHERE r.state = 'failed'
      RETURNING 1)
    SELECT r.state, r.phase,
      (SELECT count(*) FROM account_slots) + (SELECT count(*) FROM campaign_slots) + (SELECT count(*) FROM pace)
        + (SELECT count(*) FROM failed_events) AS side_effects
    FROM recovered r`);
  const rows = (result as unknown as { rows: { state: string; phase: string | null }[] }).rows;
  return {
    requeued: rows.filter((r) => r.state === 'queued').length,
    redelivered: rows.filter((r) => r.state === 'queued' && r.phase === 'delivering').length,
    failed: rows.filter((r) => r.state === 'failed').length,
  };
}

/**
 * Held messages of a campaign that is not paused go back on the due index; without this they would wait
 * for ever. A pause holds and a resume releases in the transaction that changes the status, so this finds
 * something only when a status was changed some other way (an operator's SQL, a bench, a future code
 * path). Visits each campaign that has held messages once, by a skip scan of the held index (one probe
 * per campaign, not per message): a paused campaign of a million messages costs one probe a run.
 */
export async function releaseStrayHolds(options: { db: Database }): Promise<number> {
  const result = (await options.db.execute(sql`
    WITH RECURSIVE held_campaigns AS (
      (SELECT campaign_id FROM outbox_messages WHERE held AND state = 'queued' ORDER BY campaign_id LIMIT 1)
      UNION ALL
      SELECT (SELECT o.campaign_id FROM outbox_messages o
              WHERE o.held AND o.state = 'queued' AND o.campaign_id > h.campaign_id
              ORDER BY o.campaign_id LIMIT 1)
      FROM held_campaigns h WHERE h.campaign_id IS NOT NULL
    ), unpaused AS (
      SELECT h.campaign_id FROM held_campaigns h
      WHERE h.campaign_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM campaigns c WHERE c.id = h.campaign_id AND c.status = 'paused')
    )
    UPDATE outbox_messages o SET held = false
    FROM unpaused u
    WHERE o.campaign_id = u.campaign_id AND o.held AND o.state = 'queued'`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return result.rowCount ?? result.affectedRows ?? 0;
}
