import type { EmailQueueStatus, FailedJobList, FailedMessageList } from '@shared/admin-monitors';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';

/** The monitors refresh on their own; the page says how fresh its figures are. */
export const MONITOR_REFRESH_MS = 10_000;

export const emailQueueQueryKey = ['/api/admin/email-queue'] as const;

export function useEmailQueueStatus() {
  return useQuery<EmailQueueStatus>({
    queryKey: emailQueueQueryKey,
    queryFn: ({ signal }) => getJson<EmailQueueStatus>('/api/admin/email-queue', signal),
    refetchInterval: MONITOR_REFRESH_MS,
  });
}

export function useFailedJobs(cursor: string | undefined) {
  return useQuery<FailedJobList>({
    queryKey: [...emailQueueQueryKey, 'failed-jobs', { cursor }],
    queryFn: ({ signal }) =>
      getJson<FailedJobList>(
        `/api/admin/email-queue/failed-jobs${buildQueryString({ cursor, limit: 10 })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: MONITOR_REFRESH_MS,
  });
}

export function useFailedMessages(cursor: string | undefined) {
  return useQuery<FailedMessageList>({
    queryKey: [...emailQueueQueryKey, 'failed-messages', { cursor }],
    queryFn: ({ signal }) =>
      getJson<FailedMessageList>(
        `/api/admin/email-queue/failed-messages${buildQueryString({ cursor, limit: 10 })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: MONITOR_REFRESH_MS,
  });
}

export type QueueAction =
  | { kind: 'job'; action: 'retry' | 'cancel'; name: string; id: string }
  | { kind: 'message'; action: 'retry' | 'cancel'; id: string };

/** Retry or cancel a job (through pg-boss) or an outbox message; the server audits each. */
export function useQueueAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (target: QueueAction): Promise<{ message: string }> => {
      const url =
        target.kind === 'job'
          ? `/api/admin/email-queue/jobs/${encodeURIComponent(target.name)}/${target.id}/${target.action}`
          : `/api/admin/email-queue/messages/${target.id}/${target.action}`;
      const res = await apiRequest('POST', url);
      return (await res.json()) as { message: string };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: emailQueueQueryKey }),
  });
}
