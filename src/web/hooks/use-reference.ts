import type { cityListSchema, countryListSchema } from '@shared/reference';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import { buildQueryString, getJson } from '@/lib/http';

export type CountryList = z.infer<typeof countryListSchema>;
export type CityList = z.infer<typeof cityListSchema>;

const DAY = 24 * 60 * 60 * 1000;

/** Every ISO country with its flag and whether the directory holds contacts there (cached a day). */
export function useCountries() {
  const query = useQuery<CountryList>({
    queryKey: ['/api/reference/countries'],
    staleTime: DAY,
    gcTime: DAY,
  });
  const byCode = useMemo(
    () => new Map((query.data?.countries ?? []).map((country) => [country.code, country])),
    [query.data],
  );
  return { ...query, byCode };
}

/** A country's cities, by prefix (`q`); the server answers at most 500 and says when there were more. */
export function useCities(countryCode: string | undefined, q = '') {
  const search = q.trim();
  return useQuery<CityList>({
    queryKey: ['/api/reference/countries', countryCode, 'cities', search],
    queryFn: ({ signal }) =>
      getJson<CityList>(
        `/api/reference/countries/${encodeURIComponent(countryCode ?? '')}/cities${buildQueryString({ q: search })}`,
        signal,
      ),
    enabled: Boolean(countryCode),
    staleTime: DAY,
    placeholderData: keepPreviousData,
  });
}

type CountryRef = CountryList['countries'][number];

/** "🇳🇬 Nigeria", or the code when the reference has not loaded. */
export function countryLabel(byCode: Map<string, CountryRef>, code: string | null | undefined): string {
  if (!code) return '—';
  const country = byCode.get(code);
  return country ? `${country.flag} ${country.name}` : code;
}
