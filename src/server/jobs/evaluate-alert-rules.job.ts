import { z } from 'zod';

export const evaluateAlertRulesJob = {
  name: 'evaluate-alert-rules',
  payload: z.object({}),
  /** Every minute: an alert opens (and mails the super admins) within a minute of its condition. */
  cron: '* * * * *',
} as const;

/** How often each worker process records that it is alive (the "worker not seen" rule reads it). */
export const WORKER_HEARTBEAT_MS = 30_000;
