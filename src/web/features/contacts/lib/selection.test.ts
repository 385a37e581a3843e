import { BULK_IDS_MAX } from '@shared/contacts';
import { describe, expect, it } from 'vitest';
import {
  emptySelection,
  isEmptySelection,
  isRowSelected,
  pageCheckState,
  type Selection,
  selectedCount,
  togglePage,
  toggleRow,
} from './selection';

const page = ['a', 'b', 'c'];

describe('selection', () => {
  it('keeps chosen rows across pages', () => {
    let selection = toggleRow(emptySelection(), 'a', true, page);
    selection = toggleRow(selection, 'x', true, ['x', 'y']);
    expect(isRowSelected(selection, 'a')).toBe(true);
    expect(isRowSelected(selection, 'x')).toBe(true);
    expect(selectedCount(selection, 500)).toBe(2);
  });

  it('marks the header checkbox checked, indeterminate or clear', () => {
    const some = toggleRow(emptySelection(), 'a', true, page);
    expect(pageCheckState(some, page)).toBe('indeterminate');
    expect(pageCheckState(togglePage(some, page, true), page)).toBe(true);
    expect(pageCheckState(togglePage(some, page, false), page)).toBe(false);
    expect(pageCheckState(emptySelection(), [])).toBe(false);
  });

  it('"all matching" counts the total and checks every row', () => {
    const all: Selection = { mode: 'all' };
    expect(selectedCount(all, 12_480)).toBe(12_480);
    expect(isRowSelected(all, 'anything')).toBe(true);
    expect(pageCheckState(all, page)).toBe(true);
    expect(isEmptySelection(all)).toBe(false);
  });

  it('unticking one row of "all matching" keeps the rest of the page', () => {
    const next = toggleRow({ mode: 'all' }, 'b', false, page);
    expect(next.mode).toBe('ids');
    expect(isRowSelected(next, 'a')).toBe(true);
    expect(isRowSelected(next, 'b')).toBe(false);
    expect(selectedCount(next, 12_480)).toBe(2);
  });

  it('clearing the page of "all matching" clears everything', () => {
    expect(isEmptySelection(togglePage({ mode: 'all' }, page, false))).toBe(true);
  });

  it('stops at the bulk limit of the API', () => {
    const ids = Array.from({ length: BULK_IDS_MAX }, (_, index) => `id-${index}`);
    const full = togglePage(emptySelection(), ids, true);
    expect(selectedCount(full, undefined)).toBe(BULK_IDS_MAX);
    expect(toggleRow(full, 'one-more', true, ['one-more'])).toBe(full);
  });
});
