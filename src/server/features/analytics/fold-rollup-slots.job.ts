import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { foldRollupSlots } from './rollup-slots.service';

/** Safe to run twice at once: each fold locks its user's rows in key order, and a folded user has nothing left. */
export const foldRollupSlotsJob = defineJob({
  name: 'fold-rollup-slots',
  description:
    'Folds the per-day sending and analytics figures each database connection kept apart back into one row per day.',
  payload: z.object({}),
  /** Hourly: a newsletter folds its own at its finish; campaign sequences send all day and never finish one. */
  cron: '41 * * * *',
  async run({ services, log }) {
    const folded = await foldRollupSlots({ db: services.db });
    if (folded.users > 0) log.info(folded, 'folded roll-up slots');
  },
});
