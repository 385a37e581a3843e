import type { User } from '@shared/auth';
import { PLAN_NAMES } from '@shared/plans';

import { hasValidSubscription } from '@shared/subscription';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CheckCircle2, Clock, ReceiptText } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/hooks/use-auth';
import { useCurrency } from '@/hooks/use-currency';
import { usePageMeta } from '@/hooks/use-page-meta';
import { intervalLabel, paymentHref } from '@/lib/billing';
import { formatDate } from '@/lib/format';
import { USER_QUERY_KEY, USER_STALE_TIME } from '@/lib/query-client';
import { usePaymentHistory } from '../api/get-subscription';

/** How long the screen keeps checking for a payment that Paystack has not settled yet. */
const POLL_MS = 3000;
const POLL_FOR_MS = 90_000;

/**
 * /payment-success: the confirmation after a payment, read from `?reference=`. The plan shown is the
 * one the server has activated (GET /api/user); while a payment is still settling the screen keeps looking.
 */
export default function PaymentSuccessPage() {
  usePageMeta({
    title: 'Payment received | Tambari',
    description: 'Your Tambari payment confirmation.',
    robots: 'noindex, nofollow',
  });
  const { user, isLoading } = useAuth();
  const [searchParams] = useSearchParams();
  const reference = searchParams.get('reference')?.trim() || null;

  if (isLoading) return null;
  if (!user) {
    return (
      <Shell>
        <Card className="w-full">
          <CardHeader className="text-center">
            <CardTitle>
              <h1 className="text-xl">Sign in to see your plan</h1>
            </CardTitle>
            <CardDescription>
              {reference ? (
                <>
                  Your payment reference is <span className="font-mono">{reference}</span>. Sign in to the
                  account you paid with to see your subscription.
                </>
              ) : (
                'Sign in to the account you paid with to see your subscription.'
              )}
            </CardDescription>
          </CardHeader>
          <CardFooter className="justify-center">
            <Button asChild>
              <Link to="/auth?mode=login">Sign in</Link>
            </Button>
          </CardFooter>
        </Card>
      </Shell>
    );
  }
  if (!reference) return <NoReference />;
  return <Confirmation user={user} reference={reference} />;
}

/** Opened without the reference Paystack adds on its way back: there is nothing to wait for. */
function NoReference() {
  return (
    <Shell>
      <Card className="w-full" data-testid="payment-success-no-reference">
        <CardHeader className="items-center text-center">
          <span className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
            <ReceiptText className="size-6" aria-hidden="true" />
          </span>
          <CardTitle>
            <h1 className="text-xl">No payment to confirm</h1>
          </CardTitle>
          <CardDescription className="text-base">
            This page confirms a payment when Paystack sends you back to it after checkout, with the payment's
            reference in the address. This link has no reference. Your subscription page shows your plan and
            every payment you have made.
          </CardDescription>
        </CardHeader>
        <CardFooter className="flex-col gap-2 sm:flex-row sm:justify-center">
          <Button asChild variant="outline">
            <Link to="/help">Contact support</Link>
          </Button>
          <Button asChild>
            <Link to="/subscription" data-testid="payment-success-subscription">
              Go to your subscription
            </Link>
          </Button>
        </CardFooter>
      </Card>
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <div
      className="mx-auto flex w-full max-w-xl flex-1 items-center px-4 py-12"
      data-testid="payment-success-page"
    >
      {children}
    </div>
  );
}

function Confirmation({ user, reference }: { user: User; reference: string | null }) {
  const active = user.subscriptionPlan !== 'free' && hasValidSubscription(user);
  const [deadline] = useState(() => Date.now() + POLL_FOR_MS);
  const [gaveUp, setGaveUp] = useState(false);
  const { formatNgnKobo } = useCurrency();
  const history = usePaymentHistory();

  // While the plan is not active yet (Paystack still settling), the user is re-read every few seconds.
  useQuery<User | null>({
    queryKey: USER_QUERY_KEY,
    staleTime: USER_STALE_TIME,
    refetchInterval: active || gaveUp ? false : POLL_MS,
  });
  useEffect(() => {
    if (active) return;
    const timer = window.setTimeout(() => setGaveUp(true), Math.max(0, deadline - Date.now()));
    return () => window.clearTimeout(timer);
  }, [active, deadline]);

  const payment = reference ? history.data?.payments.find((p) => p.reference === reference) : undefined;

  // The history follows the plan: once it is active, the payment's final state is read again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refetch when activation lands.
  useEffect(() => {
    if (active) void history.refetch();
  }, [active]);

  const unknownReference = Boolean(reference && history.data && !payment);
  const failed = payment && (payment.status === 'failed' || payment.status === 'abandoned');
  if (unknownReference || failed) {
    return (
      <Shell>
        <Card className="w-full" data-testid="payment-success-problem">
          <CardHeader className="items-center text-center">
            <span className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
              <AlertTriangle className="size-6" aria-hidden="true" />
            </span>
            <CardTitle>
              <h1 className="text-xl">
                {failed ? 'This payment did not go through' : 'We could not find this payment'}
              </h1>
            </CardTitle>
            <CardDescription className="text-base">
              {failed
                ? (payment?.failureReason ??
                  'Nothing was charged. You can try again with the same or another card.')
                : 'There is no payment with this reference on your account. If you were charged, contact support with the reference below.'}
            </CardDescription>
          </CardHeader>
          {reference && (
            <CardContent>
              <p className="rounded-lg bg-muted px-4 py-3 text-center text-sm text-muted-foreground">
                Payment reference: <span className="font-mono text-foreground">{reference}</span>
              </p>
            </CardContent>
          )}
          <CardFooter className="flex-col gap-2 sm:flex-row sm:justify-center">
            <Button asChild variant="outline">
              <Link to="/help">Contact support</Link>
            </Button>
            <Button asChild>
              <Link to={payment ? paymentHref(payment.planId, payment.interval) : '/pricing'}>Try again</Link>
            </Button>
          </CardFooter>
        </Card>
      </Shell>
    );
  }

  if (!active) {
    return (
      <Shell>
        <Card className="w-full" data-testid="payment-success-pending">
          <CardHeader className="items-center text-center">
            <span className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
              <Clock className="size-6" aria-hidden="true" />
            </span>
            <CardTitle>
              <h1 className="text-xl">
                {gaveUp ? 'Your payment is still being confirmed' : 'Confirming your payment…'}
              </h1>
            </CardTitle>
            <CardDescription className="text-base" aria-live="polite">
              {gaveUp
                ? 'Paystack has not confirmed it yet. Your plan will switch on by itself as soon as it does; there is no need to pay again.'
                : 'This usually takes a few seconds. You can stay on this page.'}
            </CardDescription>
          </CardHeader>
          {reference && (
            <CardContent>
              <p className="rounded-lg bg-muted px-4 py-3 text-center text-sm text-muted-foreground">
                Payment reference: <span className="font-mono text-foreground">{reference}</span>
              </p>
            </CardContent>
          )}
          <CardFooter className="flex-col gap-2 sm:flex-row sm:justify-center">
            <Button asChild variant="outline">
              <Link to="/help">Contact support</Link>
            </Button>
            <Button asChild>
              <Link to="/dashboard">Go to dashboard</Link>
            </Button>
          </CardFooter>
        </Card>
      </Shell>
    );
  }

  return (
    <Shell>
      <Card className="w-full" data-testid="payment-success-confirmed">
        <CardHeader className="items-center text-center">
          <span className="mx-auto mb-2 flex size-14 items-center justify-center rounded-full bg-success/15 text-success">
            <CheckCircle2 className="size-7" aria-hidden="true" />
          </span>
          <CardTitle>
            <h1 className="text-2xl">Payment received</h1>
          </CardTitle>
          <CardDescription className="text-base">
            Your{' '}
            <span className="font-medium text-foreground" data-testid="payment-success-plan">
              {PLAN_NAMES[user.subscriptionPlan]}
            </span>{' '}
            plan is active. Thank you for choosing Tambari.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="divide-y rounded-lg border text-sm">
            {reference && (
              <Row label="Reference">
                <span className="font-mono">{reference}</span>
              </Row>
            )}
            {payment && <Row label="Amount">{formatNgnKobo(payment.amount)}</Row>}
            {user.subscriptionInterval && (
              <Row label="Billing">{intervalLabel(user.subscriptionInterval)}</Row>
            )}
            {user.subscriptionCurrentPeriodEnd && (
              <Row label="Renews on">{formatDate(user.subscriptionCurrentPeriodEnd)}</Row>
            )}
          </dl>
        </CardContent>
        <CardFooter className="flex-col gap-2 sm:flex-row sm:justify-center">
          <Button asChild variant="outline">
            <Link to="/subscription">
              <ReceiptText aria-hidden="true" />
              View receipt
            </Link>
          </Button>
          <Button asChild data-testid="payment-success-dashboard">
            <Link to="/dashboard">Go to dashboard</Link>
          </Button>
        </CardFooter>
      </Card>
    </Shell>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3 px-3 py-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}
