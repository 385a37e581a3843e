import type { InboundResult, SimulatedInboundKind } from '@shared/inbound';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { devMailboxQueryKey } from './get-dev-mailbox';

/**
 * Runs a reply, bounce, out-of-office or unsubscribe for a caught message through the real inbound
 * processing (super admin, development mailbox only). `matched` is false when the mail is not one a
 * campaign sent, so nothing changed.
 */
export function useSimulateDevMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, kind }: { id: string; kind: SimulatedInboundKind }): Promise<InboundResult> => {
      const res = await apiRequest(
        'POST',
        `/api/admin/dev-mailbox/messages/${encodeURIComponent(id)}/simulate`,
        { kind },
      );
      return (await res.json()) as InboundResult;
    },
    // Handling an answer can itself send mail (a notice to the sender): show it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: devMailboxQueryKey, exact: true }),
  });
}
