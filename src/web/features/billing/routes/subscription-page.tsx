import type { Payment, Subscription } from '@shared/payments';
import {
  AlertTriangle,
  ArrowUpRight,
  CalendarClock,
  CreditCard,
  Loader2,
  ReceiptText,
  RotateCcw,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { getDisplayName } from '@/app/layouts/account-menu';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useAuth } from '@/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import {
  describeCard,
  formatNaira,
  intervalLabel,
  ORDER_KIND_LABEL,
  ORDER_STATUS_BADGE,
  paymentHref,
  planDisplayName,
  subscriptionBadge,
} from '@/lib/billing';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';

import { usePaymentHistory, useSubscription } from '../api/get-subscription';
import { useCancelSubscription, useReactivateSubscription } from '../api/payments';
import { PlansError } from '../components/plans-error';
import { ReceiptDialog } from '../components/receipt-dialog';

/** /subscription (Billing in the account menu): the plan, its state, renewals and receipts. */
export default function SubscriptionPage() {
  const subscriptionQuery = useSubscription();
  const historyQuery = usePaymentHistory();

  return (
    <div className="mx-auto w-full max-w-5xl space-y-6" data-testid="subscription-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Subscription</h1>
        <p className="text-muted-foreground">Your plan, the next charge and every payment you have made.</p>
      </header>
      {subscriptionQuery.isError ? (
        <PlansError
          title="Your subscription could not be loaded"
          error={subscriptionQuery.error}
          onRetry={() => subscriptionQuery.refetch()}
        />
      ) : subscriptionQuery.data ? (
        <SubscriptionOverview subscription={subscriptionQuery.data} />
      ) : (
        <Skeleton className="h-72 w-full rounded-xl" />
      )}
      <PaymentHistory
        // Checkouts that were opened and closed moved no money; listing them would only confuse.
        payments={historyQuery.data?.payments.filter(
          (p) => p.status !== 'pending' && p.status !== 'abandoned',
        )}
        loading={historyQuery.isPending}
        error={historyQuery.isError ? historyQuery.error : null}
        onRetry={() => historyQuery.refetch()}
      />
    </div>
  );
}

function SubscriptionOverview({ subscription: sub }: { subscription: Subscription }) {
  const cancel = useCancelSubscription();
  const reactivate = useReactivateSubscription();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const badge = subscriptionBadge(sub);
  const free = sub.planId === 'free';
  const periodRunning = Boolean(
    sub.currentPeriodEnd && new Date(sub.currentPeriodEnd).getTime() > Date.now(),
  );
  const activeRunning = sub.status === 'active' && periodRunning;
  const needsPayment = !free && !activeRunning;
  const card = sub.card ? describeCard(sub.card.brand, sub.card.last4) : null;

  function onCancel() {
    cancel.mutate(undefined, {
      onSuccess: (response) => {
        setConfirmCancel(false);
        toast({ title: 'Subscription cancelled', description: response.message });
      },
      onError: (error) =>
        toast({
          title: 'Could not cancel',
          description: getErrorMessage(error, 'Please try again in a moment.'),
          variant: 'destructive',
        }),
    });
  }

  function onReactivate() {
    reactivate.mutate(undefined, {
      onSuccess: (response) => toast({ title: 'Subscription reactivated', description: response.message }),
      onError: (error) =>
        toast({
          title: 'Could not reactivate',
          description: getErrorMessage(error, 'Please try again in a moment.'),
          variant: 'destructive',
        }),
    });
  }

  return (
    <Card data-testid="subscription-overview">
      <CardHeader className="gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <CardTitle>
            <h2 className="text-xl" data-testid="subscription-plan">
              {sub.planName}
            </h2>
          </CardTitle>
          <Badge variant={badge.tone} data-testid="subscription-status">
            {badge.label}
          </Badge>
          {sub.interval && !free && (
            <Badge variant="outline" data-testid="subscription-interval">
              {intervalLabel(sub.interval)}
            </Badge>
          )}
        </div>
        <CardDescription>
          {free
            ? 'You are on the Free plan: no card, no charges. Upgrade whenever you need more.'
            : 'Paid in Naira through Paystack.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {sub.cancelAtPeriodEnd && activeRunning && sub.currentPeriodEnd && (
          <Alert variant="warning" data-testid="subscription-cancelling">
            <CalendarClock aria-hidden="true" />
            <AlertTitle>Your plan ends on {formatDate(sub.currentPeriodEnd)}</AlertTitle>
            <AlertDescription>
              You keep {sub.planName} until then and will not be charged again. Changed your mind? Reactivate
              to keep renewing.
            </AlertDescription>
          </Alert>
        )}
        {sub.status === 'past_due' && (
          <Alert variant="destructive" data-testid="subscription-past-due">
            <AlertTriangle aria-hidden="true" />
            <AlertTitle>Your last renewal payment failed</AlertTitle>
            <AlertDescription>
              {sub.nextRetryAt
                ? `We tried ${sub.renewalAttempts} time${sub.renewalAttempts === 1 ? '' : 's'} and will try again on ${formatDate(sub.nextRetryAt)}. Pay now to keep your plan without interruption.`
                : 'Pay now to keep your plan.'}
            </AlertDescription>
          </Alert>
        )}
        {sub.pendingPlanId && sub.currentPeriodEnd && (
          <Alert data-testid="subscription-pending-change">
            <CalendarClock aria-hidden="true" />
            <AlertTitle>
              Changing to {planDisplayName(sub.pendingPlanId)}
              {sub.pendingInterval && sub.pendingPlanId !== 'free'
                ? ` (${intervalLabel(sub.pendingInterval).toLowerCase()})`
                : ''}{' '}
              on {formatDate(sub.currentPeriodEnd)}
            </AlertTitle>
            <AlertDescription>Your current plan stays in place until then.</AlertDescription>
          </Alert>
        )}

        {!free && (
          <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            <Fact
              label={periodRunning ? 'Current period ends' : 'Period ended'}
              testId="subscription-period-end"
            >
              {formatDate(sub.currentPeriodEnd)}
            </Fact>
            <Fact label="Next charge" testId="subscription-next-charge">
              {sub.nextChargeAmount !== null && sub.nextChargeDate ? (
                <>
                  {formatNaira(sub.nextChargeAmount)}
                  <span className="block text-xs font-normal text-muted-foreground">
                    on {formatDate(sub.nextChargeDate)}
                  </span>
                </>
              ) : (
                <span className="text-muted-foreground">No upcoming charge</span>
              )}
            </Fact>
            <Fact label="Billing" testId="subscription-billing">
              {sub.interval ? intervalLabel(sub.interval) : '—'}
            </Fact>
            <Fact label="Payment card" testId="subscription-card">
              {card ? (
                <span className="flex items-center gap-1.5">
                  <CreditCard className="size-4 text-muted-foreground" aria-hidden="true" />
                  {card}
                </span>
              ) : (
                <span className="text-muted-foreground">None on file</span>
              )}
            </Fact>
          </dl>
        )}
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {free ? (
          <Button asChild data-testid="subscription-upgrade">
            <Link to="/upgrade">
              Upgrade plan
              <ArrowUpRight aria-hidden="true" />
            </Link>
          </Button>
        ) : (
          <>
            {needsPayment && (
              <Button asChild data-testid="subscription-pay">
                <Link to={paymentHref(sub.planId, sub.interval ?? 'monthly')}>
                  <CreditCard aria-hidden="true" />
                  {sub.status === 'past_due'
                    ? 'Update Payment'
                    : sub.status === 'incomplete'
                      ? 'Complete Payment'
                      : 'Renew Subscription'}
                </Link>
              </Button>
            )}
            <Button
              asChild
              variant={needsPayment ? 'outline' : 'default'}
              data-testid="subscription-change-plan"
            >
              <Link to="/upgrade">Change plan</Link>
            </Button>
            {activeRunning && !sub.cancelAtPeriodEnd && (
              <Button
                variant="ghost"
                onClick={() => setConfirmCancel(true)}
                data-testid="subscription-cancel"
              >
                Cancel subscription
              </Button>
            )}
            {activeRunning && sub.cancelAtPeriodEnd && (
              <Button
                variant="outline"
                onClick={onReactivate}
                disabled={reactivate.isPending}
                data-testid="subscription-reactivate"
              >
                {reactivate.isPending ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <RotateCcw aria-hidden="true" />
                )}
                Reactivate
              </Button>
            )}
          </>
        )}
      </CardFooter>

      <AlertDialog open={confirmCancel} onOpenChange={(open) => !cancel.isPending && setConfirmCancel(open)}>
        <AlertDialogContent data-testid="cancel-subscription-dialog">
          <AlertDialogHeader>
            <AlertDialogTitle>Cancel your {sub.planName} subscription?</AlertDialogTitle>
            <AlertDialogDescription asChild>
              <div className="space-y-2">
                <p>
                  You keep everything in {sub.planName} until{' '}
                  <strong className="text-foreground">{formatDate(sub.currentPeriodEnd)}</strong>, and you
                  will not be charged again. After that your account moves to the Free plan limits.
                </p>
                <p>
                  Your contacts, lists, campaigns and templates are kept. You can reactivate before that date.
                </p>
              </div>
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={cancel.isPending}>Keep my plan</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              disabled={cancel.isPending}
              onClick={(event) => {
                event.preventDefault();
                onCancel();
              }}
              data-testid="cancel-subscription-confirm"
            >
              {cancel.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Cancel at period end
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}

function Fact({ label, testId, children }: { label: string; testId?: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 rounded-lg border p-3">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-1 font-semibold break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function PaymentHistory({
  payments,
  loading,
  error,
  onRetry,
}: {
  payments: Payment[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  const { user } = useAuth();
  const [receipt, setReceipt] = useState<Payment | null>(null);
  return (
    <Card data-testid="payment-history">
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Payment history</h2>
        </CardTitle>
        <CardDescription>
          Every payment on your account, newest first. Open one for its receipt.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {error ? (
          <PlansError title="Payments could not be loaded" error={error} onRetry={onRetry} />
        ) : loading ? (
          <div className="space-y-2">
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} className="h-10 w-full" />
            ))}
          </div>
        ) : !payments || payments.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center">
            <ReceiptText className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">No payments yet</p>
            <p className="text-sm text-muted-foreground">Receipts appear here after your first payment.</p>
          </div>
        ) : (
          <>
            <ul className="divide-y rounded-lg border md:hidden" aria-label="Payments">
              {payments.map((payment) => {
                const status = ORDER_STATUS_BADGE[payment.status] ?? {
                  label: payment.status,
                  tone: 'secondary' as const,
                };
                return (
                  <li key={payment.id} className="flex items-center justify-between gap-3 p-3">
                    <div className="min-w-0">
                      <p className="font-medium">
                        {payment.planName} · {intervalLabel(payment.interval)}
                      </p>
                      <p className="text-xs text-muted-foreground">
                        {formatDate(payment.paidAt ?? payment.createdAt)} ·{' '}
                        {ORDER_KIND_LABEL[payment.kind] ?? payment.kind}
                      </p>
                      <Badge variant={status.tone} className="mt-1">
                        {status.label}
                      </Badge>
                    </div>
                    <div className="flex shrink-0 flex-col items-end gap-1">
                      <span className="font-semibold tabular-nums">{formatNaira(payment.amount)}</span>
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => setReceipt(payment)}
                        disabled={payment.status !== 'success' && payment.status !== 'refunded'}
                        aria-label={`View receipt ${payment.reference}`}
                      >
                        <ReceiptText aria-hidden="true" />
                        Receipt
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
            <Table className="hidden md:table">
              <TableHeader>
                <TableRow>
                  <TableHead>Date</TableHead>
                  <TableHead>Plan</TableHead>
                  <TableHead className="hidden md:table-cell">Reference</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>
                    <span className="sr-only">Receipt</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {payments.map((payment) => {
                  const status = ORDER_STATUS_BADGE[payment.status] ?? {
                    label: payment.status,
                    tone: 'secondary' as const,
                  };
                  return (
                    <TableRow key={payment.id} data-testid={`payment-row-${payment.reference}`}>
                      <TableCell className="whitespace-nowrap">
                        {formatDate(payment.paidAt ?? payment.createdAt)}
                      </TableCell>
                      <TableCell>
                        <span className="font-medium">{payment.planName}</span>
                        <span className="block text-xs text-muted-foreground">
                          {intervalLabel(payment.interval)} · {ORDER_KIND_LABEL[payment.kind] ?? payment.kind}
                        </span>
                      </TableCell>
                      <TableCell className="hidden font-mono text-xs md:table-cell">
                        {payment.reference}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{formatNaira(payment.amount)}</TableCell>
                      <TableCell>
                        <Badge variant={status.tone}>{status.label}</Badge>
                      </TableCell>
                      <TableCell className="text-right">
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setReceipt(payment)}
                          disabled={payment.status !== 'success' && payment.status !== 'refunded'}
                          aria-label={`View receipt ${payment.reference}`}
                          data-testid="payment-receipt-button"
                        >
                          <ReceiptText aria-hidden="true" />
                          Receipt
                        </Button>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
      <ReceiptDialog
        payment={receipt}
        customer={{ name: user ? getDisplayName(user) : '', email: user?.email ?? '' }}
        onOpenChange={(open) => !open && setReceipt(null)}
      />
    </Card>
  );
}
