import { z } from 'zod';

/**
 * Every minute: starts newsletters and bulk emails whose scheduled time has come, takes over sends whose
 * process died, and marks finished sends 'sent' (src/server/features/newsletters/newsletter-send.service.ts).
 */
export const sendScheduledNewslettersJob = {
  name: 'send-scheduled-newsletters',
  payload: z.object({}),
  cron: '* * * * *',
} as const;
