import type { Database } from '@server/db/client';
import { sql } from 'drizzle-orm';

/*
 * The per-user sending figures (outbox_user_daily) and the analytics roll-ups keep one row per key and
 * writing database connection (migrations *_outbox_user_daily_slots and *_analytics_slots), so that two
 * workers recording the same user's sends never wait on one row. Readers add the slots up; folding them
 * back into slot 0 keeps the tables about one row a key. A newsletter folds its user's at its finish;
 * this folds everyone's, for the sends that never finish one (campaign sequences, one-off sends).
 */

/** Users folded per run at most; the next run takes the rest. */
const USERS_PER_RUN = 500;

export async function foldRollupSlots(options: { db: Database }): Promise<{ users: number }> {
  const { db } = options;
  // The two per-user tables are small (a row per user and day). The per-campaign roll-ups need no look:
  // the statement that writes a slot's campaign rows writes its per-user row too, and a fold takes all three.
  const result = await db.execute(sql`
    SELECT user_id FROM outbox_user_daily WHERE slot <> 0
    UNION SELECT user_id FROM analytics_user_daily WHERE slot <> 0
    LIMIT ${USERS_PER_RUN}`);
  const users = (result as unknown as { rows: { user_id: string }[] }).rows.map((r) => r.user_id);
  for (const userId of users) {
    // Each in a transaction of its own, as at a newsletter's finish: a fold waits only for the writers of
    // its own user, and holds nothing while it does.
    await db.execute(sql`SELECT outbox_user_daily_fold(${userId})`);
    await db.execute(sql`SELECT analytics_fold(${userId})`);
  }
  return { users: users.length };
}
