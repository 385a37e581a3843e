import type { SenderAccount } from '@shared/sending';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { getPlanLimitMessage } from '@/lib/plan-limit';
import { useAddDevMailboxAccount } from '../../api/sender-accounts';
import { SenderAccountForm } from './sender-account-form';

/** The sender account form in a dialog, for adding (no `account`) or editing. */
export function SenderAccountDialog({
  open,
  onOpenChange,
  account,
  defaultFromName,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  account?: SenderAccount;
  defaultFromName?: string;
  onSaved?: (account: SenderAccount) => void;
}) {
  const addDevMailbox = useAddDevMailboxAccount();

  const saved = (result: SenderAccount) => {
    onOpenChange(false);
    onSaved?.(result);
  };

  const connectDevMailbox = () =>
    addDevMailbox.mutate(undefined, {
      onSuccess: (result) => {
        toast({ title: 'Test mailbox connected', description: `${result.fromName} <${result.fromEmail}>` });
        saved(result);
      },
      onError: (error) =>
        toast({
          title: 'Test mailbox not added',
          description: getPlanLimitMessage(error) ?? getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="gap-6 sm:max-w-2xl" data-testid="sender-account-dialog">
        <DialogHeader>
          <DialogTitle>{account ? 'Edit sender account' : 'Add a sender account'}</DialogTitle>
          <DialogDescription>
            {!account
              ? 'Connect the mailbox your campaigns are sent from. Test the connection before you save.'
              : account.isDevMailbox
                ? `${account.fromName} <${account.fromEmail}>. Change how it signs its emails and how much it sends.`
                : `${account.fromName} <${account.fromEmail}>. Leave the passwords blank to keep the saved ones.`}
          </DialogDescription>
        </DialogHeader>
        {open && (
          <SenderAccountForm
            key={account?.id ?? 'new'}
            account={account}
            defaultFromName={defaultFromName}
            onSaved={saved}
            onCancel={() => onOpenChange(false)}
            onUseDevMailbox={account ? undefined : connectDevMailbox}
            devMailboxPending={addDevMailbox.isPending}
            stickyFooter
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
