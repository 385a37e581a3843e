import { z } from 'zod';
import { VERIFY_LIST_JOB } from '../features/verification/verification.service';

/** A "Verify list" run, resumable: it saves progress per batch. */
export const verifyListJob = {
  name: VERIFY_LIST_JOB,
  payload: z.object({ runId: z.uuid() }),
} as const;

/** Greylisted addresses are asked again once their wait is over. */
export const recheckGreylistedJob = {
  name: 'recheck-greylisted',
  payload: z.object({}),
  cron: '*/5 * * * *',
} as const;
