import { describe, expect, it } from 'vitest';
import { EMPTY_LEAD_FILTERS, toLeadFilterParams } from '../api/leads';
import {
  applyFreeScope,
  filtersKey,
  hasActiveFilters,
  readBrowseParams,
  writeBrowseParams,
} from './browse-params';

describe('browse params', () => {
  it('keeps a search in the URL and reads it back', () => {
    const params = {
      tab: 'browse' as const,
      sort: 'newest' as const,
      filters: {
        ...EMPTY_LEAD_FILTERS,
        country: ['NG', 'GH'],
        city: ['Ikeja, Lagos', 'Accra'],
        category: ['logistics'],
        q: 'haulage',
        verifiedOnly: true,
        hasPhone: true,
      },
    };
    const search = writeBrowseParams(params);
    expect(search.get('country')).toBe('NG,GH');
    expect(search.getAll('city')).toEqual(['Ikeja, Lagos', 'Accra']);
    expect(readBrowseParams(search)).toEqual(params);
  });

  it('leaves defaults out, so a fresh screen is the bare path', () => {
    expect(
      writeBrowseParams({ tab: 'browse', sort: 'company_asc', filters: EMPTY_LEAD_FILTERS }).toString(),
    ).toBe('');
    expect(
      writeBrowseParams({ tab: 'lists', sort: 'company_asc', filters: EMPTY_LEAD_FILTERS }).toString(),
    ).toBe('tab=lists');
  });

  it('falls back on unknown tabs and sorts', () => {
    const state = readBrowseParams(new URLSearchParams('tab=nope&sort=random&country=ng'));
    expect(state.tab).toBe('browse');
    expect(state.sort).toBe('company_asc');
    expect(state.filters.country).toEqual(['NG']);
  });

  it('pins a Free-plan search to its country and category, keeping cities of that country', () => {
    const scope = { countryCode: 'NG', category: 'logistics' };
    const filters = { ...EMPTY_LEAD_FILTERS, country: ['GH'], category: ['bakeries'], city: ['Accra'] };
    expect(applyFreeScope(filters, scope)).toMatchObject({
      country: ['NG'],
      category: ['logistics'],
      city: [],
    });
    const lagos = { ...EMPTY_LEAD_FILTERS, city: ['Lagos'] };
    expect(applyFreeScope(lagos, scope).city).toEqual(['Lagos']);
    expect(applyFreeScope(filters, null)).toBe(filters);
  });

  it('sends a keyword only from 3 characters, as the API requires', () => {
    expect(toLeadFilterParams({ ...EMPTY_LEAD_FILTERS, q: 'ab' })).toEqual({});
    expect(toLeadFilterParams({ ...EMPTY_LEAD_FILTERS, q: ' abc ', hasWebsite: true })).toEqual({
      q: 'abc',
      hasWebsite: true,
    });
  });

  it('restarts paging only when the search really changes', () => {
    const base = { ...EMPTY_LEAD_FILTERS, country: ['NG'] };
    expect(filtersKey({ ...base, q: 'ab' })).toBe(filtersKey(base));
    expect(filtersKey({ ...base, q: 'Bakery' })).toBe(filtersKey({ ...base, q: 'bakery ' }));
    expect(filtersKey(base, 'newest')).not.toBe(filtersKey(base, 'company_asc'));
    expect(hasActiveFilters(base)).toBe(true);
    expect(hasActiveFilters(EMPTY_LEAD_FILTERS)).toBe(false);
  });
});
