import type { Database } from '@server/db/client';
import { deletedAccounts } from '@server/db/schema/index';
import { defineJob } from '@server/jobs/define-job';
import { now } from '@server/lib/clock';
import { lt, sql } from 'drizzle-orm';
import { z } from 'zod';

export const purgeDeletedAccountEventsJob = defineJob({
  name: 'purge-deleted-account-events',
  description: 'Deletes opens and clicks recorded for an account after it was deleted.',
  payload: z.object({}),
  /** Hourly: events written for an account after it was deleted live an hour at most. */
  cron: '41 * * * *',
  async run({ services, log }) {
    const result = await purgeDeletedAccountEvents({ db: services.db });
    if (result.events > 0) log.info(result, 'deleted events written after their account was deleted');
  },
});

/** How long a deleted account is remembered: far longer than any open or click can be on its way. */
export const DELETED_ACCOUNT_MEMORY_MS = 2 * 86_400_000;

/**
 * email_events has no foreign key to the user (schema/sending.ts). Deleting an account deletes its
 * events at once (the trigger of migration 0013); a hit already buffered in a web process, or a delivery
 * outcome being recorded at that moment, can still land afterwards. This deletes those, then forgets
 * accounts deleted more than two days ago. Idempotent.
 */
export async function purgeDeletedAccountEvents({ db }: { db: Database }): Promise<{ events: number }> {
  const result = await db.execute(sql`
    WITH gone AS (
      DELETE FROM email_events WHERE user_id IN (SELECT user_id FROM deleted_accounts) RETURNING 1
    )
    SELECT count(*)::int AS n FROM gone`);
  const events = Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  await db
    .delete(deletedAccounts)
    .where(lt(deletedAccounts.deletedAt, new Date(now().getTime() - DELETED_ACCOUNT_MEMORY_MS)));
  return { events };
}
