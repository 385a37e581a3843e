import type { LeadSort } from '@shared/contacts';
import type {
  AddToListInput,
  addToListResultSchema,
  freePlanScopeSchema,
  leadCountSchema,
  leadSearchResultSchema,
} from '@shared/leads';
import type { UserPlan } from '@shared/payments';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';
import { listsQueryKey } from './lists';

export type LeadSearchResult = z.infer<typeof leadSearchResultSchema>;
export type LeadCount = z.infer<typeof leadCountSchema>;
export type FreePlanScope = z.infer<typeof freePlanScopeSchema>;
export type AddToListResult = z.infer<typeof addToListResultSchema>;

/** The filters as the browse screen holds them (and sends them). */
export interface LeadFilterValues {
  country: string[];
  city: string[];
  category: string[];
  /** Sent only with 3+ characters (the server's minimum). */
  q: string;
  verifiedOnly: boolean;
  /** Verified, the check at most this many days old (30, 90…); null for any date. */
  verifiedWithinDays: number | null;
  /** Only contacts nobody has verified yet. */
  unverifiedOnly: boolean;
  hasPhone: boolean;
  hasWebsite: boolean;
}

export const EMPTY_LEAD_FILTERS: LeadFilterValues = {
  country: [],
  city: [],
  category: [],
  q: '',
  verifiedOnly: false,
  verifiedWithinDays: null,
  unverifiedOnly: false,
  hasPhone: false,
  hasWebsite: false,
};

/** The filters as query parameters / a JSON body: empty ones left out, a short keyword ignored. */
export function toLeadFilterParams(filters: LeadFilterValues) {
  const q = filters.q.trim();
  return {
    ...(filters.country.length ? { country: filters.country } : {}),
    ...(filters.city.length ? { city: filters.city } : {}),
    ...(filters.category.length ? { category: filters.category } : {}),
    ...(q.length >= 3 ? { q } : {}),
    ...(filters.verifiedOnly ? { verifiedOnly: true } : {}),
    ...(filters.verifiedWithinDays ? { verifiedWithinDays: filters.verifiedWithinDays } : {}),
    ...(filters.unverifiedOnly ? { verification: 'unverified' as const } : {}),
    ...(filters.hasPhone ? { hasPhone: true } : {}),
    ...(filters.hasWebsite ? { hasWebsite: true } : {}),
  };
}

export const leadsQueryKey = ['/api/leads'] as const;

export function useLeadSearch(
  params: { filters: LeadFilterValues; sort: LeadSort; cursor: string | null; limit: number },
  enabled = true,
) {
  const query = {
    ...toLeadFilterParams(params.filters),
    sort: params.sort,
    cursor: params.cursor,
    limit: params.limit,
  };
  return useQuery<LeadSearchResult>({
    queryKey: [...leadsQueryKey, 'search', query],
    queryFn: ({ signal }) => getJson(`/api/leads/search${buildQueryString(query)}`, signal),
    placeholderData: keepPreviousData,
    enabled,
    staleTime: 60_000,
  });
}

/** The audience size; the previous number stays on screen while the next one loads (no flicker). */
export function useLeadCount(filters: LeadFilterValues, enabled = true) {
  const query = toLeadFilterParams(filters);
  return useQuery<LeadCount>({
    queryKey: [...leadsQueryKey, 'count', query],
    queryFn: ({ signal }) => getJson(`/api/leads/count${buildQueryString(query)}`, signal),
    placeholderData: keepPreviousData,
    enabled,
    staleTime: 60_000,
  });
}

export const freePlanScopeKey = ['/api/leads/free-plan-scope'] as const;

export function useFreePlanScope() {
  return useQuery<FreePlanScope>({ queryKey: freePlanScopeKey, staleTime: 60_000 });
}

/** How many countries and categories the plan that applies now includes (-1 all, 0 none), once known. */
export function useLeadScopeLimits(): { countries: number; categories: number } | undefined {
  const plan = useQuery<UserPlan>({ queryKey: ['/api/user/plan'], staleTime: 60_000 });
  const countries = plan.data?.countryLimit;
  const categories = plan.data?.categoryLimit;
  return useMemo(
    () => (countries === undefined || categories === undefined ? undefined : { countries, categories }),
    [countries, categories],
  );
}

export function useSetFreePlanScope() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { countryCodes: string[]; categories: string[] }): Promise<FreePlanScope> => {
      const res = await apiRequest('PUT', '/api/leads/free-plan-scope', input);
      return (await res.json()) as FreePlanScope;
    },
    onSuccess: (scope) => {
      queryClient.setQueryData(freePlanScopeKey, scope);
      void queryClient.invalidateQueries({ queryKey: leadsQueryKey });
    },
  });
}

export function useAddToList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AddToListInput): Promise<AddToListResult> => {
      const res = await apiRequest('POST', '/api/leads/add-to-list', input);
      return (await res.json()) as AddToListResult;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: listsQueryKey });
    },
  });
}
