import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

import { useDebouncedValue } from '@/hooks/use-debounced-value';
import {
  applyListPatch,
  type ListState,
  type ListStateConfig,
  type ListStatePatch,
  lastPageOf,
  readListState,
  writeListState,
} from '@/lib/url-list-state';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * A list screen's page, page size, sort, search and filters, kept in the URL (see lib/url-list-state.ts
 * for the keys). Pass a config defined at module level (a new object each render re-reads the URL).
 *
 *   const LIST = { defaultPageSize: 25, sortable: ['createdAt'], filters: { status: oneOf(STATUSES) } };
 *   const list = useUrlListState(LIST);
 *   const query = useOrders({ page: list.state.page, search: list.state.search, ...list.state.filters });
 *   useEffect(() => list.clampPage(query.data?.total), [query.data, list.clampPage]); // past the end → last page
 *   <Input value={list.searchInput} onChange={(e) => list.setSearchInput(e.target.value)} />
 *   list.update({ filters: { status: 'paid' } }); // back to page 1
 *
 * The search box is debounced: `searchInput` follows the keyboard, `state.search` (and the URL) follow it
 * 300 ms after typing stops; `searching` is true in between.
 */
export function useUrlListState<F extends string>(config: ListStateConfig<F>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => readListState(searchParams, config), [searchParams, config]);

  // update() keeps one identity, so effects and memoised children can depend on it.
  const latest = useRef({ state, searchParams, setSearchParams, config });
  latest.current = { state, searchParams, setSearchParams, config };
  const update = useCallback((patch: ListStatePatch<F>) => {
    const current = latest.current;
    const next = applyListPatch(current.state, patch);
    current.setSearchParams(writeListState(next, current.config, current.searchParams), { replace: true });
  }, []);

  const [searchInput, setSearchInput] = useState(state.search);
  const debouncedSearch = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  // Only a new debounced value searches (the current state is read through `latest`).
  useEffect(() => {
    if (debouncedSearch.trim() !== latest.current.state.search) update({ search: debouncedSearch.trim() });
  }, [debouncedSearch, update]);
  // The URL changed from outside (Back, a link): the box shows what the list is searching.
  const lastUrlSearch = useRef(state.search);
  useEffect(() => {
    if (state.search !== lastUrlSearch.current) {
      lastUrlSearch.current = state.search;
      if (state.search !== searchInput.trim()) setSearchInput(state.search);
    }
  }, [state.search, searchInput]);

  const clampPage = useCallback(
    (total: number | undefined) => {
      if (total === undefined) return;
      const last = lastPageOf(total, latest.current.state.pageSize);
      if (latest.current.state.page > last) update({ page: last });
    },
    [update],
  );

  const clearAll = useCallback(() => {
    setSearchInput('');
    const filters = Object.fromEntries(
      Object.keys(latest.current.config.filters ?? {}).map((k) => [k, undefined]),
    );
    update({ search: '', filters: filters as Partial<Record<F, undefined>> });
  }, [update]);

  const filtered = Boolean(state.search) || Object.keys(state.filters).length > 0;

  return {
    state: state as ListState<F>,
    update,
    searchInput,
    setSearchInput,
    searching: searchInput.trim() !== state.search,
    filtered,
    clearAll,
    /** Call in an effect with the list's total once it is known: a page past the end moves to the last. */
    clampPage,
  };
}

export type UrlListState<F extends string> = ReturnType<typeof useUrlListState<F>>;
