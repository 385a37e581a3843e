import { MailCheck } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { useListVerification, useVerifyList } from '../api/list-verification';

const STATUS_ROWS = [
  { key: 'valid', label: 'Valid', hint: 'The mail server accepts the mailbox' },
  { key: 'risky', label: 'Risky', hint: 'Catch-all domains, role mailboxes, full mailboxes, greylisted' },
  { key: 'invalid', label: 'Invalid', hint: 'No such mailbox, no mail server, disposable, not an address' },
  { key: 'unknown', label: 'Unknown', hint: 'The mail server could not be asked' },
  { key: 'unchecked', label: 'Not checked', hint: 'Never verified' },
] as const;

/**
 * "Verify list": asks each address's mail server whether the mailbox exists (nothing is sent), and shows
 * where the list stands. Invalid addresses bounce and hurt the sender's reputation; risky ones may.
 */
export function ListVerificationCard({ listId }: { listId: string }) {
  const verification = useListVerification(listId);
  const verify = useVerifyList(listId);
  const data = verification.data;
  if (!data) return null;
  const run = data.run;
  const working = run?.state === 'queued' || run?.state === 'running';
  const percent = run && run.total > 0 ? Math.round((run.checked / run.total) * 100) : 0;
  const { allowance } = data;
  const listSize = Object.values(data.breakdown).reduce((sum, n) => sum + n, 0);
  const short = allowance.remaining !== null && allowance.remaining < listSize;

  const start = () =>
    verify.mutate(undefined, {
      onSuccess: () => toast({ title: 'Verifying the list', description: 'Progress shows here as it goes.' }),
      onError: (error) =>
        toast({
          title: 'Not started',
          description: getErrorMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });

  return (
    <Card className="py-4" data-testid="list-verification">
      <CardContent className="space-y-3 px-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="space-y-1">
            <p className="font-medium">Email verification</p>
            <p className="text-sm text-muted-foreground">
              {working
                ? `Checking ${formatNumber(run.checked)} of ${formatNumber(run.total)}…`
                : run?.finishedAt
                  ? `Last verified ${formatDateTime(run.finishedAt)}${run.state === 'failed' ? ' (stopped early)' : ''}`
                  : 'Ask each address’s mail server whether the mailbox exists, without sending anything.'}
            </p>
          </div>
          <Button
            variant="outline"
            onClick={start}
            disabled={working || verify.isPending}
            data-testid="verify-list"
          >
            <MailCheck aria-hidden="true" />
            {run ? 'Verify again' : 'Verify list'}
          </Button>
        </div>
        {working && <Progress value={percent} aria-label="Verification progress" />}
        <p
          className={short ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}
          data-testid="verification-allowance"
        >
          {allowance.remaining === null
            ? `Your ${allowance.planName} plan verifies unlimited addresses.`
            : allowance.limit === 0
              ? `Email verification is not included in your ${allowance.planName} plan.`
              : `${formatNumber(allowance.remaining)} of ${formatNumber(allowance.limit)} verifications left this month; renews ${formatDate(allowance.renewsAt)}.`}
          {short && allowance.limit !== 0 && ' This list is larger than what is left: upgrade for more.'}
        </p>
        <ul className="flex flex-wrap gap-2" data-testid="verification-breakdown">
          {STATUS_ROWS.map((row) => (
            <li key={row.key} title={row.hint}>
              <Badge
                variant={
                  row.key === 'invalid' ? 'destructive' : row.key === 'valid' ? 'default' : 'secondary'
                }
              >
                {row.label}: {formatNumber(data.breakdown[row.key])}
              </Badge>
            </li>
          ))}
        </ul>
        {data.reasons.length > 0 && (
          <ul className="space-y-0.5 text-sm text-muted-foreground">
            {data.reasons.slice(0, 6).map((reason) => (
              <li key={reason.reason}>
                {formatNumber(reason.count)} · {reason.label}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
