import type { SignupForm, SignupFormInput } from '@shared/signup-forms';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { getJson } from '@/lib/http';

const key = (listId: string) => ['/api/lists', listId, 'signup-form'] as const;

export function useSignupForm(listId: string) {
  return useQuery<{ form: SignupForm | null }>({
    queryKey: key(listId),
    queryFn: ({ signal }) => getJson(`/api/lists/${listId}/signup-form`, signal),
  });
}

export function useSaveSignupForm(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignupFormInput): Promise<SignupForm> => {
      const res = await apiRequest('PUT', `/api/lists/${listId}/signup-form`, input);
      return (await res.json()) as SignupForm;
    },
    onSuccess: (form) => queryClient.setQueryData(key(listId), { form }),
  });
}

export function useDeleteSignupForm(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', `/api/lists/${listId}/signup-form`);
    },
    onSuccess: () => queryClient.setQueryData(key(listId), { form: null }),
  });
}
