import { type AdminOrder, adminRefundSchema } from '@shared/payments';
import { type FormEvent, useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { formatNaira } from '@/lib/billing';
import { getErrorMessage } from '@/lib/errors';

import { useRefundOrder } from '../api/billing-admin';

const REASON_MAX = 500;

/**
 * Marks a paid order as refunded (the money itself is returned in the Paystack dashboard). Optionally the
 * subscription it paid for ends now.
 */
export function RefundOrderDialog({ order, onClose }: { order: AdminOrder | null; onClose: () => void }) {
  const refund = useRefundOrder();
  const [reason, setReason] = useState('');
  const [endSubscription, setEndSubscription] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const errorId = useId();
  const endId = useId();

  const close = () => {
    if (refund.isPending) return;
    setReason('');
    setEndSubscription(false);
    setError(null);
    refund.reset();
    onClose();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!order) return;
    const parsed = adminRefundSchema.safeParse({ reason, endSubscription });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'A reason is required');
      return;
    }
    setError(null);
    refund.mutate(
      { id: order.id, ...parsed.data },
      {
        onSuccess: () => {
          toast({ title: 'Order refunded', description: `${order.reference} is marked as refunded.` });
          setReason('');
          setEndSubscription(false);
          onClose();
        },
        onError: (failure) =>
          setError(getErrorMessage(failure, 'The order could not be marked as refunded.')),
      },
    );
  };

  return (
    <Dialog open={order !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent data-testid="refund-order-dialog">
        {order && (
          <form onSubmit={onSubmit} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Mark {formatNaira(order.amount)} as refunded?</DialogTitle>
              <DialogDescription>
                Order <span className="font-mono">{order.reference}</span> from{' '}
                {order.userEmail ?? 'a deleted user'}. Return the money in the Paystack dashboard as well:
                this records the refund in Tambari and in the audit log.
              </DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor={reasonId}>Reason</Label>
              <Textarea
                id={reasonId}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={REASON_MAX}
                rows={3}
                placeholder="For example: charged twice, customer asked within 7 days"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId : undefined}
                disabled={refund.isPending}
                data-testid="refund-reason"
              />
            </div>
            <div className="flex items-start gap-3">
              <Checkbox
                id={endId}
                checked={endSubscription}
                onCheckedChange={(checked) => setEndSubscription(checked === true)}
                disabled={refund.isPending}
                data-testid="refund-end-subscription"
              />
              <div className="grid gap-1">
                <Label htmlFor={endId}>End the subscription now</Label>
                <p className="text-xs text-muted-foreground">
                  Otherwise the customer keeps the plan until the current period ends.
                </p>
              </div>
            </div>
            {error && (
              <p id={errorId} role="alert" className="text-sm text-destructive">
                {error}
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={close} disabled={refund.isPending}>
                Cancel
              </Button>
              <Button
                type="submit"
                variant="destructive"
                disabled={refund.isPending || reason.trim().length === 0}
                data-testid="confirm-refund"
              >
                {refund.isPending ? 'Saving…' : 'Mark as refunded'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
