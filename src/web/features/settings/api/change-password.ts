import type { changePasswordSchema } from '@shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { sessionsQueryKey } from './get-sessions';

export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ChangePasswordInput): Promise<{ message: string }> => {
      const res = await apiRequest('POST', '/api/user/password', input);
      return (await res.json()) as { message: string };
    },
    // The server ends every other session when the password changes.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
