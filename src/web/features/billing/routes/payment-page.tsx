import type { InitializePaymentResponse, PricingPlan } from '@shared/payments';
import type { BillingInterval } from '@shared/plans';
import { hasValidSubscription } from '@shared/subscription';
import { AlertTriangle, ArrowLeft, FlaskConical, Hand, Loader2, Lock } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';

import { getDisplayName } from '@/app/layouts/account-menu';
import { CurrencySelector } from '@/components/currency-selector';
import { PageLoader } from '@/components/page-loader';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Separator } from '@/components/ui/separator';
import { useAuth } from '@/hooks/use-auth';
import { useCurrency } from '@/hooks/use-currency';
import { usePageMeta } from '@/hooks/use-page-meta';
import { toast } from '@/hooks/use-toast';
import {
  annualSaving,
  intervalLabel,
  planLimitRows,
  planRank,
  priceForInterval,
  readPaymentParams,
  saveSelectedPlan,
} from '@/lib/billing';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';

import { usePaymentsConfig } from '../api/get-payments-config';
import { usePricingPlans } from '../api/get-pricing-plans';
import { useInitializePayment } from '../api/payments';
import { GuaranteeCards } from '../components/guarantee-cards';
import { IncludedFeatures } from '../components/included-features';
import { IntervalToggle } from '../components/interval-toggle';
import { PlanPrice } from '../components/plan-price';
import { PlansError } from '../components/plans-error';
import { PAYMENT_TOASTS } from '../lib/messages';
import { upgradeHref } from '../lib/plan-actions';
import { type CheckoutPhase, usePaystackCheckout } from '../lib/use-paystack-checkout';

const PAY_LABEL: Record<Exclude<CheckoutPhase, 'idle' | 'failed'>, string> = {
  loading: 'Opening secure checkout…',
  open: 'Waiting for your payment…',
  verifying: 'Activating your plan…',
  done: 'Payment confirmed',
};

function authHref(plan: string, interval: BillingInterval): string {
  return `/auth?${new URLSearchParams({ mode: 'login', plan, interval }).toString()}`;
}

/**
 * /payment: the plan and interval come from the URL (monthly by default). A missing plan goes
 * back to /pricing, Free to /dashboard, a signed-out visitor to /auth with the plan kept. Pay asks the
 * server to initialize a Paystack transaction, opens the popup on it and activates on success.
 */
export default function PaymentPage() {
  usePageMeta({
    title: 'Complete your payment | Tambari',
    description: 'Pay for your Tambari plan in Naira.',
    robots: 'noindex, nofollow',
  });
  const { user, isLoading: userLoading } = useAuth();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const params = readPaymentParams(searchParams);
  const handled = useRef(false);

  const invalid = !params.plan;
  const signedOut = !userLoading && !user;

  // The redirects that come with a toast run once, however often the page renders.
  useEffect(() => {
    if (handled.current) return;
    if (invalid) {
      handled.current = true;
      toast({ ...PAYMENT_TOASTS.invalidLink, variant: 'destructive' });
      navigate('/pricing', { replace: true });
    } else if (params.plan !== 'free' && signedOut) {
      handled.current = true;
      toast(PAYMENT_TOASTS.signIn);
      navigate(authHref(params.plan ?? '', params.interval), { replace: true });
    }
  }, [invalid, signedOut, params.plan, params.interval, navigate]);

  // The plan being paid for is remembered in browser storage (the complete-signup screen reads it).
  useEffect(() => {
    if (params.plan && params.plan !== 'free') saveSelectedPlan(params.plan, params.interval);
  }, [params.plan, params.interval]);

  if (params.plan === 'free') return <Navigate to="/dashboard" replace />;
  if (!params.plan || userLoading || !user) return <PageLoader />;

  return (
    <PaymentScreen
      planId={params.plan}
      interval={params.interval}
      returning={params.returning}
      onIntervalChange={(interval) => {
        const next = new URLSearchParams(searchParams);
        next.set('interval', interval);
        setSearchParams(next, { replace: true });
      }}
    />
  );
}

function PaymentScreen({
  planId,
  interval,
  returning,
  onIntervalChange,
}: {
  planId: NonNullable<ReturnType<typeof readPaymentParams>['plan']>;
  interval: BillingInterval;
  returning: boolean;
  onIntervalChange: (interval: BillingInterval) => void;
}) {
  const { user } = useAuth();
  const plansQuery = usePricingPlans();
  const configQuery = usePaymentsConfig();
  const initialize = useInitializePayment();
  const [initialized, setInitialized] = useState<InitializePaymentResponse | null>(null);
  const plan = plansQuery.data?.find((candidate) => candidate.id === planId);

  const checkout = usePaystackCheckout({
    redirectTo: '/dashboard',
    successTitle: () => 'Payment Successful',
    successDescription: (response) => `Your ${response.subscription.planName} plan is now active.`,
  });

  // A new plan or interval is a new order.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the order being paid changes.
  useEffect(() => {
    setInitialized(null);
  }, [planId, interval]);

  if (!user) return null;

  if (plansQuery.isError) {
    return (
      <div className="mx-auto w-full max-w-3xl py-6">
        <PlansError error={plansQuery.error} onRetry={() => plansQuery.refetch()} />
      </div>
    );
  }
  if (!plansQuery.data) return <PageLoader />;
  if (!plan) return <UnavailablePlan />;

  const paidAndValid = user.subscriptionPlan !== 'free' && hasValidSubscription(user);
  const isDowngrade =
    paidAndValid &&
    (planRank(planId) < planRank(user.subscriptionPlan) ||
      (planId === user.subscriptionPlan && interval === 'monthly' && user.subscriptionInterval === 'annual'));
  const isUpgrade = paidAndValid && planRank(planId) > planRank(user.subscriptionPlan);
  const isRenewal =
    paidAndValid && planId === user.subscriptionPlan && interval === user.subscriptionInterval;

  const price = priceForInterval(plan, interval);
  const busy = initialize.isPending || checkout.busy;

  function pay() {
    if (!plan) return;
    initialize.mutate(
      { planId, interval },
      {
        onSuccess: (payment) => {
          setInitialized(payment);
          void checkout.open(payment);
        },
        onError: (error) =>
          toast({
            title: PAYMENT_TOASTS.paymentError.title,
            description: getErrorMessage(error, PAYMENT_TOASTS.paymentError.fallback),
            variant: 'destructive',
          }),
      },
    );
  }

  const payLabel = initialize.isPending
    ? 'Preparing your order…'
    : checkout.phase !== 'idle' && checkout.phase !== 'failed'
      ? PAY_LABEL[checkout.phase]
      : null;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-8 py-2 sm:py-6" data-testid="payment-page">
      {returning && (
        <Alert variant="success" data-testid="payment-returning-note">
          <Hand aria-hidden="true" />
          <AlertTitle>Welcome back — finish your payment</AlertTitle>
          <AlertDescription>
            Your {plan.name} plan is waiting. Complete the payment below and everything unlocks straight away.
          </AlertDescription>
        </Alert>
      )}

      <header className="space-y-2">
        <Link
          to="/pricing"
          className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          All plans
        </Link>
        <h1 className="text-3xl font-bold tracking-tight">Complete your payment</h1>
        <p className="text-muted-foreground">
          {isUpgrade
            ? `Upgrade to ${plan.name} today. The unused part of your current period is credited.`
            : `You're one step away from the ${plan.name} plan.`}
        </p>
      </header>

      <div className="grid items-start gap-6 lg:grid-cols-5">
        <Card className="lg:col-span-3" data-testid="payment-summary">
          <CardHeader className="gap-3">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <CardTitle>
                <h2 className="text-2xl font-semibold" data-testid="payment-plan-name">
                  {plan.name}
                </h2>
              </CardTitle>
              <Badge variant="secondary" data-testid="payment-interval">
                {intervalLabel(interval)} billing
              </Badge>
            </div>
            <CardDescription>{plan.description}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
              <PlanPrice kobo={price} interval={interval} testId="payment-amount" />
              <div className="flex flex-col items-start gap-2 sm:items-end">
                <IntervalToggle
                  value={interval}
                  onChange={onIntervalChange}
                  className={busy ? 'pointer-events-none opacity-60' : undefined}
                />
                <CurrencySelector testId="payment-currency-selector" showName />
              </div>
            </div>

            <SavingLine plan={plan} interval={interval} onSwitchToAnnual={() => onIntervalChange('annual')} />

            {isRenewal && user.subscriptionCurrentPeriodEnd && (
              <Alert data-testid="payment-renewal-note">
                <AlertTitle>You are already on {plan.name}</AlertTitle>
                <AlertDescription>
                  Paying now renews early: the new period starts when the current one ends on{' '}
                  {formatDate(user.subscriptionCurrentPeriodEnd)}.
                </AlertDescription>
              </Alert>
            )}
            {isDowngrade && (
              <Alert variant="warning" data-testid="payment-downgrade-note">
                <AlertTriangle aria-hidden="true" />
                <AlertTitle>This plan is smaller than yours</AlertTitle>
                <AlertDescription>
                  <p>
                    Moving down takes effect at the end of the period you have paid for, with nothing to pay
                    now.
                  </p>
                  <Button asChild size="sm" variant="outline" className="mt-1">
                    <Link to={upgradeHref(planId, interval)}>Schedule the change</Link>
                  </Button>
                </AlertDescription>
              </Alert>
            )}

            <section aria-labelledby="payment-limits-heading" className="space-y-2">
              <h3 id="payment-limits-heading" className="text-sm font-medium">
                What you get
              </h3>
              <dl className="divide-y rounded-lg border text-sm" data-testid="payment-limits">
                {planLimitRows(plan).map((row) => (
                  <div key={row.key} className="flex items-center justify-between gap-3 px-3 py-2">
                    <dt className="text-muted-foreground">{row.label}</dt>
                    <dd className="text-right font-medium">{row.value}</dd>
                  </div>
                ))}
              </dl>
            </section>

            <section aria-labelledby="payment-account-heading" className="space-y-2">
              <h3 id="payment-account-heading" className="text-sm font-medium">
                Account
              </h3>
              <dl className="grid gap-1 rounded-lg bg-muted/60 px-3 py-2.5 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
                <dt className="text-muted-foreground">Name</dt>
                <dd className="font-medium" data-testid="payment-account-name">
                  {getDisplayName(user)}
                </dd>
                <dt className="text-muted-foreground">Email</dt>
                <dd className="font-medium break-all" data-testid="payment-account-email">
                  {user.email}
                </dd>
              </dl>
            </section>

            <OrderTotal price={price} initialized={initialized} />
          </CardContent>
          <CardFooter className="flex-col items-stretch gap-3">
            {configQuery.data?.testMode && (
              <p
                className="flex items-center gap-2 rounded-md bg-accent px-3 py-2 text-xs text-accent-foreground"
                data-testid="payment-test-mode"
              >
                <FlaskConical className="size-4 shrink-0" aria-hidden="true" />
                Test mode: the checkout is simulated and no real card is charged.
              </p>
            )}
            {checkout.phase === 'failed' && checkout.failedReference && (
              <Alert variant="destructive" data-testid="payment-activation-failed">
                <AlertTriangle aria-hidden="true" />
                <AlertTitle>Your payment went through, but the plan is not active yet</AlertTitle>
                <AlertDescription>
                  <p>
                    Quote the reference{' '}
                    <span className="font-mono font-medium">{checkout.failedReference}</span> when you{' '}
                    <Link to="/help" className="underline underline-offset-4">
                      contact support
                    </Link>
                    . Please do not pay again.
                  </p>
                </AlertDescription>
              </Alert>
            )}
            <Button
              size="lg"
              className="h-12 w-full text-base"
              onClick={pay}
              disabled={busy || isDowngrade || checkout.phase === 'failed'}
              data-testid="pay-button"
            >
              {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Lock aria-hidden="true" />}
              {payLabel ?? <PayButtonText price={price} initialized={initialized} />}
            </Button>
            <p className="text-center text-xs text-muted-foreground">
              Secure payment by Paystack · Visa, Mastercard and Verve accepted · charged in Naira
            </p>
            <Button asChild variant="link" className="self-center" data-testid="choose-different-plan">
              <Link to="/pricing">Choose a different plan</Link>
            </Button>
          </CardFooter>
        </Card>

        <aside
          className="space-y-6 lg:col-span-2"
          aria-label="What every plan includes and our billing promises"
        >
          <Card className="gap-4">
            <CardHeader>
              <CardTitle>
                <h2 className="text-base">Included in all plans</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <IncludedFeatures columns={1} />
            </CardContent>
          </Card>
          <GuaranteeCards layout="stack" />
        </aside>
      </div>
    </div>
  );
}

function SavingLine({
  plan,
  interval,
  onSwitchToAnnual,
}: {
  plan: PricingPlan;
  interval: BillingInterval;
  onSwitchToAnnual: () => void;
}) {
  const { formatKobo } = useCurrency();
  const saving = annualSaving(plan);
  if (saving <= 0) return null;
  if (interval === 'annual') {
    return (
      <p
        className="rounded-lg bg-success/10 px-3 py-2 text-sm font-medium text-success"
        data-testid="payment-saving"
      >
        You save {formatKobo(saving)} a year compared with paying monthly.
      </p>
    );
  }
  return (
    <p className="text-sm text-muted-foreground">
      Pay annually and save {formatKobo(saving)} a year.{' '}
      <button
        type="button"
        onClick={onSwitchToAnnual}
        className="font-medium text-primary underline-offset-4 hover:underline"
      >
        Switch to annual
      </button>
    </p>
  );
}

function OrderTotal({
  price,
  initialized,
}: {
  price: number;
  initialized: InitializePaymentResponse | null;
}) {
  const { formatNgnKobo } = useCurrency();
  const credit = initialized?.credit ?? 0;
  const due = initialized?.amount ?? price;
  return (
    <div className="space-y-2 rounded-lg border p-4 text-sm" data-testid="payment-total">
      <div className="flex justify-between gap-3">
        <span className="text-muted-foreground">Plan price</span>
        <span className="tabular-nums">{formatNgnKobo(price)}</span>
      </div>
      {credit > 0 && (
        <div className="flex justify-between gap-3 text-success" data-testid="payment-credit">
          <span>Credit for unused time</span>
          <span className="tabular-nums">−{formatNgnKobo(credit)}</span>
        </div>
      )}
      <Separator />
      <div className="flex justify-between gap-3 text-base font-semibold">
        <span>Due today</span>
        <span className="tabular-nums" data-testid="payment-due">
          {formatNgnKobo(due)}
        </span>
      </div>
    </div>
  );
}

function PayButtonText({
  price,
  initialized,
}: {
  price: number;
  initialized: InitializePaymentResponse | null;
}) {
  const { formatNgnKobo } = useCurrency();
  return <>Pay {formatNgnKobo(initialized?.amount ?? price)}</>;
}

function UnavailablePlan() {
  return (
    <div className="mx-auto w-full max-w-xl py-10" data-testid="payment-plan-unavailable">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-xl">This plan is not available</h1>
          </CardTitle>
          <CardDescription>
            The plan in this link is not on sale at the moment. Please pick one of the current plans.
          </CardDescription>
        </CardHeader>
        <CardFooter>
          <Button asChild>
            <Link to="/pricing">See plans</Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
