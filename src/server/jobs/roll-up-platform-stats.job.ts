import { z } from 'zod';

export const rollUpPlatformStatsJob = {
  name: 'roll-up-platform-stats',
  payload: z.object({}),
  /** Every minute: the screens count the events after the roll-up live, so a short tail keeps them cheap. */
  cron: '* * * * *',
} as const;
