import type { AutomatedSchedules } from '@shared/admin-schedules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { getJson } from '@/lib/http';
import { MONITOR_REFRESH_MS } from './email-queue';

export const schedulesQueryKey = ['/api/admin/schedules'] as const;

export type ScheduleAction = 'run' | 'pause' | 'resume';

/** Every scheduled job with its last and next run, refreshed on its own like the other monitors. */
export function useSchedules() {
  return useQuery<AutomatedSchedules>({
    queryKey: schedulesQueryKey,
    queryFn: ({ signal }) => getJson<AutomatedSchedules>('/api/admin/schedules', signal),
    refetchInterval: MONITOR_REFRESH_MS,
  });
}

/** Run a schedule's job now, or pause or resume its cron (audited). */
export function useScheduleAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (target: { name: string; action: ScheduleAction }): Promise<{ message: string }> => {
      const res = await apiRequest('POST', `/api/admin/schedules/${target.name}/${target.action}`);
      return (await res.json()) as { message: string };
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
}
