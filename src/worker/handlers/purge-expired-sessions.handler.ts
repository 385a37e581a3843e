import type { FastifyBaseLogger } from 'fastify';
import { purgeExpiredSessions } from '../../server/jobs/purge-expired-sessions.job';
import type { WorkerServices } from '../services';

export async function handlePurgeExpiredSessions(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const result = await purgeExpiredSessions({ db: input.services.db });
  if (result.sessions + result.tokens + result.throttles > 0)
    input.log.info(result, 'purged expired sessions, tokens and sign-in throttles');
}
