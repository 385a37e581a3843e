import { describe, expect, it } from 'vitest';
import { groupCommit, sharedGroupCommit } from './group-commit';

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
