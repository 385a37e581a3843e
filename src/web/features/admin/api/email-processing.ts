import type { SenderMonitorList } from '@shared/admin-monitors';
import type { SenderStatus } from '@shared/sending';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { buildQueryString, getJson } from '@/lib/http';
import { MONITOR_REFRESH_MS } from './email-queue';

export const emailProcessingQueryKey = ['/api/admin/email-processing'] as const;

export interface SenderMonitorFilters {
  status?: SenderStatus;
  search?: string;
  cursor?: string;
}

export function useSenderMonitor(filters: SenderMonitorFilters) {
  return useQuery<SenderMonitorList>({
    queryKey: [...emailProcessingQueryKey, filters],
    queryFn: ({ signal }) =>
      getJson<SenderMonitorList>(
        `/api/admin/email-processing${buildQueryString({ ...filters, limit: 25 })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: MONITOR_REFRESH_MS,
  });
}

/** Pause or resume a sender account on its owner's behalf (audited). */
export function useSenderAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (target: { id: string; action: 'pause' | 'resume' }): Promise<{ message: string }> => {
      const res = await apiRequest(
        'POST',
        `/api/admin/email-processing/accounts/${target.id}/${target.action}`,
      );
      return (await res.json()) as { message: string };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: emailProcessingQueryKey }),
  });
}
