import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { adminUserPath, refreshAdminData } from './refresh-admin-data';

export function useEndUserSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<{ message: string }> => {
      const res = await apiRequest('POST', `${adminUserPath(id)}/end-sessions`);
      return (await res.json()) as { message: string };
    },
    onSuccess: () => refreshAdminData(queryClient),
  });
}
