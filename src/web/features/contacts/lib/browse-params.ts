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

/** The countries and categories a user chose, as the plan limits apply them. */
export interface LeadScope {
  countryCodes: string[];
  categories: string[];
}

/** The API's scope (its lists, or the first of each alone) as lists. */
export function scopeLists(scope: {
  countryCode?: string | null;
  category?: string | null;
  countryCodes?: string[];
  categories?: string[];
}): LeadScope {
  return {
    countryCodes: scope.countryCodes ?? (scope.countryCode ? [scope.countryCode] : []),
    categories: scope.categories ?? (scope.category ? [scope.category] : []),
  };
}

/** How many countries and categories the plan includes: -1 all, 0 none, N the N chosen. */
export interface LeadScopeLimits {
  countries: number;
  categories: number;
}

/** "one country and one category", "3 countries": what a plan includes of the sides it limits. */
export function includedPhrase(limits: LeadScopeLimits): string {
  const side = (limit: number, one: string, many: string) =>
    limit < 0 ? null : limit === 1 ? `one ${one}` : `${limit} ${many}`;
  return [side(limits.countries, 'country', 'countries'), side(limits.categories, 'category', 'categories')]
    .filter(Boolean)
    .join(' and ');
}

/** "country and category", "countries": what the user chooses, in words. */
export function scopeNoun(limits: LeadScopeLimits): string {
  const side = (limit: number, one: string, many: string) => (limit < 0 ? null : limit === 1 ? one : many);
  return [side(limits.countries, 'country', 'countries'), side(limits.categories, 'category', 'categories')]
    .filter(Boolean)
    .join(' and ');
}

/** Whether a choice fits the plan: every limited side names at least one and at most N values. */
export function scopeProblem(scope: LeadScope, limits: LeadScopeLimits): string | null {
  const sides = [
    { limit: limits.countries, count: scope.countryCodes.length, one: 'country', many: 'countries' },
    { limit: limits.categories, count: scope.categories.length, one: 'category', many: 'categories' },
  ];
  for (const side of sides) {
    if (side.limit < 0) continue;
    if (side.count === 0) return `Choose a ${side.one}.`;
    if (side.count > side.limit)
      return `Your plan includes ${side.limit === 1 ? `one ${side.one}` : `${side.limit} ${side.many}`}: remove ${side.count - side.limit}.`;
  }
  return null;
}

/**
 * A user whose plan limits countries or categories searches inside the chosen ones: a URL filter within
 * the choice narrows it, anything else is replaced by the whole choice (cities are kept only while the
 * country filter stays inside the choice; the server checks them too).
 */
export function applyFreeScope(
  filters: LeadFilterValues,
  apiScope: Parameters<typeof scopeLists>[0] | null,
  limits: LeadScopeLimits = { countries: 1, categories: 1 },
): LeadFilterValues {
  if (!apiScope) return filters;
  const scope = scopeLists(apiScope);
  const within = (values: string[], chosen: string[]) =>
    values.length > 0 && values.every((value) => chosen.includes(value));
  const countryLimited = limits.countries >= 0;
  const categoryLimited = limits.categories >= 0;
  const countryKept =
    !countryLimited || filters.country.length === 0 || within(filters.country, scope.countryCodes);
  return {
    ...filters,
    country: !countryLimited
      ? filters.country
      : within(filters.country, scope.countryCodes)
        ? filters.country
        : scope.countryCodes,
    category: !categoryLimited
      ? filters.category
      : within(filters.category, scope.categories)
        ? filters.category
        : scope.categories,
    city: countryKept ? filters.city : [],
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
