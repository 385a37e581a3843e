import { LIST_RECYCLE_BIN_DAYS } from '@shared/contacts';
import type { ContactList } from '@shared/lists';
import { ToastAction } from '@/components/ui/toast';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { useDeleteList, useRestoreList } from '../api/lists';

/** Deletes a list to the recycle bin, with an Undo on the notification. */
export function useDeleteListWithUndo() {
  const deleteList = useDeleteList();
  const restoreList = useRestoreList();

  const run = (list: Pick<ContactList, 'id' | 'name'>, onDeleted?: () => void) => {
    deleteList.mutate(list.id, {
      onSuccess: () => {
        onDeleted?.();
        toast({
          title: 'List moved to the recycle bin',
          description: `${list.name} can be restored for ${LIST_RECYCLE_BIN_DAYS} days.`,
          action: (
            <ToastAction
              altText="Undo the deletion"
              data-testid="undo-delete-list"
              onClick={() =>
                restoreList.mutate(list.id, {
                  onSuccess: (restored) => toast({ title: 'List restored', description: restored.name }),
                  onError: (error) =>
                    toast({
                      title: 'List not restored',
                      description: getErrorMessage(error, 'Open the recycle bin to restore it.'),
                      variant: 'destructive',
                    }),
                })
              }
            >
              Undo
            </ToastAction>
          ),
        });
      },
      onError: (error) =>
        toast({
          title: 'List not deleted',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  };
  return { run, pending: deleteList.isPending };
}
