import type { FastifyBaseLogger } from 'fastify';
import { pruneAppLogs } from '../../server/features/admin-operations/logs.service';
import type { WorkerServices } from '../services';

/** Safe to run twice: deleting what is past the bounds is idempotent. */
export async function handlePruneAppLogs(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: Record<string, never>;
}): Promise<void> {
  const { env } = input.services;
  const result = await pruneAppLogs({
    db: input.services.db,
    maxRows: env?.LOG_TABLE_MAX_ROWS ?? 500_000,
    retentionDays: env?.LOG_RETENTION_DAYS ?? 14,
  });
  if (result.expired + result.overCap > 0) input.log.info(result, 'pruned the log table');
}
