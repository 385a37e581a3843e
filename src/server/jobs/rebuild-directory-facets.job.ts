import { z } from 'zod';
import type { Database } from '../db/client';
import { rebuildDirectoryFacets } from '../features/directory/directory-admin.service';

export const rebuildDirectoryFacetsJob = {
  name: 'rebuild-directory-facets',
  payload: z.object({}),
  /**
   * Nightly. Triggers keep the roll-up exact as rows change; the rebuild repairs drift after a
   * TRUNCATE or a load that bypassed triggers. Bulk importers enqueue it when they finish.
   */
  cron: '40 2 * * *',
} as const;

/** Safe to run twice: the rebuild replaces the roll-up under a lock. */
export async function rebuildDirectoryFacetsNow({ db }: { db: Database }): Promise<void> {
  await rebuildDirectoryFacets({ db });
}
