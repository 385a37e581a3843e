import type { deleteAccountSchema } from '@shared/auth';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';

export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

export function useDeleteAccount() {
  return useMutation({
    mutationFn: async (input: DeleteAccountInput): Promise<{ message: string }> => {
      const res = await apiRequest('DELETE', '/api/user', input);
      return (await res.json()) as { message: string };
    },
  });
}
