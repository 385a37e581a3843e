import { z } from 'zod';

/** Requeues messages whose worker died holding them (src/server/features/sending/outbox-recovery.ts). */
export const recoverOutboxLeasesJob = {
  name: 'recover-outbox-leases',
  payload: z.object({}),
  cron: '* * * * *',
} as const;
