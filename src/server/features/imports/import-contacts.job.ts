import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { importContacts } from './import-run';

/** Imports one uploaded CSV (import-run.ts); a rerun resumes from the last saved batch. */
export const importContactsJob = defineJob({
  name: 'import-contacts',
  description: 'Imports one uploaded CSV file into a list or the contact database.',
  payload: z.object({ importId: z.uuid() }),
  /** A crashed worker's job comes back after this long and resumes from the last saved batch. */
  sendOptions: { retryLimit: 3, retryDelay: 30, expireInSeconds: 3 * 60 * 60, heartbeatSeconds: 60 },
  async run({ services, log, payload, signal }) {
    const outcome = await importContacts({
      database: services.database,
      importId: payload.importId,
      log,
      signal,
    });
    log.info({ importId: payload.importId, outcome }, 'import job ended');
    // Failing the job makes pg-boss retry it; the retry resumes from the last saved batch.
    if (outcome === 'interrupted') throw new Error('import interrupted; it resumes on the next attempt');
  },
});
