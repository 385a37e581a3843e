import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { groupCommit, sharedGroupCommit } from './group-commit';

/** A flush that records its groups and holds its first write until `release()`: a slow write. */
function firstWriteHeld() {
  const flushed: string[][] = [];
  let releaseFirst: () => void = () => {};
  return {
    flushed,
    flush: async (items: string[]) => {
      flushed.push(items);
      if (flushed.length === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
    },
    release: () => releaseFirst(),
  };
}

describe('groupCommit', () => {
  it('writes the first item at once and gathers the ones that arrive during a flush', async () => {
    const flushed: number[][] = [];
    let release: () => void = () => {};
    const commit = groupCommit(async (items: number[]) => {
      flushed.push(items);
      if (flushed.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    commit.add(1);
    commit.add(2);
    commit.add(3);
    expect(flushed).toEqual([[1]]);
    release();
    expect(await commit.drain()).toBe(3);
    expect(flushed).toEqual([[1], [2, 3]]);
  });

  it('keeps writing after a failed flush and reports the failure when drained', async () => {
    const flushed: string[][] = [];
    const commit = groupCommit(async (items: string[]) => {
      flushed.push(items);
      if (items.includes('bad')) throw new Error('database unavailable');
    });
    commit.add('bad');
    commit.add('good');
    await expect(commit.drain()).rejects.toThrow('database unavailable');
    expect(flushed).toEqual([['bad'], ['good']]);
  });

  it('drains to zero when nothing was added', async () => {
    expect(await groupCommit(async () => {}).drain()).toBe(0);
  });
});

describe('sharedGroupCommit', () => {
  it("gathers several callers' items into one flush; each drain counts its own", async () => {
    const flushed: string[][] = [];
    let release: () => void = () => {};
    const shared = sharedGroupCommit(async (items: string[]) => {
      flushed.push(items);
      if (flushed.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = groupCommit(shared);
    const second = groupCommit(shared);
    first.add('a1');
    second.add('b1');
    first.add('a2');
    second.add('b2');
    expect(flushed).toEqual([['a1']]);
    release();
    expect(await first.drain()).toBe(2);
    expect(await second.drain()).toBe(2);
    expect(flushed).toEqual([['a1'], ['b1', 'a2', 'b2']]);
  });

  it('fails only the drains whose items were in the failed flush', async () => {
    let release: () => void = () => {};
    let calls = 0;
    const shared = sharedGroupCommit(async (items: string[]) => {
      calls++;
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      if (items.includes('bad')) throw new Error('database unavailable');
    });
    const lucky = groupCommit(shared);
    const unlucky = groupCommit(shared);
    lucky.add('good');
    unlucky.add('bad');
    release();
    expect(await lucky.drain()).toBe(1);
    await expect(unlucky.drain()).rejects.toThrow('database unavailable');
  });
});

describe('sharedGroupCommit with a gather rule', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const recorder = () => {
    const flushed: string[][] = [];
    return { flushed, flush: async (items: string[]) => void flushed.push(items) };
  };

  it('gathers the items that arrive while their callers are still sending into one flush', async () => {
    const { flushed, flush } = recorder();
    const shared = sharedGroupCommit(flush, { maxItems: 100, maxWaitMs: 40 });
    const first = groupCommit(shared);
    const second = groupCommit(shared);
    first.add('a1');
    second.add('b1');
    await vi.advanceTimersByTimeAsync(10);
    first.add('a2');
    second.add('b2');
    await vi.advanceTimersByTimeAsync(10);
    expect(flushed).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(flushed).toEqual([['a1', 'b1', 'a2', 'b2']]);
    expect(await first.drain()).toBe(2);
    expect(await second.drain()).toBe(2);
    expect(flushed).toHaveLength(1);
  });

  it('writes at once, without waiting for the timer, when a caller waits for its items', async () => {
    const { flushed, flush } = recorder();
    const shared = sharedGroupCommit(flush, { maxItems: 100, maxWaitMs: 60_000 });
    const lone = groupCommit(shared);
    lone.add('only');
    // Fake timers are not advanced: a drain that waited for the timer would never end.
    expect(await lone.drain()).toBe(1);
    expect(flushed).toEqual([['only']]);
  });

  it("takes the other callers' waiting items along when one caller drains", async () => {
    const { flushed, flush } = recorder();
    const shared = sharedGroupCommit(flush, { maxItems: 100, maxWaitMs: 60_000 });
    const done = groupCommit(shared);
    const busy = groupCommit(shared);
    busy.add('b1');
    done.add('d1');
    expect(await done.drain()).toBe(1);
    expect(flushed).toEqual([['b1', 'd1']]);
    // What arrives after that waits for the next reason to write again.
    busy.add('b2');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(flushed).toHaveLength(1);
    expect(await busy.drain()).toBe(2);
    expect(flushed).toEqual([['b1', 'd1'], ['b2']]);
  });

  it('writes a full group at once and never more than the most a group holds', async () => {
    const { flushed, flush } = recorder();
    const shared = sharedGroupCommit(flush, { maxItems: 2, maxWaitMs: 60_000 });
    const commit = groupCommit(shared);
    for (const item of ['1', '2', '3', '4', '5']) commit.add(item);
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(await commit.drain()).toBe(5);
    expect(flushed).toEqual([['1', '2'], ['3', '4'], ['5']]);
  });

  it('never lets an item wait longer than the most it may wait, however many follow it', async () => {
    const { flushed, flush } = recorder();
    const shared = sharedGroupCommit(flush, { maxItems: 100, maxWaitMs: 50 });
    const commit = groupCommit(shared);
    commit.add('early');
    await vi.advanceTimersByTimeAsync(30);
    commit.add('late');
    await vi.advanceTimersByTimeAsync(19);
    expect(flushed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(flushed).toEqual([['early', 'late']]);
  });

  it('gathers during a slow write and writes at once after it when a caller waits', async () => {
    const { flushed, flush, release } = firstWriteHeld();
    const shared = sharedGroupCommit(flush, { maxItems: 100, maxWaitMs: 60_000 });
    const first = groupCommit(shared);
    const second = groupCommit(shared);
    first.add('a1');
    const firstDrained = first.drain();
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toEqual([['a1']]);
    second.add('b1');
    const secondDrained = second.drain();
    release();
    expect(await firstDrained).toBe(1);
    expect(await secondDrained).toBe(1);
    expect(flushed).toEqual([['a1'], ['b1']]);
  });

  it("does not hurry other callers' later items when its own are already being written", async () => {
    const { flushed, flush, release } = firstWriteHeld();
    const shared = sharedGroupCommit(flush, { maxItems: 100, maxWaitMs: 50 });
    const first = groupCommit(shared);
    const second = groupCommit(shared);
    first.add('a1');
    const firstDrained = first.drain();
    await vi.advanceTimersByTimeAsync(0);
    second.add('b1');
    const againDrained = first.drain();
    release();
    expect(await firstDrained).toBe(1);
    expect(await againDrained).toBe(1);
    expect(flushed).toEqual([['a1']]);
    await vi.advanceTimersByTimeAsync(50);
    expect(flushed).toEqual([['a1'], ['b1']]);
    expect(await second.drain()).toBe(1);
  });
});
