import type { User } from '@shared/auth';
import type { updateProfileSchema } from '@shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';

export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

export const userQueryKey = ['/api/user'] as const;

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: UpdateProfileInput): Promise<User> => {
      const res = await apiRequest('PATCH', '/api/user', input);
      return (await res.json()) as User;
    },
    onSuccess: (user) => {
      queryClient.setQueryData(userQueryKey, user);
    },
  });
}
