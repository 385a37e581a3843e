import type {
  AlertingOverview,
  AlertRule,
  AlertRuleUpdate,
  CacheList,
  LogQuery,
  LogSearchResult,
} from '@shared/admin-operations';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';
import { MONITOR_REFRESH_MS } from './email-queue';

/*
 * The Logs, Alerting and Cache Monitor screens' reads and actions. Every read refreshes on its own;
 * every action is audited by the server.
 */

export const logsQueryKey = ['/api/admin/logs'] as const;
export const alertingQueryKey = ['/api/admin/alerting'] as const;
export const cachesQueryKey = ['/api/admin/caches'] as const;

export type LogFilters = Omit<LogQuery, 'cursor' | 'limit'>;

export function useLogSearch(filters: LogFilters, cursor: string | undefined, pageSize: number) {
  return useQuery<LogSearchResult>({
    queryKey: [...logsQueryKey, { ...filters, cursor, pageSize }],
    queryFn: ({ signal }) =>
      getJson<LogSearchResult>(
        `/api/admin/logs${buildQueryString({ ...filters, cursor, limit: pageSize })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    // Only the newest page follows the log live: an older page would shift under the reader.
    refetchInterval: cursor ? false : MONITOR_REFRESH_MS,
  });
}

export function useAlertingOverview() {
  return useQuery<AlertingOverview>({
    queryKey: alertingQueryKey,
    queryFn: ({ signal }) => getJson<AlertingOverview>('/api/admin/alerting', signal),
    refetchInterval: MONITOR_REFRESH_MS,
  });
}

export function useUpdateAlertRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { key: string; update: AlertRuleUpdate }): Promise<AlertRule> => {
      const res = await apiRequest(
        'PATCH',
        `/api/admin/alerting/rules/${encodeURIComponent(input.key)}`,
        input.update,
      );
      return (await res.json()) as AlertRule;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertingQueryKey }),
  });
}

export function useAcknowledgeAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<{ message: string }> => {
      await apiRequest('POST', `/api/admin/alerting/alerts/${id}/acknowledge`);
      return { message: 'The alert is acknowledged. It resolves by itself when the condition clears.' };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertingQueryKey }),
  });
}

export function useEvaluateAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<{ message: string }> => {
      const res = await apiRequest('POST', '/api/admin/alerting/evaluate');
      return (await res.json()) as { message: string };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertingQueryKey }),
  });
}

export function useCaches() {
  return useQuery<CacheList>({
    queryKey: cachesQueryKey,
    queryFn: ({ signal }) => getJson<CacheList>('/api/admin/caches', signal),
    refetchInterval: MONITOR_REFRESH_MS,
  });
}

export function useClearCache() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string): Promise<{ message: string }> => {
      const res = await apiRequest('POST', `/api/admin/caches/${encodeURIComponent(name)}/clear`);
      return (await res.json()) as { message: string };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: cachesQueryKey }),
  });
}
