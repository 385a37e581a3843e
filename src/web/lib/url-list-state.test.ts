import { describe, expect, it } from 'vitest';

import {
  applyListPatch,
  isoDay,
  type ListStateConfig,
  lastPageOf,
  oneOf,
  readListState,
  text,
  writeListState,
} from './url-list-state';

const CONFIG = {
  defaultPageSize: 25,
  pageSizes: [25, 50, 100],
  sortable: ['createdAt', 'email'],
  defaultSort: { id: 'createdAt', desc: true },
  filters: { status: oneOf(['active', 'paused']), from: isoDay, country: text(2) },
} satisfies ListStateConfig<'status' | 'from' | 'country'>;

const read = (query: string) => readListState(new URLSearchParams(query), CONFIG);

describe('URL list state', () => {
  it('reads every part of a list from the URL and writes the same URL back', () => {
    const query = 'q=ada&status=paused&from=2026-03-01&country=NG&sort=email&size=50&page=3';
    const state = read(query);
    expect(state).toEqual({
      search: 'ada',
      filters: { status: 'paused', from: '2026-03-01', country: 'NG' },
      sort: { id: 'email', desc: false },
      pageSize: 50,
      page: 3,
    });
    expect(readListState(writeListState(state, CONFIG), CONFIG)).toEqual(state);
  });

  it('falls back to the defaults for anything a hand-edited link got wrong', () => {
    expect(read('status=deleted&from=2026-02-30&size=7&sort=password.desc&page=0')).toEqual({
      search: '',
      filters: {},
      sort: { id: 'createdAt', desc: true },
      pageSize: 25,
      page: 1,
    });
    expect(read('sort=email.sideways').sort).toEqual({ id: 'createdAt', desc: true });
  });

  it('leaves defaults out of the URL and keeps parameters the list does not own', () => {
    const base = new URLSearchParams('tab=plans&page=4&status=active');
    expect(writeListState(read(''), CONFIG, base).toString()).toBe('tab=plans');
    expect(writeListState({ ...read(''), sort: { id: 'createdAt', desc: false } }, CONFIG).toString()).toBe(
      'sort=createdAt',
    );
  });

  it('goes back to page 1 when the search, a filter, the sort or the page size changes', () => {
    const onPage4 = read('page=4&status=active');
    expect(applyListPatch(onPage4, { page: 5 }).page).toBe(5);
    expect(applyListPatch(onPage4, { search: 'x' }).page).toBe(1);
    expect(applyListPatch(onPage4, { sort: undefined }).page).toBe(1);
    expect(applyListPatch(onPage4, { pageSize: 100 }).page).toBe(1);
    const cleared = applyListPatch(onPage4, { filters: { status: undefined, country: 'GH' } });
    expect(cleared).toMatchObject({ page: 1, filters: { country: 'GH' } });
    expect(cleared.filters).not.toHaveProperty('status');
  });

  it('knows the last page of a list', () => {
    expect(lastPageOf(0, 25)).toBe(1);
    expect(lastPageOf(25, 25)).toBe(1);
    expect(lastPageOf(26, 25)).toBe(2);
  });
});
