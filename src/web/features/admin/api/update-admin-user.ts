import type { AdminUser, adminUpdateUserSchema } from '@shared/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { adminUserPath, refreshAdminData } from './refresh-admin-data';

export type AdminUpdateUserInput = z.infer<typeof adminUpdateUserSchema>;

/** Changes a user's role or plan. The server refuses (400) to let an admin demote themselves. */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...input }: AdminUpdateUserInput & { id: string }): Promise<AdminUser> => {
      const res = await apiRequest('PATCH', adminUserPath(id), input);
      return (await res.json()) as AdminUser;
    },
    onSuccess: (user) => refreshAdminData(queryClient, user),
  });
}
