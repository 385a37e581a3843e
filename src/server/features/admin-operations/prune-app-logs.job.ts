import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { pruneAppLogs } from './logs.service';

/** Safe to run twice: deleting what is past the bounds is idempotent. */
export const pruneAppLogsJob = defineJob({
  name: 'prune-app-logs',
  description: 'Keeps the log table within its row cap and retention.',
  payload: z.object({}),
  /**
   * Every 10 minutes: the log table stays within LOG_TABLE_MAX_ROWS and LOG_RETENTION_DAYS (a busy
   * platform writes a few thousand lines a minute, so the cap is never overshot by much).
   */
  cron: '*/10 * * * *',
  async run({ services, log }) {
    const result = await pruneAppLogs({
      db: services.db,
      maxRows: services.env.LOG_TABLE_MAX_ROWS,
      retentionDays: services.env.LOG_RETENTION_DAYS,
    });
    if (result.expired + result.overCap > 0) log.info(result, 'pruned the log table');
  },
});
