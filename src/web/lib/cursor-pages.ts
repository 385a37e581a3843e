/**
 * Keyset paging (`{ items, nextCursor }`) walked forwards and back: the cursors of the pages visited are
 * kept as a stack, so Previous returns to the exact page seen before, and no page numbers are invented.
 */
export interface CursorPages {
  /** The cursor of each page visited; the first page has none (null). The last is the current page. */
  stack: readonly (string | null)[];
}

export const FIRST_PAGE: CursorPages = { stack: [null] };

export function currentCursor(pages: CursorPages): string | null {
  return pages.stack[pages.stack.length - 1] ?? null;
}

/** 0 for the first page. */
export function pageIndex(pages: CursorPages): number {
  return Math.max(0, pages.stack.length - 1);
}

export function hasPrevious(pages: CursorPages): boolean {
  return pages.stack.length > 1;
}

/** Moves to the page after the current one; a missing cursor (the last page) stays put. */
export function nextPage(pages: CursorPages, nextCursor: string | null | undefined): CursorPages {
  if (!nextCursor) return pages;
  // A double click on Next must not push the same cursor twice.
  if (currentCursor(pages) === nextCursor) return pages;
  return { stack: [...pages.stack, nextCursor] };
}

export function previousPage(pages: CursorPages): CursorPages {
  return hasPrevious(pages) ? { stack: pages.stack.slice(0, -1) } : pages;
}

/** The 1-based positions of the rows on screen ("Showing 26–50"). */
export function rowRange(
  pages: CursorPages,
  pageSize: number,
  rowsOnPage: number,
): { from: number; to: number } {
  if (rowsOnPage === 0) return { from: 0, to: 0 };
  const from = pageIndex(pages) * pageSize + 1;
  return { from, to: from + rowsOnPage - 1 };
}
