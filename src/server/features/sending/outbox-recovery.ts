import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { now } from '../../lib/clock';

export const REDELIVERY_NOTE = 'The worker stopped during delivery; sent again with the same Message-ID';

/**
 * Recovers messages whose worker died (or froze past its lease) while holding them.
 *
 * - phase 'claimed': no SMTP conversation had started; the message goes back to the queue as it was.
 * - phase 'delivering': the SMTP transaction may or may not have completed. We send it again, with the
 *   same Message-ID: losing a message silently is worse, and receiving systems (Gmail among them)
 *   fold a second copy with the same Message-ID into the first. The row keeps a note, and
 *   docs/sending.md explains the window (between the server's "250 OK" and our commit, a few
 *   milliseconds per message).
 */
export async function recoverExpiredLeases(options: {
  db: Database;
  /** Tests on a shared database recover only their own user's rows; the job recovers all. */
  onlyUserId?: string;
}): Promise<{ requeued: number; redelivered: number }> {
  const at = now().toISOString();
  const result = await options.db.execute(sql`
    WITH expired AS (
      SELECT id, phase FROM outbox_messages
      WHERE state = 'sending' AND lease_until < ${at}::timestamptz
        ${options.onlyUserId ? sql`AND user_id = ${options.onlyUserId}` : sql``}
      FOR UPDATE SKIP LOCKED)
    UPDATE outbox_messages AS o
    SET state = 'queued',
        last_error = CASE WHEN expired.phase = 'delivering' THEN ${REDELIVERY_NOTE} ELSE o.last_error END,
        phase = NULL, lease_owner = NULL, lease_until = NULL, send_after = ${at}::timestamptz,
        attempts = CASE WHEN expired.phase = 'delivering' THEN o.attempts ELSE greatest(o.attempts - 1, 0) END,
        updated_at = ${at}::timestamptz
    FROM expired
    WHERE o.id = expired.id
    RETURNING (expired.phase = 'delivering') AS redelivered`);
  const rows = (result as unknown as { rows: { redelivered: boolean }[] }).rows;
  return { requeued: rows.length, redelivered: rows.filter((r) => r.redelivered).length };
}
