import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';

/**
 * An admin action behind a confirmation: `ask` opens the dialog for a target, `confirm` runs the
 * mutation and toasts the server's answer ("Done" with its message, or why not), and the dialog closes
 * either way. The monitors' pause/resume and retry/cancel all work this way.
 */
export function useConfirmedAction<Pending, Variables>(
  mutation: UseMutationResult<{ message: string }, Error, Variables>,
  variablesOf: (pending: Pending) => Variables,
) {
  const [pending, setPending] = useState<Pending | null>(null);
  const confirm = () => {
    if (pending === null) return;
    mutation.mutate(variablesOf(pending), {
      onSuccess: (result) => toast({ title: 'Done', description: result.message }),
      onError: (error) =>
        toast({
          title: 'Not done',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
      onSettled: () => setPending(null),
    });
  };
  return { pending, ask: setPending, dismiss: () => setPending(null), confirm, busy: mutation.isPending };
}
