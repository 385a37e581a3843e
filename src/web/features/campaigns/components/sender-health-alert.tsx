import type { SenderAccount } from '@shared/sending';
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { sendersNeedingAttention } from '../lib/sender-health';

/**
 * Shown on a running or scheduled campaign whose sender accounts cannot all send: the campaign waits
 * (or carries on through the others) without an error anywhere else, so the owner must hear it here.
 */
export function SenderHealthAlert({
  senderAccountIds,
  senderAccounts,
}: {
  senderAccountIds: string[];
  senderAccounts: SenderAccount[] | undefined;
}) {
  if (!senderAccounts) return null;
  const health = sendersNeedingAttention(senderAccountIds, senderAccounts);
  if (health.blocked.length === 0) return null;
  return (
    <Alert variant={health.noneCanSend ? 'destructive' : 'default'} data-testid="sender-health-alert">
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>
        {health.noneCanSend
          ? 'No sender account of this campaign can send: it is waiting'
          : 'Some sender accounts cannot send: the others carry the campaign'}
      </AlertTitle>
      <AlertDescription>
        <ul className="list-disc space-y-0.5 pl-4">
          {health.blocked.map((account) => (
            <li key={account.id}>
              <span className="font-medium">{account.name}</span>: {account.problem}
            </li>
          ))}
        </ul>
        <p>
          Fix or resume them in{' '}
          <Link to="/settings#sender-accounts" className="underline underline-offset-2">
            Settings → Sender accounts
          </Link>
          {health.noneCanSend ? ', or edit the campaign to add another account.' : '.'}
        </p>
      </AlertDescription>
    </Alert>
  );
}
