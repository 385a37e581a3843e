/*
 * A small LRU in front of the token lookup, so a pixel or click costs no query once its message is known.
 * - Known tokens stay up to `ttlMs` (their links never change; the expiry only bounds how stale the
 *   per-process "a person opened it" flag can get).
 * - Unknown tokens are remembered as null for `negativeTtlMs`, so a flood of forged ids costs one query
 *   per id per window, not one per request.
 * - Concurrent misses for one token share one query.
 * A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
 *   A hit re-inserts only a slot in the older half (maxEntries / 2 or more insertions ago): a
 *   younger one cannot be next to go, and the hottest lookups of the app skip two Map operations.
 */

import { type CacheView, createCacheCounters } from '@server/lib/cache-registry';

interface Slot<T> {
  value: T | null;
  expiresAt: number;
  /** When the value was loaded (a hit's move to the recent end keeps it). */
  storedAt: number;
  /** `insertions` when the slot was last (re)inserted. */
  insertedAt: number;
}

export interface TokenCache<T> {
  /** The cached value, null for a known-unknown token, undefined when the cache cannot answer. */
  peek(token: string): T | null | undefined;
  /** Loads (once for concurrent callers) and caches. */
  load(token: string): Promise<T | null>;
  /** peek, then load on a miss. */
  get(token: string): Promise<T | null>;
  delete(token: string): void;
  readonly size: number;
  /** Size, hits, misses, oldest entry and clear() for the cache registry. */
  registryView(): CacheView;
}

export function createTokenCache<T>(options: {
  load: (token: string) => Promise<T | null>;
  maxEntries: number;
  ttlMs: number;
  negativeTtlMs: number;
  /** Milliseconds since the epoch; injectable for tests. Cache expiry is wall time, not the app clock. */
  clock?: () => number;
}): TokenCache<T> {
  const slots = new Map<string, Slot<T>>();
  const inflight = new Map<string, Promise<T | null>>();
  const clock = options.clock ?? Date.now;
  const refreshAfter = Math.floor(options.maxEntries / 2);
  let insertions = 0;
  const counters = createCacheCounters();

  function store(token: string, value: T | null): void {
    slots.delete(token);
    const at = clock();
    slots.set(token, {
      value,
      storedAt: at,
      expiresAt: at + (value === null ? options.negativeTtlMs : options.ttlMs),
      insertedAt: ++insertions,
    });
    if (slots.size > options.maxEntries) {
      const oldest = slots.keys().next().value;
      if (oldest !== undefined) slots.delete(oldest);
    }
  }

  function peek(token: string): T | null | undefined {
    const slot = slots.get(token);
    if (slot === undefined) return undefined;
    if (slot.expiresAt <= clock()) {
      slots.delete(token);
      return undefined;
    }
    if (insertions - slot.insertedAt >= refreshAfter) {
      // Move to the most recently used end.
      slots.delete(token);
      slot.insertedAt = ++insertions;
      slots.set(token, slot);
    }
    counters.hit();
    return slot.value;
  }

  function load(token: string): Promise<T | null> {
    counters.miss();
    const pending = inflight.get(token);
    if (pending) return pending;
    const promise = options
      .load(token)
      .then((value) => {
        store(token, value);
        return value;
      })
      .finally(() => inflight.delete(token));
    inflight.set(token, promise);
    return promise;
  }

  return {
    peek,
    load,
    get(token) {
      const cached = peek(token);
      return cached === undefined ? load(token) : Promise.resolve(cached);
    },
    delete(token) {
      slots.delete(token);
    },
    get size() {
      return slots.size;
    },
    registryView: () => ({
      size: () => slots.size,
      hits: counters.hits,
      misses: counters.misses,
      oldestEntryAt() {
        // Up to maxEntries slots, read only when an admin opens the Cache Monitor.
        let oldest = Number.POSITIVE_INFINITY;
        for (const slot of slots.values()) if (slot.storedAt < oldest) oldest = slot.storedAt;
        return Number.isFinite(oldest) ? new Date(oldest) : null;
      },
      clear: () => slots.clear(),
    }),
  };
}
