/**
 * A list screen's state (page, page size, sort, search, filters) kept in the URL, so a filtered page can
 * be bookmarked, shared and restored with Back. These are the pure halves of `useUrlListState`:
 * `readListState` forgives anything a hand-edited link got wrong, `writeListState` leaves defaults out so
 * the plain list has a plain URL.
 *
 * URL keys: `q` (search), `page`, `size` (page size), `sort` (`column` or `column.desc`), and one key per
 * filter, named as the filter.
 */

export interface ListSort {
  id: string;
  desc: boolean;
}

/** A filter's URL value, checked: the accepted value, or undefined to drop it. */
export type FilterParser = (raw: string | null) => string | undefined;

export interface ListStateConfig<F extends string = string> {
  /** Page size when the URL names none (or one outside `pageSizes`). */
  defaultPageSize: number;
  /** The page sizes the screen offers; the URL may pick only these. */
  pageSizes?: readonly number[];
  /** Columns that may be sorted by; a `sort` naming any other is ignored. */
  sortable?: readonly string[];
  /** The sort when the URL names none. */
  defaultSort?: ListSort;
  /** The screen's filters and how each URL value is checked. */
  filters?: Record<F, FilterParser>;
}

export interface ListState<F extends string = string> {
  page: number;
  pageSize: number;
  sort: ListSort | undefined;
  search: string;
  filters: Partial<Record<F, string>>;
}

export const SEARCH_KEY = 'q';
export const PAGE_KEY = 'page';
export const PAGE_SIZE_KEY = 'size';
export const SORT_KEY = 'sort';

function positiveInt(value: string | null): number | undefined {
  const parsed = Number(value);
  return value !== null && Number.isInteger(parsed) && parsed >= 1 ? parsed : undefined;
}

function readSort(raw: string | null, config: ListStateConfig): ListSort | undefined {
  if (!raw) return config.defaultSort;
  const [id = '', direction] = raw.split('.');
  if (
    !config.sortable?.includes(id) ||
    (direction !== undefined && direction !== 'desc' && direction !== 'asc')
  )
    return config.defaultSort;
  return { id, desc: direction === 'desc' };
}

export function readListState<F extends string>(
  params: URLSearchParams,
  config: ListStateConfig<F>,
): ListState<F> {
  const size = positiveInt(params.get(PAGE_SIZE_KEY));
  const pageSize = size && (config.pageSizes ?? []).includes(size) ? size : config.defaultPageSize;
  const filters: Partial<Record<F, string>> = {};
  for (const [key, parse] of Object.entries(config.filters ?? {}) as [F, FilterParser][]) {
    const value = parse(params.get(key));
    if (value !== undefined && value !== '') filters[key] = value;
  }
  return {
    page: positiveInt(params.get(PAGE_KEY)) ?? 1,
    pageSize,
    sort: readSort(params.get(SORT_KEY), config),
    search: params.get(SEARCH_KEY) ?? '',
    filters,
  };
}

function sameSort(a: ListSort | undefined, b: ListSort | undefined): boolean {
  return a?.id === b?.id && Boolean(a?.desc) === Boolean(b?.desc);
}

/**
 * The URL of a state. Parameters the list does not own (e.g. `tab`) are kept from `base`, so a screen can
 * hold other state in the same URL.
 */
export function writeListState<F extends string>(
  state: ListState<F>,
  config: ListStateConfig<F>,
  base: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const params = new URLSearchParams(base);
  for (const key of [SEARCH_KEY, PAGE_KEY, PAGE_SIZE_KEY, SORT_KEY, ...Object.keys(config.filters ?? {})])
    params.delete(key);
  const search = state.search.trim();
  if (search) params.set(SEARCH_KEY, search);
  for (const key of Object.keys(config.filters ?? {}) as F[]) {
    const value = state.filters[key];
    if (value) params.set(key, value);
  }
  if (state.sort && !sameSort(state.sort, config.defaultSort))
    params.set(SORT_KEY, state.sort.desc ? `${state.sort.id}.desc` : state.sort.id);
  if (state.pageSize !== config.defaultPageSize) params.set(PAGE_SIZE_KEY, String(state.pageSize));
  if (state.page > 1) params.set(PAGE_KEY, String(state.page));
  return params;
}

/** A change to the list: anything but a page turn starts again on page 1 (the old page may not exist). */
export interface ListStatePatch<F extends string = string> {
  page?: number;
  pageSize?: number;
  sort?: ListSort | undefined;
  search?: string;
  filters?: Partial<Record<F, string | undefined>>;
}

export function applyListPatch<F extends string>(
  state: ListState<F>,
  patch: ListStatePatch<F>,
): ListState<F> {
  const next: ListState<F> = { ...state, filters: { ...state.filters } };
  if ('search' in patch) next.search = patch.search ?? '';
  if ('sort' in patch) next.sort = patch.sort;
  if (patch.pageSize !== undefined) next.pageSize = patch.pageSize;
  for (const [key, value] of Object.entries(patch.filters ?? {}) as [F, string | undefined][]) {
    if (value === undefined || value === '') delete next.filters[key];
    else next.filters[key] = value;
  }
  const narrowed = Object.keys(patch).some((key) => key !== 'page');
  next.page = patch.page ?? (narrowed ? 1 : state.page);
  return next;
}

/** The last page a list of `total` rows has (at least 1): a page past it is moved back there. */
export function lastPageOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** A filter parser accepting only the given values (an enum's members). */
export function oneOf(values: readonly string[]): FilterParser {
  return (raw) => (raw !== null && values.includes(raw) ? raw : undefined);
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A filter parser for a YYYY-MM-DD day that exists. */
export const isoDay: FilterParser = (raw) => {
  if (!raw || !ISO_DAY.test(raw)) return undefined;
  const date = new Date(`${raw}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(raw) ? raw : undefined;
};

/** A filter parser taking any non-empty text, trimmed and cut to `max` characters. */
export function text(max = 200): FilterParser {
  return (raw) => raw?.trim().slice(0, max) || undefined;
}
