import type { Database } from '@server/db/client';
import type { CacheRegistry } from '@server/lib/cache-registry';
import { now } from '@server/lib/clock';
import { notFound } from '@server/lib/errors';
import type { CacheList } from '@shared/admin-operations';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';

export function listCaches(options: { caches: CacheRegistry; process: string }): CacheList {
  return { generatedAt: now().toISOString(), process: options.process, caches: options.caches.list() };
}

/** Empties one cache of this process (its next lookups load afresh), audited. */
export async function clearCache(options: {
  db: Database;
  caches: CacheRegistry;
  actor: AuditActor;
  name: string;
}): Promise<{ cleared: number }> {
  const before = options.caches.list().find((cache) => cache.name === options.name);
  if (!before || !options.caches.clear(options.name)) throw notFound('There is no cache with that name.');
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'cache.clear',
    targetType: 'cache',
    targetId: options.name,
    details: { entries: before.size },
  });
  return { cleared: before.size };
}
