import type { AdminUser } from '@shared/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { adminUserPath, refreshAdminData } from './refresh-admin-data';

export function useRestoreUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<AdminUser> => {
      const res = await apiRequest('POST', `${adminUserPath(id)}/restore`);
      return (await res.json()) as AdminUser;
    },
    onSuccess: (user) => refreshAdminData(queryClient, user),
  });
}
