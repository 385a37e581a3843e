import type {
  BusinessAnalytics,
  BusinessRange,
  DatabaseMonitor,
  SystemAnalytics,
  SystemRange,
} from '@shared/admin-analytics';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { buildQueryString, getJson } from '@/lib/http';

/** These figures move over hours and days: every 30 s is fresh enough and costs the database little. */
export const ANALYTICS_REFRESH_MS = 30_000;

export function useSystemAnalytics(range: SystemRange) {
  return useQuery<SystemAnalytics>({
    queryKey: ['/api/admin/system-analytics', { range }],
    queryFn: ({ signal }) =>
      getJson<SystemAnalytics>(`/api/admin/system-analytics${buildQueryString({ range })}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ANALYTICS_REFRESH_MS,
  });
}

export function useBusinessAnalytics(range: BusinessRange) {
  return useQuery<BusinessAnalytics>({
    queryKey: ['/api/admin/analytics', { range }],
    queryFn: ({ signal }) =>
      getJson<BusinessAnalytics>(`/api/admin/analytics${buildQueryString({ range })}`, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ANALYTICS_REFRESH_MS,
  });
}

export function useDatabaseMonitor() {
  return useQuery<DatabaseMonitor>({
    queryKey: ['/api/admin/database-monitor'],
    queryFn: ({ signal }) => getJson<DatabaseMonitor>('/api/admin/database-monitor', signal),
    refetchInterval: ANALYTICS_REFRESH_MS,
  });
}
