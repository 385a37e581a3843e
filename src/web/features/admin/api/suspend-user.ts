import type { AdminUser, adminSuspendSchema } from '@shared/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { adminUserPath, refreshAdminData } from './refresh-admin-data';

export type AdminSuspendInput = z.infer<typeof adminSuspendSchema>;

/** Suspends a user and ends their sessions. The server refuses (400) to let an admin suspend themselves. */
export function useSuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, reason }: AdminSuspendInput & { id: string }): Promise<AdminUser> => {
      const res = await apiRequest('POST', `${adminUserPath(id)}/suspend`, { reason });
      return (await res.json()) as AdminUser;
    },
    onSuccess: (user) => refreshAdminData(queryClient, user),
  });
}
