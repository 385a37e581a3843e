import { describe, expect, it } from 'vitest';
import {
  currentCursor,
  FIRST_PAGE,
  hasPrevious,
  nextPage,
  pageIndex,
  previousPage,
  rowRange,
} from './cursor-pages';

describe('cursor pages', () => {
  it('starts on the first page without a cursor', () => {
    expect(currentCursor(FIRST_PAGE)).toBeNull();
    expect(pageIndex(FIRST_PAGE)).toBe(0);
    expect(hasPrevious(FIRST_PAGE)).toBe(false);
  });

  it('walks forward with the server cursors and back to the exact pages seen', () => {
    const second = nextPage(FIRST_PAGE, 'c2');
    const third = nextPage(second, 'c3');
    expect(currentCursor(third)).toBe('c3');
    expect(pageIndex(third)).toBe(2);
    expect(currentCursor(previousPage(third))).toBe('c2');
    expect(currentCursor(previousPage(previousPage(third)))).toBeNull();
  });

  it('stays on the last page when there is no next cursor, and ignores a repeated Next', () => {
    const second = nextPage(FIRST_PAGE, 'c2');
    expect(nextPage(second, null)).toBe(second);
    expect(nextPage(second, undefined)).toBe(second);
    expect(nextPage(second, 'c2')).toBe(second);
  });

  it('does not go before the first page', () => {
    expect(previousPage(FIRST_PAGE)).toBe(FIRST_PAGE);
  });

  it('numbers the rows on screen from the page index', () => {
    expect(rowRange(FIRST_PAGE, 25, 25)).toEqual({ from: 1, to: 25 });
    expect(rowRange(nextPage(FIRST_PAGE, 'c2'), 25, 7)).toEqual({ from: 26, to: 32 });
    expect(rowRange(FIRST_PAGE, 25, 0)).toEqual({ from: 0, to: 0 });
  });
});
