import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import {
  productionVerifier,
  recheckGreylisted,
  runListVerification,
  VERIFY_LIST_JOB,
} from './verification.service';
import { verifyDueDirectoryRecords } from './verify-directory';

/** A "Verify list" run, resumable: it saves progress per batch. */
export const verifyListJob = defineJob({
  name: VERIFY_LIST_JOB,
  description: 'Verifies the addresses of one list (a user\'s "Verify list" run), saving progress per batch.',
  payload: z.object({ runId: z.uuid() }),
  async run({ services, log, payload }) {
    await runListVerification({
      db: services.db,
      runId: payload.runId,
      verifier: productionVerifier(services.env),
    });
    log.info({ runId: payload.runId }, 'list verified');
  },
});

/** Greylisted addresses are asked again once their wait is over. */
export const recheckGreylistedJob = defineJob({
  name: 'recheck-greylisted',
  description: 'Asks mail servers again about greylisted addresses whose wait is over.',
  payload: z.object({}),
  cron: '*/5 * * * *',
  async run({ services, log }) {
    const probed = await recheckGreylisted({ db: services.db, verifier: productionVerifier(services.env) });
    if (probed > 0) log.info({ probed }, 'greylisted addresses asked again');
  },
});

/** The directory's email evidence: never-asked records first, then answers older than 90 days. */
export const verifyDirectoryJob = defineJob({
  name: 'verify-directory',
  description:
    "Asks mail servers about directory records never checked or last checked over 90 days ago, and sets each record's status from the answer.",
  payload: z.object({}),
  cron: '23 * * * *',
  async run({ services, log }) {
    const run = await verifyDueDirectoryRecords({
      db: services.db,
      verifier: productionVerifier(services.env),
    });
    if (run.asked > 0) log.info(run, 'directory records verified');
  },
});
