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

interface Slot<T> {
  value: T | null;
  expiresAt: number;
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

  function store(token: string, value: T | null): void {
    slots.delete(token);
    slots.set(token, {
      value,
      expiresAt: clock() + (value === null ? options.negativeTtlMs : options.ttlMs),
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
    return slot.value;
  }

  function load(token: string): Promise<T | null> {
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
  };
}
