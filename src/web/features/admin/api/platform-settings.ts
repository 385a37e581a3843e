import type { PlatformSettingsResponse, PlatformSettingsUpdate } from '@shared/platform-settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export const platformSettingsQueryKey = ['/api/admin/settings'] as const;

export function usePlatformSettings() {
  return useQuery<PlatformSettingsResponse>({ queryKey: platformSettingsQueryKey });
}

export function useSavePlatformSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (update: PlatformSettingsUpdate): Promise<PlatformSettingsResponse> => {
      const res = await apiRequest('PUT', '/api/admin/settings', update);
      return (await res.json()) as PlatformSettingsResponse;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(platformSettingsQueryKey, saved);
      // The audit log shows the change at once.
      void queryClient.invalidateQueries({ queryKey: ['/api/admin/audit-log'] });
    },
  });
}
