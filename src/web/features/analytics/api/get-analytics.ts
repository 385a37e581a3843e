import type { Analytics, AnalyticsPeriod } from '@shared/analytics';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buildQueryString, getJson } from '@/lib/http';

export type { Analytics };

/** GET /api/analytics?days=7|30|90; the previous period stays on screen while the next one loads. */
export function useAnalytics(days: AnalyticsPeriod) {
  return useQuery<Analytics>({
    queryKey: ['/api/analytics', { days }],
    queryFn: ({ signal }) => getJson(`/api/analytics${buildQueryString({ days })}`, signal),
    placeholderData: keepPreviousData,
  });
}
