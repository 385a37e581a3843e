import { type AdminSubscription, adminExtendSubscriptionSchema } from '@shared/payments';
import { type FormEvent, useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { planDisplayName } from '@/lib/billing';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';

import { useExtendSubscription } from '../api/billing-admin';

const REASON_MAX = 500;

/** Adds free days to a subscriber's current period (goodwill, outage credit), with a reason for the audit log. */
export function ExtendSubscriptionDialog({
  subscription,
  onClose,
}: {
  subscription: AdminSubscription | null;
  onClose: () => void;
}) {
  const extend = useExtendSubscription();
  const [days, setDays] = useState('30');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const daysId = useId();
  const reasonId = useId();
  const errorId = useId();

  const close = () => {
    if (extend.isPending) return;
    setDays('30');
    setReason('');
    setError(null);
    onClose();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!subscription) return;
    const parsed = adminExtendSubscriptionSchema.safeParse({ days: Number(days), reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the days and the reason');
      return;
    }
    setError(null);
    extend.mutate(
      { userId: subscription.userId, ...parsed.data },
      {
        onSuccess: (updated) => {
          toast({
            title: 'Subscription extended',
            description: `${subscription.email} now runs until ${formatDate(updated.currentPeriodEnd)}.`,
          });
          setDays('30');
          setReason('');
          onClose();
        },
        onError: (failure) => setError(getErrorMessage(failure, 'The subscription could not be extended.')),
      },
    );
  };

  return (
    <Dialog open={subscription !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent data-testid="extend-subscription-dialog">
        {subscription && (
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Extend {subscription.email}</DialogTitle>
              <DialogDescription>
                {planDisplayName(subscription.planId)} plan, current period ends{' '}
                {formatDate(subscription.currentPeriodEnd)}. The added days are free of charge and recorded in
                the audit log.
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor={daysId}>Days to add</Label>
              <Input
                id={daysId}
                type="number"
                inputMode="numeric"
                min={1}
                max={366}
                step={1}
                value={days}
                onChange={(event) => setDays(event.target.value)}
                disabled={extend.isPending}
                className="w-32"
                data-testid="extend-days"
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={reasonId}>Reason</Label>
              <Textarea
                id={reasonId}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={REASON_MAX}
                rows={3}
                placeholder="For example: sending outage on 3 March"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                disabled={extend.isPending}
                data-testid="extend-reason"
              />
            </div>
            {error && (
              <p id={errorId} role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={close} disabled={extend.isPending}>
                Cancel
              </Button>
              <Button
                type="submit"
                disabled={extend.isPending || reason.trim().length === 0}
                data-testid="confirm-extend"
              >
                {extend.isPending ? 'Extending…' : 'Extend subscription'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
