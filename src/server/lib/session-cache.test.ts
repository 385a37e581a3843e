import { describe, expect, it } from 'vitest';
import { createSessionCache, SESSION_CACHE_TTL_MS } from './session-cache';

/** A lookup that answers what `state.session` holds when it is called, and counts its calls. */
function source(initial: string | null) {
  const state = { session: initial as string | null, calls: 0 };
  const load = async () => {
    state.calls++;
    return state.session;
  };
  return { state, load };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('session cache', () => {
  it('answers the same cookie from memory within the TTL, and looks it up again after', async () => {
    let clock = 0;
    const cache = createSessionCache<string | null>({ now: () => clock, refreshMs: SESSION_CACHE_TTL_MS });
    const { state, load } = source('s1');
    expect(await cache.get(['cookie-a'], load)).toBe('s1');
    clock = SESSION_CACHE_TTL_MS - 1;
    expect(await cache.get(['cookie-a'], load)).toBe('s1');
    expect(state.calls).toBe(1);
    // Revoked elsewhere: never used past the TTL.
    state.session = null;
    clock = SESSION_CACHE_TTL_MS;
    expect(await cache.get(['cookie-a'], load)).toBeNull();
    expect(state.calls).toBe(2);
  });

  it('shares one lookup between the requests that arrive while it runs', async () => {
    const cache = createSessionCache<string | null>();
    const { state, load } = source('s1');
    const answers = await Promise.all([1, 2, 3].map(() => cache.get(['cookie-a'], load)));
    expect(answers).toEqual(['s1', 's1', 's1']);
    expect(state.calls).toBe(1);
  });

  it('keeps no answer without a session, and never caches a request without a session cookie', async () => {
    const cache = createSessionCache<string | null>();
    const none = source(null);
    await cache.get(['bad-cookie'], none.load);
    await settle();
    await cache.get(['bad-cookie'], none.load);
    expect(none.state.calls).toBe(2);
    const anonymous = source('s1');
    await cache.get([undefined, undefined], anonymous.load);
    await cache.get([undefined, undefined], anonymous.load);
    expect(anonymous.state.calls).toBe(2);
    expect(cache.registryView().size()).toBe(0);
  });

  it('forgets every session on clear(), and a lookup that started before the clear stores nothing', async () => {
    const cache = createSessionCache<string | null>();
    const { state, load } = source('s1');
    let release: () => void = () => {};
    const slow = () =>
      new Promise<string | null>((resolve) => {
        release = () => resolve('stale');
      });
    const pending = cache.get(['cookie-a'], slow);
    cache.clear();
    release();
    expect(await pending).toBe('stale');
    await settle();
    expect(await cache.get(['cookie-a'], load)).toBe('s1');
    expect(state.calls).toBe(1);
    cache.clear();
    state.session = null;
    expect(await cache.get(['cookie-a'], load)).toBeNull();
  });

  it('refreshes a session in use in the background, and drops it once the lookup finds it revoked', async () => {
    let clock = 0;
    const cache = createSessionCache<string | null>({ now: () => clock, refreshMs: 1_000 });
    const { state, load } = source('s1');
    await cache.get(['cookie-a'], load);
    clock = 1_000;
    state.session = null;
    // This answer is still the kept one (under the TTL); the refresh it starts finds the session gone.
    expect(await cache.get(['cookie-a'], load)).toBe('s1');
    await settle();
    expect(state.calls).toBe(2);
    expect(await cache.get(['cookie-a'], load)).toBeNull();
  });

  it('keys by a hash of the cookie: another cookie is another session', async () => {
    const cache = createSessionCache<string | null>();
    expect(await cache.get(['cookie-a'], source('a').load)).toBe('a');
    expect(await cache.get(['cookie-b'], source('b').load)).toBe('b');
  });
});
