import { z } from 'zod';

export const pruneAppLogsJob = {
  name: 'prune-app-logs',
  payload: z.object({}),
  /**
   * Every 10 minutes: the log table stays within LOG_TABLE_MAX_ROWS and LOG_RETENTION_DAYS (a busy
   * platform writes a few thousand lines a minute, so the cap is never overshot by much).
   */
  cron: '*/10 * * * *',
} as const;
