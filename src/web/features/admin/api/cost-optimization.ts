import type { CostOptimization } from '@shared/cost-optimization';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buildQueryString, getJson } from '@/lib/http';

/** Sizes and counts move slowly, and measuring them reads whole tables: once a minute is enough. */
export const COST_REFRESH_MS = 60_000;

export function useCostOptimization(user: string) {
  return useQuery<CostOptimization>({
    queryKey: ['/api/admin/cost-optimization', { user }],
    queryFn: ({ signal }) =>
      getJson<CostOptimization>(`/api/admin/cost-optimization${buildQueryString({ user })}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: COST_REFRESH_MS,
  });
}
