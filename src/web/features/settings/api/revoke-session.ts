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

/**
 * There is no bulk endpoint, so each other session is revoked in turn. A session that ended meanwhile
 * answers 404, which is the outcome we wanted anyway.
 */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]): Promise<number> => {
      let revoked = 0;
      for (const id of ids) {
        try {
          await revoke(id);
          revoked++;
        } catch (error) {
          if ((error as { status?: number }).status !== 404) throw error;
        }
      }
      return revoked;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
