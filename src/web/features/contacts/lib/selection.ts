import { BULK_IDS_MAX } from '@shared/contacts';

/**
 * Rows chosen on a paged table: some ids (kept across pages), or "all N matching" the filters (then the
 * server resolves the rows, and no id list is ever built in the browser).
 */
export type Selection<Id extends string | number = string> =
  | { mode: 'ids'; ids: ReadonlySet<Id> }
  | { mode: 'all' };

export function emptySelection<Id extends string | number = string>(): Selection<Id> {
  return { mode: 'ids', ids: new Set<Id>() };
}

export function isRowSelected<Id extends string | number>(selection: Selection<Id>, id: Id): boolean {
  return selection.mode === 'all' || selection.ids.has(id);
}

/**
 * One row's checkbox. Unticking a row while "all matching" is selected keeps the rest of the page
 * selected (the whole set cannot be listed), which is what the user sees.
 */
export function toggleRow<Id extends string | number>(
  selection: Selection<Id>,
  id: Id,
  selected: boolean,
  pageIds: readonly Id[],
): Selection<Id> {
  if (selection.mode === 'all') {
    if (selected) return selection;
    return { mode: 'ids', ids: new Set(pageIds.filter((item) => item !== id)) };
  }
  const ids = new Set(selection.ids);
  if (selected) {
    if (ids.size >= BULK_IDS_MAX) return selection;
    ids.add(id);
  } else {
    ids.delete(id);
  }
  return { mode: 'ids', ids };
}

/** The header checkbox: select or clear every row on the page. */
export function togglePage<Id extends string | number>(
  selection: Selection<Id>,
  pageIds: readonly Id[],
  selected: boolean,
): Selection<Id> {
  if (selection.mode === 'all') {
    return selected ? selection : emptySelection<Id>();
  }
  const ids = new Set(selection.ids);
  for (const id of pageIds) {
    if (!selected) ids.delete(id);
    else if (ids.size < BULK_IDS_MAX) ids.add(id);
  }
  return { mode: 'ids', ids };
}

export function pageCheckState<Id extends string | number>(
  selection: Selection<Id>,
  pageIds: readonly Id[],
): boolean | 'indeterminate' {
  if (pageIds.length === 0) return false;
  if (selection.mode === 'all') return true;
  const chosen = pageIds.filter((id) => selection.ids.has(id)).length;
  if (chosen === 0) return false;
  return chosen === pageIds.length ? true : 'indeterminate';
}

/** How many rows the selection stands for; "all" counts the matching total. */
export function selectedCount(selection: Selection<string | number>, total: number | undefined): number {
  return selection.mode === 'all' ? (total ?? 0) : selection.ids.size;
}

export function isEmptySelection(selection: Selection<string | number>): boolean {
  return selection.mode === 'ids' && selection.ids.size === 0;
}
