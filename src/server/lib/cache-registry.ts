/*
 * The in-process caches of one app (one process), listed by the Cache Monitor. Each cache keeps its own
 * hit and miss counters and registers a view of itself here; the registry only reads and clears them.
 * Several processes (web and workers) each have their own caches: the screen shows the web process's.
 */

export interface CacheView {
  /** Entries held now. */
  size(): number;
  /** Lookups answered from the cache, and lookups that had to load, since the process started. */
  hits(): number;
  misses(): number;
  /** When the oldest entry still held was stored; null when empty. */
  oldestEntryAt(): Date | null;
  /** Drops every entry (the next lookups load afresh). */
  clear(): void;
}

export interface RegisteredCache extends CacheView {
  name: string;
  description: string;
}

export interface CacheSnapshot {
  name: string;
  description: string;
  size: number;
  hits: number;
  misses: number;
  /** hits / (hits + misses), null before the first lookup. */
  hitRate: number | null;
  oldestEntryAt: string | null;
}

export interface CacheRegistry {
  register(cache: RegisteredCache): void;
  list(): CacheSnapshot[];
  /** Clears the named cache; false when no cache has that name. */
  clear(name: string): boolean;
}

export function createCacheRegistry(): CacheRegistry {
  const caches = new Map<string, RegisteredCache>();
  return {
    register(cache) {
      if (caches.has(cache.name)) throw new Error(`a cache named ${cache.name} is already registered`);
      caches.set(cache.name, cache);
    },
    list() {
      return [...caches.values()]
        .map((cache) => {
          const hits = cache.hits();
          const misses = cache.misses();
          return {
            name: cache.name,
            description: cache.description,
            size: cache.size(),
            hits,
            misses,
            hitRate: hits + misses > 0 ? hits / (hits + misses) : null,
            oldestEntryAt: cache.oldestEntryAt()?.toISOString() ?? null,
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    clear(name) {
      const cache = caches.get(name);
      if (!cache) return false;
      cache.clear();
      return true;
    },
  };
}

/** Hit and miss counters for a cache to keep beside its entries. */
export function createCacheCounters() {
  let hits = 0;
  let misses = 0;
  return {
    hit: () => {
      hits++;
    },
    miss: () => {
      misses++;
    },
    hits: () => hits,
    misses: () => misses,
  };
}
