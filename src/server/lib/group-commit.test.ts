import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

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
