import type { User, updateProfileSchema } from '@shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { USER_QUERY_KEY } from '@/lib/query-client';

export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: UpdateProfileInput): Promise<User> => {
      const res = await apiRequest('PATCH', '/api/user', input);
      return (await res.json()) as User;
    },
    onSuccess: (user) => {
      queryClient.setQueryData(USER_QUERY_KEY, user);
    },
  });
}
