import type { Database } from '@server/db/client';
import { sessions, verifications } from '@server/db/schema/index';
import { defineJob } from '@server/jobs/define-job';
import { now } from '@server/lib/clock';
import { lt } from 'drizzle-orm';
import { z } from 'zod';
import { pruneAccountThrottles } from './account-throttles.service';

export const purgeExpiredSessionsJob = defineJob({
  name: 'purge-expired-sessions',
  description: 'Deletes expired sessions, reset tokens and sign-in throttles that no longer limit anything.',
  payload: z.object({}),
  /** Hourly; expired rows are already refused at read time, this only keeps the tables small. */
  cron: '17 * * * *',
  async run({ services, log }) {
    const result = await purgeExpiredSessions({ db: services.db });
    if (result.sessions + result.tokens + result.throttles > 0)
      log.info(result, 'purged expired sessions, tokens and sign-in throttles');
  },
});

/** Safe to run twice: deleting what has expired is idempotent. */
export async function purgeExpiredSessions({
  db,
}: {
  db: Database;
}): Promise<{ sessions: number; tokens: number; throttles: number }> {
  const cutoff = now();
  const deletedSessions = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, cutoff))
    .returning({ id: sessions.id });
  const deletedTokens = await db
    .delete(verifications)
    .where(lt(verifications.expiresAt, cutoff))
    .returning({ id: verifications.id });
  // Failed sign-in and reset-mail counts that no longer limit anything (a day after their last use).
  const throttles = await pruneAccountThrottles({ db });
  return { sessions: deletedSessions.length, tokens: deletedTokens.length, throttles };
}
