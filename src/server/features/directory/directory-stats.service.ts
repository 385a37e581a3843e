import type { Database } from '@server/db/client';
import { type CacheView, createCacheCounters } from '@server/lib/cache-registry';
import { now } from '@server/lib/clock';
import { type DirectoryStats, roundDownFigure } from '@shared/leads';
import { sql } from 'drizzle-orm';

/** How long the public figures are served from memory: they move slowly and the landing page is hot. */
export const DIRECTORY_STATS_TTL_MS = 5 * 60_000;

/**
 * The figures marketing may quote (landing, /global-database, pricing): live counts of real verified
 * records. Read from the trigger-kept roll-up, whose `verified` column counts real records only (sample
 * rows can never be verified: directory_contacts_synthetic_unverified_check), so it costs a few ms at
 * any directory size.
 */
export async function countDirectoryStats({ db }: { db: Database }): Promise<DirectoryStats> {
  const [figures, sample] = await Promise.all([
    db.execute(sql`
      SELECT coalesce(sum(verified), 0)::bigint AS verified,
        count(DISTINCT country_code) FILTER (WHERE verified > 0)::int AS countries,
        count(DISTINCT category) FILTER (WHERE verified > 0)::int AS categories
      FROM directory_facet_counts WHERE city = ''`),
    db.execute(
      sql`SELECT EXISTS (SELECT 1 FROM directory_contacts WHERE synthetic AND deleted_at IS NULL) AS any`,
    ),
  ]);
  const row = (figures as unknown as { rows: { verified: string; countries: number; categories: number }[] })
    .rows[0];
  const exact = Number(row?.verified ?? 0);
  const rounded = roundDownFigure(exact);
  return {
    verifiedContacts: rounded,
    verifiedContactsRounded: rounded < exact,
    countries: Number(row?.countries ?? 0),
    categories: Number(row?.categories ?? 0),
    sampleData: Boolean((sample as unknown as { rows: { any: boolean }[] }).rows[0]?.any),
    asOf: now().toISOString(),
  };
}

/** One app's in-memory copy of the figures, refreshed at most every `ttlMs`. */
export function createDirectoryStatsCache(options: { db: Database; ttlMs?: number }) {
  const ttl = options.ttlMs ?? DIRECTORY_STATS_TTL_MS;
  let cached: { at: number; value: Promise<DirectoryStats> } | null = null;
  const counters = createCacheCounters();
  return {
    registryView: (): CacheView => ({
      size: () => (cached ? 1 : 0),
      hits: counters.hits,
      misses: counters.misses,
      oldestEntryAt: () => (cached ? new Date(cached.at) : null),
      clear: () => {
        cached = null;
      },
    }),
    get(): Promise<DirectoryStats> {
      const at = now().getTime();
      if (cached && at - cached.at < ttl) counters.hit();
      else {
        counters.miss();
        const value = countDirectoryStats({ db: options.db });
        // A failed count is not kept: the next request tries again.
        value.catch(() => {
          if (cached?.value === value) cached = null;
        });
        cached = { at, value };
      }
      return cached.value;
    },
  };
}
