import { createRequire } from 'node:module';
import type { Database } from '@server/db/client';
import { type CacheView, createCacheCounters } from '@server/lib/cache-registry';
import { notFound } from '@server/lib/errors';
import { BUSINESS_CATEGORIES, CATEGORY_GROUPS } from '@shared/categories';
import type { Country } from '@shared/reference';
import ct from 'countries-and-timezones';
import { sql } from 'drizzle-orm';

/*
 * Reference data: ISO 3166 countries and their cities (country-state-city), time zones
 * (countries-and-timezones), and the business categories. Static data is built once per process;
 * the per-country contact counts come from the audience roll-up and are cached briefly.
 */

type StaticCountry = Omit<Country, 'active' | 'contactCount'>;

// country-state-city holds every city on earth (~70 MB in memory): load it on first use, not at boot,
// so processes that never serve reference data (workers, the importer) do not carry it.
type CountryStateCity = typeof import('country-state-city');
let countryStateCity: CountryStateCity | null = null;
function csc(): CountryStateCity {
  countryStateCity ??= createRequire(import.meta.url)('country-state-city') as CountryStateCity;
  return countryStateCity;
}

let staticCountries: StaticCountry[] | null = null;
const countryByCode = new Map<string, StaticCountry>();

function countries(): StaticCountry[] {
  if (!staticCountries) {
    staticCountries = csc()
      .Country.getAllCountries()
      .map((c) => ({
        code: c.isoCode,
        name: c.name,
        flag: c.flag,
        currency: c.currency,
        phoneCode: c.phonecode.startsWith('+') ? c.phonecode : `+${c.phonecode}`,
        timezones: ct.getCountry(c.isoCode)?.timezones ?? c.timezones?.map((tz) => tz.zoneName) ?? [],
      }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en'));
    for (const country of staticCountries) countryByCode.set(country.code, country);
  }
  return staticCountries;
}

export function getCountryInfo(code: string): StaticCountry | undefined {
  countries();
  return countryByCode.get(code.toUpperCase());
}

export function countryName(code: string): string {
  return getCountryInfo(code)?.name ?? code;
}

export function isKnownCountry(code: string): boolean {
  return getCountryInfo(code) !== undefined;
}

const COUNTS_TTL_MS = 60_000;
let countsCache: { at: number; counts: Map<string, number> } | null = null;
const countsCounters = createCacheCounters();

/** The per-country contact counts (one entry while fresh), for the cache registry. */
export function referenceCountsCacheView(): CacheView {
  return {
    size: () => (countsCache ? 1 : 0),
    hits: countsCounters.hits,
    misses: countsCounters.misses,
    oldestEntryAt: () => (countsCache ? new Date(countsCache.at) : null),
    clear: () => {
      countsCache = null;
    },
  };
}

/** Live directory contacts per country, from the roll-up (the all-cities rows). */
async function contactCountsByCountry(db: Database): Promise<Map<string, number>> {
  if (countsCache && Date.now() - countsCache.at < COUNTS_TTL_MS) {
    countsCounters.hit();
    return countsCache.counts;
  }
  countsCounters.miss();
  const result = await db.execute(
    sql`SELECT country_code, sum(total)::bigint AS n FROM directory_facet_counts WHERE city = '' GROUP BY country_code`,
  );
  const rows = (result as unknown as { rows: { country_code: string; n: string | number }[] }).rows;
  const counts = new Map(rows.map((r) => [r.country_code, Number(r.n)]));
  countsCache = { at: Date.now(), counts };
  return counts;
}

export async function listCountries({ db }: { db: Database }): Promise<Country[]> {
  const counts = await contactCountsByCountry(db);
  return countries().map((country) => {
    const contactCount = counts.get(country.code) ?? 0;
    return { ...country, active: contactCount > 0, contactCount };
  });
}

interface CityEntry {
  name: string;
  stateCode: string;
  folded: string;
}
const cityCache = new Map<string, { cities: CityEntry[]; storedAt: Date }>();
const cityCounters = createCacheCounters();

/** The city lists kept per country, for the cache registry (one list per country asked for). */
export function referenceCitiesCacheView(): CacheView {
  return {
    size: () => cityCache.size,
    hits: cityCounters.hits,
    misses: cityCounters.misses,
    oldestEntryAt() {
      let oldest: Date | null = null;
      for (const entry of cityCache.values()) if (!oldest || entry.storedAt < oldest) oldest = entry.storedAt;
      return oldest;
    },
    clear: () => cityCache.clear(),
  };
}

/** Lower-case without accents, so "sao" finds "São Paulo". */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

function citiesOf(code: string): CityEntry[] {
  const cached = cityCache.get(code);
  if (cached) {
    cityCounters.hit();
    return cached.cities;
  }
  cityCounters.miss();
  const cities = (csc().City.getCitiesOfCountry(code) ?? [])
    .map((c) => ({ name: c.name, stateCode: c.stateCode, folded: foldText(c.name) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.stateCode.localeCompare(b.stateCode));
  cityCache.set(code, { cities, storedAt: new Date() });
  return cities;
}

export function listCities(options: { countryCode: string; q?: string; limit: number }) {
  const code = options.countryCode.toUpperCase();
  if (!isKnownCountry(code)) throw notFound('Country not found');
  const needle = options.q ? foldText(options.q.trim()) : '';
  const matching = needle ? citiesOf(code).filter((c) => c.folded.startsWith(needle)) : citiesOf(code);
  return {
    countryCode: code,
    cities: matching.slice(0, options.limit).map(({ name, stateCode }) => ({ name, stateCode })),
    truncated: matching.length > options.limit,
  };
}

/** The reference spelling of a city typed by hand ("lagos" → "Lagos"), or the input, trimmed. */
export function canonicalCity(countryCode: string, city: string | null | undefined): string | null {
  const trimmed = city?.trim();
  if (!trimmed) return null;
  const folded = foldText(trimmed);
  const match = citiesOf(countryCode.toUpperCase()).find((c) => c.folded === folded);
  return match?.name ?? trimmed;
}

export function listCategories() {
  return {
    groups: [...CATEGORY_GROUPS],
    categories: BUSINESS_CATEGORIES.map((c) => ({ ...c, synonyms: [...c.synonyms] })),
  };
}
