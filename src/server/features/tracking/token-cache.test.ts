import { describe, expect, it } from 'vitest';
import { createTokenCache } from './token-cache';

function harness(options: { maxEntries?: number; known?: Record<string, string> } = {}) {
  let time = 1_000;
  const loads: string[] = [];
  const gates: (() => void)[] = [];
  let gated = false;
  const known = options.known ?? { a: 'A', b: 'B', c: 'C' };
  const cache = createTokenCache<string>({
    maxEntries: options.maxEntries ?? 10,
    ttlMs: 60_000,
    negativeTtlMs: 5_000,
    clock: () => time,
    load: async (token) => {
      loads.push(token);
      if (gated) await new Promise<void>((resolve) => gates.push(resolve));
      return known[token] ?? null;
    },
  });
  return {
    cache,
    loads,
    advance: (ms: number) => {
      time += ms;
    },
    gate: () => {
      gated = true;
    },
    release: () => {
      for (const open of gates.splice(0)) open();
    },
  };
}

describe('token cache', () => {
  it('loads a token once and answers later lookups from memory', async () => {
    const { cache, loads } = harness();
    expect(cache.peek('a')).toBeUndefined();
    expect(await cache.get('a')).toBe('A');
    expect(await cache.get('a')).toBe('A');
    expect(cache.peek('a')).toBe('A');
    expect(loads).toEqual(['a']);
  });

  it('remembers unknown tokens for the short negative time only', async () => {
    const { cache, loads, advance } = harness();
    expect(await cache.get('forged')).toBeNull();
    expect(cache.peek('forged')).toBeNull();
    advance(4_999);
    expect(await cache.get('forged')).toBeNull();
    expect(loads).toEqual(['forged']);
    advance(1);
    expect(cache.peek('forged')).toBeUndefined();
    await cache.get('forged');
    expect(loads).toEqual(['forged', 'forged']);
  });

  it('reloads a known token after its time to live', async () => {
    const { cache, loads, advance } = harness();
    await cache.get('a');
    advance(59_999);
    await cache.get('a');
    advance(1);
    await cache.get('a');
    expect(loads).toEqual(['a', 'a']);
  });

  it('shares one query between concurrent misses of the same token', async () => {
    const { cache, loads, gate, release } = harness();
    gate();
    const lookups = [cache.get('a'), cache.get('a'), cache.load('a'), cache.get('b')];
    await Promise.resolve();
    release();
    expect(await Promise.all(lookups)).toEqual(['A', 'A', 'A', 'B']);
    expect(loads).toEqual(['a', 'b']);
  });

  it('evicts the least recently used entry beyond its size', async () => {
    const { cache, loads } = harness({ maxEntries: 2 });
    await cache.get('a');
    await cache.get('b');
    cache.peek('a'); // a is now the most recently used
    await cache.get('c'); // evicts b
    expect(cache.size).toBe(2);
    expect(cache.peek('a')).toBe('A');
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('c')).toBe('C');
    expect(loads).toEqual(['a', 'b', 'c']);
  });

  it('keeps an entry looked up all the time while many others come and go', async () => {
    const known: Record<string, string> = { hot: 'HOT' };
    for (let i = 0; i < 100; i++) known[`cold${i}`] = `COLD${i}`;
    const { cache, loads } = harness({ maxEntries: 10, known });
    await cache.get('hot');
    for (let i = 0; i < 100; i++) {
      await cache.get(`cold${i}`);
      expect(cache.peek('hot')).toBe('HOT');
    }
    expect(cache.size).toBe(10);
    expect(loads.filter((token) => token === 'hot')).toEqual(['hot']);
    // The oldest of the rest went first.
    expect(cache.peek('cold0')).toBeUndefined();
    expect(cache.peek('cold99')).toBe('COLD99');
  });

  it('caches nothing when the lookup fails, so the next request tries again', async () => {
    let fail = true;
    const cache = createTokenCache<string>({
      maxEntries: 10,
      ttlMs: 60_000,
      negativeTtlMs: 5_000,
      load: async () => {
        if (fail) throw new Error('database down');
        return 'A';
      },
    });
    await expect(cache.get('a')).rejects.toThrow('database down');
    expect(cache.peek('a')).toBeUndefined();
    fail = false;
    expect(await cache.get('a')).toBe('A');
  });
});
