import { useCallback, useState } from 'react';
import {
  type CursorPages,
  currentCursor,
  FIRST_PAGE,
  hasPrevious,
  nextPage,
  pageIndex,
  previousPage,
} from '@/lib/cursor-pages';

/**
 * The page state of a keyset-paged table. `resetKey` (the filters, serialised) sends it back to the first
 * page whenever it changes, during render, so no request for a stale cursor goes out.
 */
export function useCursorPages(resetKey: string) {
  const [state, setState] = useState<{ key: string; pages: CursorPages }>({
    key: resetKey,
    pages: FIRST_PAGE,
  });
  let pages = state.pages;
  if (state.key !== resetKey) {
    pages = FIRST_PAGE;
    setState({ key: resetKey, pages });
  }
  const goNext = useCallback(
    (cursor: string | null | undefined) =>
      setState((current) => ({ ...current, pages: nextPage(current.pages, cursor) })),
    [],
  );
  const goPrevious = useCallback(
    () => setState((current) => ({ ...current, pages: previousPage(current.pages) })),
    [],
  );
  const reset = useCallback(() => setState((current) => ({ ...current, pages: FIRST_PAGE })), []);
  return {
    pages,
    cursor: currentCursor(pages),
    index: pageIndex(pages),
    hasPrevious: hasPrevious(pages),
    goNext,
    goPrevious,
    reset,
  };
}
