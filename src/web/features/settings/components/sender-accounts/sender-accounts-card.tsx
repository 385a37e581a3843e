import type { User } from '@shared/auth';
import type { UserPlan } from '@shared/payments';
import type { SenderAccount } from '@shared/sending';
import { useQuery } from '@tanstack/react-query';
import { FlaskConical, MailPlus, Plus, Rocket } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { getPlanLimitMessage } from '@/lib/plan-limit';
import {
  useAddDevMailboxAccount,
  useDeleteSenderAccount,
  useSenderAccounts,
  useSenderPresets,
} from '../../api/sender-accounts';
import { isDevMailboxPreset } from '../../lib/sender-form';
import { SendTestEmailDialog } from './send-test-email-dialog';
import { SenderAccountDialog } from './sender-account-dialog';
import { SenderAccountItem } from './sender-account-item';

function fullName(user: User): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ');
}

/**
 * "1 of 3 sender accounts on your Starter plan", with the way up when they are all used. The test mailbox
 * reaches nobody, so it does not count.
 */
function PlanUsage({ used, testMailboxes }: { used: number; testMailboxes: number }) {
  const plan = useQuery<UserPlan>({ queryKey: ['/api/user/plan'] });
  if (!plan.data) return null;
  const limit = plan.data.senderAccountLimit;
  if (limit < 0) return null;
  const full = used >= limit;
  return (
    <p className="text-sm text-muted-foreground" data-testid="sender-plan-usage">
      {used} of {limit} sender {limit === 1 ? 'account' : 'accounts'} on your {plan.data.name} plan
      {testMailboxes > 0 ? ' (the Tambari test mailbox is free and does not count).' : '.'}
      {full && (
        <>
          {' '}
          <Link to="/upgrade" className="font-medium text-primary underline-offset-4 hover:underline">
            Upgrade for more
          </Link>{' '}
          to rotate sending over several mailboxes.
        </>
      )}
    </p>
  );
}

function EmptyState({
  onAdd,
  onUseDevMailbox,
  devMailboxPending,
}: {
  onAdd: () => void;
  onUseDevMailbox?: () => void;
  devMailboxPending: boolean;
}) {
  return (
    <div
      className="flex flex-col items-center gap-3 rounded-lg border border-dashed px-6 py-10 text-center"
      data-testid="sender-accounts-empty"
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-secondary-foreground">
        <MailPlus className="size-6" aria-hidden="true" />
      </span>
      <p className="font-medium">No sender account yet</p>
      <p className="max-w-md text-sm text-muted-foreground">
        Campaigns go out from your own mailbox (Gmail, Microsoft 365, Zoho or your web host), so replies come
        straight back to you. Connect one to start sending; Tambari tests it and checks your domain's SPF,
        DKIM and DMARC.
      </p>
      <div className="flex flex-wrap justify-center gap-2 pt-1">
        <Button onClick={onAdd} data-testid="sender-add-empty">
          <Plus aria-hidden="true" />
          Add sender account
        </Button>
        <Button asChild variant="outline">
          <Link to="/launch">
            <Rocket aria-hidden="true" />
            Quick setup
          </Link>
        </Button>
        {onUseDevMailbox && (
          <Button
            variant="outline"
            onClick={onUseDevMailbox}
            disabled={devMailboxPending}
            data-testid="sender-add-dev-mailbox"
          >
            <FlaskConical aria-hidden="true" />
            {devMailboxPending ? 'Adding…' : 'Use the test mailbox'}
          </Button>
        )}
      </div>
    </div>
  );
}

/** Settings → Sender accounts (`/settings#sender-accounts`): the mailboxes campaigns are sent from. */
export function SenderAccountsCard({ user }: { user: User }) {
  const accounts = useSenderAccounts();
  const presets = useSenderPresets();
  const addDevMailbox = useAddDevMailboxAccount();
  const deleteAccount = useDeleteSenderAccount();
  const [editing, setEditing] = useState<SenderAccount | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<SenderAccount | null>(null);
  const [sendingTest, setSendingTest] = useState<SenderAccount | null>(null);

  const list = accounts.data ?? [];
  const devMailboxOffered = presets.data?.some(isDevMailboxPreset) ?? false;
  const hasDevMailbox = list.some((account) => account.isDevMailbox);

  const connectDevMailbox = () =>
    addDevMailbox.mutate(undefined, {
      onSuccess: (saved) =>
        toast({ title: 'Test mailbox connected', description: `${saved.fromName} <${saved.fromEmail}>` }),
      onError: (error) =>
        toast({
          title: 'Test mailbox not added',
          description: getPlanLimitMessage(error) ?? getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });

  const confirmDelete = () => {
    if (!deleting) return;
    deleteAccount.mutate(deleting.id, {
      onSuccess: () => {
        toast({ title: 'Sender account deleted', description: deleting.fromEmail });
        setDeleting(null);
      },
      onError: (error) =>
        toast({
          title: 'Sender account not deleted',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  };

  return (
    <Card id="sender-accounts" className="scroll-mt-24" data-testid="sender-accounts-section">
      <CardHeader>
        <CardTitle>
          <h2>Sender accounts</h2>
        </CardTitle>
        <CardDescription>
          The mailboxes your campaigns are sent from. Each sends at most its daily limit; with several,
          Tambari rotates to the least used.
        </CardDescription>
        {list.length > 0 && (
          <CardAction>
            <Button size="sm" onClick={() => setAdding(true)} data-testid="sender-add">
              <Plus aria-hidden="true" />
              <span className="hidden sm:inline">Add sender account</span>
              <span className="sm:hidden">Add</span>
            </Button>
          </CardAction>
        )}
      </CardHeader>
      <CardContent className="space-y-4">
        {accounts.isPending ? (
          <div className="space-y-3" role="status" aria-label="Loading sender accounts">
            {[0, 1].map((key) => (
              <Skeleton key={key} className="h-40 rounded-lg" />
            ))}
          </div>
        ) : accounts.isError ? (
          <QueryError
            title="Sender accounts could not be loaded"
            error={accounts.error}
            onRetry={() => accounts.refetch()}
            testId="sender-accounts-error"
          />
        ) : list.length === 0 ? (
          <EmptyState
            onAdd={() => setAdding(true)}
            onUseDevMailbox={devMailboxOffered ? connectDevMailbox : undefined}
            devMailboxPending={addDevMailbox.isPending}
          />
        ) : (
          <>
            <ul className="space-y-3" aria-label="Sender accounts" data-testid="sender-accounts-list">
              {list.map((account) => (
                <SenderAccountItem
                  key={account.id}
                  account={account}
                  onEdit={setEditing}
                  onDelete={setDeleting}
                  onSendTest={setSendingTest}
                />
              ))}
            </ul>
            <PlanUsage
              used={list.filter((account) => !account.isDevMailbox).length}
              testMailboxes={list.filter((account) => account.isDevMailbox).length}
            />
            {devMailboxOffered && !hasDevMailbox && (
              <p className="text-sm text-muted-foreground">
                Trying things out?{' '}
                <button
                  type="button"
                  className="font-medium text-primary underline-offset-4 hover:underline disabled:opacity-50"
                  onClick={connectDevMailbox}
                  disabled={addDevMailbox.isPending}
                >
                  Add the Tambari test mailbox
                </button>
                : it catches every email instead of delivering it.
              </p>
            )}
          </>
        )}
      </CardContent>

      <SenderAccountDialog
        open={adding || Boolean(editing)}
        onOpenChange={(open) => {
          if (open) return;
          setAdding(false);
          setEditing(null);
        }}
        account={editing ?? undefined}
        defaultFromName={fullName(user)}
      />
      <SendTestEmailDialog
        account={sendingTest}
        defaultTo={user.email}
        onOpenChange={(open) => !open && setSendingTest(null)}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this sender account?"
        description={
          deleting ? (
            <p>
              <strong className="text-foreground">{deleting.fromEmail}</strong> stops sending at once and
              leaves every campaign it was in. Its stored passwords are deleted; the emails it already sent
              stay in your reports.
            </p>
          ) : null
        }
        confirmLabel="Delete account"
        pendingLabel="Deleting…"
        destructive
        pending={deleteAccount.isPending}
        onConfirm={confirmDelete}
        testId="confirm-delete-sender"
      />
    </Card>
  );
}
