import { lt } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { sessions, verifications } from '../db/schema/index';
import { pruneAccountThrottles } from '../features/auth/account-throttles.service';
import { now } from '../lib/clock';

export const purgeExpiredSessionsJob = {
  name: 'purge-expired-sessions',
  payload: z.object({}),
  /** Hourly; expired rows are already refused at read time, this only keeps the tables small. */
  cron: '17 * * * *',
} as const;

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
