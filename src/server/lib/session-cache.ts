/*
 * Signed-in sessions, kept a few seconds by this process so that a page polling its progress (a
 * newsletter being sent asks three endpoints four times a second) does not pay better-auth's session and
 * user lookup on every request: under a send's load that lookup cost more than the handlers themselves.
 *
 * The bound, and why it is safe:
 * - An answer is used at most TTL_MS after the lookup that produced it started. A session revoked or a
 *   user suspended (or re-roled) by another process stops working within that bound.
 * - Every state-changing request this process answers (any method but GET, HEAD and OPTIONS: sign-out,
 *   session revocation, a password change, an admin's suspension…) empties the cache before its answer
 *   leaves, and a lookup that started before that never stores its answer: on the process that made the
 *   change, it applies to the very next request.
 * - A session in use is looked up again in the background once its answer is REFRESH_MS old; a revoked
 *   session found that way is dropped at once, so a polling page notices within about a second.
 * - Keys are SHA-256 hashes of the session cookie's value (never the token itself), and only answers with
 *   a session are kept: an unknown or expired cookie is looked up each time.
 */
import { createHash } from 'node:crypto';
import type { RegisteredCache } from './cache-registry';

export const SESSION_CACHE_TTL_MS = 5_000;
const REFRESH_MS = 1_000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  /** When the lookup behind `value` started. */
  at: number;
  value: Promise<T>;
  refreshing: boolean;
}

export interface SessionCache<T> {
  /** The session for these cookie values (null when the request carries no session cookie: not cached). */
  get(cookieValues: (string | undefined)[], load: () => Promise<T>): Promise<T>;
  /** Forgets every session (a state change may have ended or changed one). */
  clear(): void;
  registryView(): Omit<RegisteredCache, 'name' | 'description'>;
}

export function createSessionCache<T>(
  options: { ttlMs?: number; refreshMs?: number; now?: () => number } = {},
): SessionCache<T> {
  const ttl = options.ttlMs ?? SESSION_CACHE_TTL_MS;
  const refreshAfter = options.refreshMs ?? REFRESH_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();
  let generation = 0;
  let hits = 0;
  let misses = 0;

  /** Starts a lookup; its answer is stored only if no clear() happened meanwhile and it has a session. */
  function lookup(key: string, load: () => Promise<T>, previous: Entry<T> | undefined): Promise<T> {
    const started = now();
    const startedIn = generation;
    const value = load();
    const entry: Entry<T> = { at: started, value, refreshing: false };
    // A first lookup is shared by the requests that arrive while it runs (a page asks several at once).
    if (!previous) entries.set(key, entry);
    value.then(
      (session) => {
        if (generation !== startedIn) return;
        if (!session) {
          entries.delete(key);
          return;
        }
        if (previous) {
          entries.delete(key);
          entries.set(key, entry);
        }
        if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      },
      () => {
        if (generation === startedIn) entries.delete(key);
      },
    );
    return value;
  }

  return {
    get(cookieValues, load) {
      const present = cookieValues.filter((value): value is string => Boolean(value));
      if (present.length === 0) return load();
      const key = createHash('sha256').update(present.join('\n')).digest('base64url');
      const entry = entries.get(key);
      const age = entry ? now() - entry.at : Number.POSITIVE_INFINITY;
      if (!entry || age >= ttl) {
        misses++;
        if (entry) entries.delete(key);
        return lookup(key, load, undefined);
      }
      hits++;
      if (age >= refreshAfter && !entry.refreshing) {
        entry.refreshing = true;
        lookup(key, load, entry).catch(() => {});
      }
      return entry.value;
    },
    clear() {
      generation++;
      entries.clear();
    },
    registryView() {
      return {
        size: () => entries.size,
        hits: () => hits,
        misses: () => misses,
        oldestEntryAt: () => {
          let oldest: number | null = null;
          for (const entry of entries.values()) if (oldest === null || entry.at < oldest) oldest = entry.at;
          return oldest === null ? null : new Date(oldest);
        },
        clear: () => {
          generation++;
          entries.clear();
        },
      };
    },
  };
}
