import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { sessionsQueryKey } from './get-sessions';

async function revoke(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/user/sessions/${encodeURIComponent(id)}`);
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revoke,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}

/** Ends every session but this one in one call; resolves to how many were ended. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<number> => {
      const response = await apiRequest('POST', '/api/user/sessions/revoke-others');
      const body = (await response.json()) as { revoked: number };
      return body.revoked;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
