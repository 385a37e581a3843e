import type { ListVerification } from '@shared/verification';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { getJson } from '@/lib/http';

const key = (listId: string) => ['/api/lists', listId, 'verification'] as const;

/** The list's verification: polled while a run is under way, so progress moves on screen. */
export function useListVerification(listId: string) {
  return useQuery<ListVerification>({
    queryKey: key(listId),
    queryFn: ({ signal }) => getJson(`/api/lists/${listId}/verification`, signal),
    refetchInterval: (query) => {
      const state = query.state.data?.run?.state;
      return state === 'queued' || state === 'running' ? 2_000 : false;
    },
  });
}

export function useVerifyList(listId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<ListVerification> => {
      const res = await apiRequest('POST', `/api/lists/${listId}/verify`);
      return (await res.json()) as ListVerification;
    },
    onSuccess: (data) => queryClient.setQueryData(key(listId), data),
  });
}
