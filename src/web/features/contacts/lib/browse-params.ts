import { LEAD_SORTS, type LeadSort, VERIFIED_WITHIN_DAYS } from '@shared/contacts';
import { EMPTY_LEAD_FILTERS, type LeadFilterValues } from '../api/leads';

export const LEAD_DISCOVERY_TABS = ['browse', 'lists', 'suppression'] as const;
export type LeadDiscoveryTab = (typeof LEAD_DISCOVERY_TABS)[number];

export interface BrowseParams {
  tab: LeadDiscoveryTab;
  filters: LeadFilterValues;
  sort: LeadSort;
}

const splitList = (value: string | null): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const flag = (value: string | null) => value === '1' || value === 'true';

/** The screen's state from its URL, so a search can be bookmarked, shared and reloaded. */
export function readBrowseParams(search: URLSearchParams): BrowseParams {
  const tab = search.get('tab');
  const sort = search.get('sort');
  return {
    tab: (LEAD_DISCOVERY_TABS as readonly string[]).includes(tab ?? '')
      ? (tab as LeadDiscoveryTab)
      : 'browse',
    sort: (LEAD_SORTS as readonly string[]).includes(sort ?? '') ? (sort as LeadSort) : 'company_asc',
    filters: {
      country: splitList(search.get('country')).map((code) => code.toUpperCase()),
      // City names may hold commas ("Ikeja, Lagos"), so cities repeat instead of being comma-joined.
      city: search.getAll('city').filter(Boolean),
      category: splitList(search.get('category')),
      q: search.get('q') ?? '',
      verifiedOnly: flag(search.get('verified')),
      verifiedWithinDays: withinDays(search.get('verifiedWithin')),
      unverifiedOnly: flag(search.get('unverified')),
      hasPhone: flag(search.get('phone')),
      hasWebsite: flag(search.get('website')),
    },
  };
}

/** "Verified within N days" from the URL: one of the offered choices, else none. */
function withinDays(value: string | null): number | null {
  const days = Number(value);
  return (VERIFIED_WITHIN_DAYS as readonly number[]).includes(days) ? days : null;
}

/** The URL for a state; defaults are left out, so a fresh screen is just `/lead-discovery`. */
export function writeBrowseParams(params: BrowseParams): URLSearchParams {
  const search = new URLSearchParams();
  const { filters } = params;
  if (params.tab !== 'browse') search.set('tab', params.tab);
  if (filters.country.length) search.set('country', filters.country.join(','));
  for (const city of filters.city) search.append('city', city);
  if (filters.category.length) search.set('category', filters.category.join(','));
  if (filters.q.trim()) search.set('q', filters.q.trim());
  if (filters.verifiedOnly) search.set('verified', '1');
  if (filters.verifiedWithinDays) search.set('verifiedWithin', String(filters.verifiedWithinDays));
  if (filters.unverifiedOnly) search.set('unverified', '1');
  if (filters.hasPhone) search.set('phone', '1');
  if (filters.hasWebsite) search.set('website', '1');
  if (params.sort !== 'company_asc') search.set('sort', params.sort);
  return search;
}

export function hasActiveFilters(filters: LeadFilterValues): boolean {
  return (
    filters.country.length > 0 ||
    filters.city.length > 0 ||
    filters.category.length > 0 ||
    filters.q.trim().length > 0 ||
    filters.verifiedOnly ||
    filters.verifiedWithinDays !== null ||
    filters.unverifiedOnly ||
    filters.hasPhone ||
    filters.hasWebsite
  );
}

/**
 * A Free-plan user searches inside their one country and one category: whatever the URL says, the scope's
 * country and category are the filters (cities must belong to that country, which the server checks).
 */
export function applyFreeScope(
  filters: LeadFilterValues,
  scope: { countryCode: string; category: string } | null,
): LeadFilterValues {
  if (!scope) return filters;
  const sameCountry =
    filters.country.length === 0 ||
    (filters.country.length === 1 && filters.country[0] === scope.countryCode);
  return {
    ...filters,
    country: [scope.countryCode],
    category: [scope.category],
    city: sameCountry ? filters.city : [],
  };
}

/** The key that sends paging and selection back to the start when the search changes. */
export function filtersKey(filters: LeadFilterValues, sort?: string): string {
  return JSON.stringify([
    filters.country,
    filters.city,
    filters.category,
    filters.q.trim().length >= 3 ? filters.q.trim().toLowerCase() : '',
    filters.verifiedOnly,
    filters.verifiedWithinDays,
    filters.unverifiedOnly,
    filters.hasPhone,
    filters.hasWebsite,
    sort ?? '',
  ]);
}

export { EMPTY_LEAD_FILTERS };
