import type { TrafficRange, WebsiteTraffic } from '@shared/site-traffic';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getJson } from '@/lib/http';

/** Page views arrive as visitors read: the screen refreshes itself every half minute. */
export const TRAFFIC_REFRESH_MS = 30_000;

export function useWebsiteTraffic(range: TrafficRange) {
  return useQuery<WebsiteTraffic>({
    queryKey: ['/api/admin/website-traffic', { range }],
    queryFn: ({ signal }) => getJson<WebsiteTraffic>(`/api/admin/website-traffic?range=${range}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: TRAFFIC_REFRESH_MS,
  });
}
