import { describe, expect, it } from 'vitest';
import { remainingQueue, shouldLoadMore } from './queue';

const page = (...ids: string[]) => ({ items: ids.map((id) => ({ id })) });

describe('verification queue', () => {
  it('keeps the server order (oldest first) and hides what was handled or skipped', () => {
    const remaining = remainingQueue([page('a', 'b'), page('c')], new Set(['a']));
    expect(remaining.map((item) => item.id)).toEqual(['b', 'c']);
  });

  it('shows a contact once when two pages repeat it', () => {
    expect(remainingQueue([page('a', 'b'), page('b', 'c')], new Set()).map((item) => item.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('is empty before the first page arrives', () => {
    expect(remainingQueue(undefined, new Set())).toEqual([]);
  });

  it('loads the next page before the officer runs out', () => {
    expect(shouldLoadMore(4, true, false)).toBe(true);
    expect(shouldLoadMore(4, true, true)).toBe(false);
    expect(shouldLoadMore(4, false, false)).toBe(false);
    expect(shouldLoadMore(10, true, false)).toBe(false);
  });
});
