import { defineJob } from '@server/jobs/define-job';
import { z } from 'zod';
import { rebuildDirectoryFacets } from './directory-admin.service';

/** Safe to run twice: the rebuild replaces the roll-up under a lock. */
export const rebuildDirectoryFacetsJob = defineJob({
  name: 'rebuild-directory-facets',
  description: "Rebuilds the directory's audience counts by country and category from the leads.",
  payload: z.object({}),
  /**
   * Nightly. Triggers keep the roll-up exact as rows change; the rebuild repairs drift after a
   * TRUNCATE or a load that bypassed triggers. Bulk importers enqueue it when they finish.
   */
  cron: '40 2 * * *',
  async run({ services, log }) {
    const started = performance.now();
    await rebuildDirectoryFacets({ db: services.db });
    log.info({ ms: Math.round(performance.now() - started) }, 'rebuilt the directory audience roll-up');
  },
});
