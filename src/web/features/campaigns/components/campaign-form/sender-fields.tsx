import type { SenderAccount } from '@shared/sending';
import { useQuery } from '@tanstack/react-query';
import { Crown, Mail, Plus, Shuffle } from 'lucide-react';
import { Link } from 'react-router';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { getErrorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';

const STATUS_TONE = { active: 'success', paused: 'warning', failing: 'destructive' } as const;
const STATUS_LABEL = { active: 'Active', paused: 'Paused', failing: 'Failing' } as const;

export function useSenderAccountList() {
  return useQuery<SenderAccount[]>({ queryKey: ['/api/sender-accounts'], staleTime: 30_000 });
}

/**
 * Step 3 of the campaign form: the sender accounts the campaign rotates over (least used first). Rotation
 * needs two or more accounts, which the free plan does not include.
 */
export function SenderFields({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  error?: string;
}) {
  const accounts = useSenderAccountList();
  const { user } = useAuth();
  const free = user?.subscriptionPlan === 'free';
  const list = accounts.data ?? [];
  const chosen = list.filter((account) => value.includes(account.id));
  const dailyCapacity = chosen.reduce((sum, account) => sum + account.effectiveCap, 0);

  if (accounts.isPending) {
    return (
      <div className="space-y-2">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  }
  if (accounts.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>
          {getErrorMessage(accounts.error, 'Your sender accounts could not be loaded.')}
        </AlertDescription>
      </Alert>
    );
  }

  return (
    <div className="space-y-4" data-testid="sender-fields">
      {list.length === 0 ? (
        <div className="space-y-3 rounded-lg border border-dashed p-4 text-sm">
          <p className="text-muted-foreground">
            You have no sender account yet. Connect the mailbox your emails will come from; you can save this
            campaign as a draft and add one before launching.
          </p>
          <Button asChild variant="outline" size="sm">
            <Link to="/settings#sender-accounts">
              <Plus aria-hidden="true" />
              Connect a sender account
            </Link>
          </Button>
        </div>
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Sender accounts">
          {list.map((account) => {
            const id = `sender-${account.id}`;
            return (
              <li key={account.id} className="flex items-center gap-3 px-3 py-3">
                <Checkbox
                  id={id}
                  checked={value.includes(account.id)}
                  onCheckedChange={(checked) =>
                    onChange(
                      checked === true ? [...value, account.id] : value.filter((v) => v !== account.id),
                    )
                  }
                  data-testid="sender-option"
                  data-sender-label={account.label}
                />
                <Label htmlFor={id} className="flex min-w-0 flex-1 flex-col items-start gap-0.5 font-normal">
                  <span className="flex w-full min-w-0 items-center gap-2">
                    <Mail className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <span className="truncate font-medium">{account.label || account.fromEmail}</span>
                    <Badge variant={STATUS_TONE[account.status]}>{STATUS_LABEL[account.status]}</Badge>
                  </span>
                  <span className="truncate pl-6 text-xs text-muted-foreground">
                    {account.fromName} &lt;{account.fromEmail}&gt; · {formatNumber(account.sentToday)} of{' '}
                    {formatNumber(account.effectiveCap)} sent today
                  </span>
                </Label>
              </li>
            );
          })}
        </ul>
      )}

      {chosen.length > 1 && (
        <p className="flex items-start gap-2 text-sm text-muted-foreground" data-testid="rotation-note">
          <Shuffle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Sends rotate across {chosen.length} accounts, the least used first: up to{' '}
          {formatNumber(dailyCapacity)} emails a day.
        </p>
      )}
      {chosen.some((account) => account.status !== 'active') && (
        <p className="text-sm text-warning-foreground">
          A paused or failing account is skipped until it is healthy again.
        </p>
      )}
      {free && (
        <p
          className="flex items-start gap-2 rounded-lg bg-muted/50 p-3 text-sm text-muted-foreground"
          data-testid="free-plan-rotation-note"
        >
          <Crown className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          <span>
            The Free plan sends from one account. Sender rotation across two or more accounts is part of the
            paid plans.{' '}
            <Link to="/upgrade" className="font-medium text-primary underline-offset-4 hover:underline">
              Upgrade
            </Link>
          </span>
        </p>
      )}
      {error && (
        <p className="text-sm font-medium text-destructive" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
