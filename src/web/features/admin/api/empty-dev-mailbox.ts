import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { devMailboxQueryKey } from './get-dev-mailbox';

export function useEmptyDevMailbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<{ message: string }> => {
      const res = await apiRequest('DELETE', '/api/admin/dev-mailbox');
      return (await res.json()) as { message: string };
    },
    onSuccess: () => {
      // Show the empty list at once, forget the cached messages, then confirm with the server.
      queryClient.setQueryData(devMailboxQueryKey, []);
      queryClient.removeQueries({
        queryKey: devMailboxQueryKey,
        predicate: (query) => query.queryKey.length > 1,
      });
      void queryClient.invalidateQueries({ queryKey: devMailboxQueryKey, exact: true });
    },
  });
}
