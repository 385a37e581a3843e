import type { ChangePlanResponse, InitializePaymentResponse, PricingPlan } from '@shared/payments';
import { type BillingInterval, isBillingInterval, isPlanId, type PlanId } from '@shared/plans';
import { hasValidSubscription } from '@shared/subscription';
import { ArrowDownRight, ArrowUpRight, Check, Loader2, Lock, Minus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

import { CurrencySelector } from '@/components/currency-selector';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Separator } from '@/components/ui/separator';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { useCurrency } from '@/hooks/use-currency';
import { toast } from '@/hooks/use-toast';
import {
  formatNaira,
  hasSenderRotation,
  intervalLabel,
  paymentHref,
  planDisplayName,
  planLimitRows,
  priceForInterval,
} from '@/lib/billing';
import { getErrorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';

import { usePricingPlans } from '../api/get-pricing-plans';
import { useSubscription } from '../api/get-subscription';
import { useChangePlan } from '../api/payments';
import { useSelectPlan } from '../api/select-plan';
import { IntervalToggle } from '../components/interval-toggle';
import { PlansError } from '../components/plans-error';
import { classifyPlanChange, isImmediateChange, type PlanChangeKind } from '../lib/plan-actions';
import { usePaystackCheckout } from '../lib/use-paystack-checkout';

interface Target {
  plan: PricingPlan;
  interval: BillingInterval;
  kind: PlanChangeKind;
}

const ACTION_LABEL: Record<PlanChangeKind, string> = {
  current: 'Current plan',
  new: 'Choose plan',
  upgrade: 'Upgrade now',
  downgrade: 'Downgrade',
  'to-annual': 'Switch to annual',
  'to-monthly': 'Switch to monthly',
};

/**
 * /upgrade: the plans side by side with the current one marked. Moving up is paid today with a
 * credit for the unused time (the server computes it); moving down waits for the end of the paid period.
 */
export default function UpgradePage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const plansQuery = usePricingPlans();
  const subscriptionQuery = useSubscription();
  const [interval, setBillingInterval] = useState<BillingInterval>(() => {
    const fromUrl = searchParams.get('interval');
    if (isBillingInterval(fromUrl)) return fromUrl;
    return user?.subscriptionInterval ?? 'monthly';
  });
  const [target, setTarget] = useState<Target | null>(null);
  const preselected = useRef(false);
  // The popup opens after the dialog has closed: a modal dialog would keep the popup from being clicked.
  const checkout = usePaystackCheckout({
    redirectTo: '/subscription',
    successTitle: () => 'Plan upgraded',
    successDescription: (response) => `You are now on ${response.subscription.planName}.`,
  });

  const paidAndValid = Boolean(user && user.subscriptionPlan !== 'free' && hasValidSubscription(user));
  const plans = plansQuery.data;

  function kindFor(plan: PlanId, forInterval: BillingInterval): PlanChangeKind {
    return classifyPlanChange({
      currentPlan: user?.subscriptionPlan ?? 'free',
      currentInterval: user?.subscriptionInterval ?? null,
      paidAndValid,
      target: plan,
      interval: forInterval,
    });
  }

  function choose(plan: PricingPlan, forInterval: BillingInterval) {
    const kind = kindFor(plan.id, forInterval);
    if (kind === 'current') return;
    if (kind === 'new') {
      navigate(paymentHref(plan.id as Exclude<PlanId, 'free'>, forInterval));
      return;
    }
    setTarget({ plan, interval: forInterval, kind });
  }

  // /upgrade?plan=…&interval=… (from the pricing page) opens that change straight away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the plans arrive.
  useEffect(() => {
    if (preselected.current || !plans || !user) return;
    const wanted = searchParams.get('plan');
    if (!isPlanId(wanted)) return;
    preselected.current = true;
    const plan = plans.find((p) => p.id === wanted);
    if (plan) choose(plan, wanted === 'free' ? 'monthly' : interval);
    const next = new URLSearchParams(searchParams);
    next.delete('plan');
    setSearchParams(next, { replace: true });
  }, [plans, user]);

  if (!user) return null;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6" data-testid="upgrade-page">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Change plan</h1>
          <p className="text-muted-foreground">
            {paidAndValid
              ? 'Upgrades start today with credit for the time you have left; downgrades start when your current period ends.'
              : 'Compare the plans and pick the one that fits your outreach.'}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <IntervalToggle value={interval} onChange={setBillingInterval} />
          <CurrencySelector testId="upgrade-currency-selector" />
        </div>
      </header>

      {subscriptionQuery.data?.pendingPlanId && subscriptionQuery.data.currentPeriodEnd && (
        <p className="rounded-lg border bg-muted/50 px-4 py-3 text-sm" data-testid="upgrade-pending-change">
          A change to <strong>{planDisplayName(subscriptionQuery.data.pendingPlanId)}</strong> is scheduled
          for {formatDate(subscriptionQuery.data.currentPeriodEnd)}. Choosing another plan replaces it.
        </p>
      )}

      {plansQuery.isError ? (
        <PlansError error={plansQuery.error} onRetry={() => plansQuery.refetch()} />
      ) : !plans ? (
        <Skeleton className="h-[28rem] w-full rounded-xl" />
      ) : (
        <ComparisonTable
          plans={plans}
          interval={interval}
          currentPlan={user.subscriptionPlan}
          kindFor={(plan) => kindFor(plan, plan === 'free' ? 'monthly' : interval)}
          scheduledPlan={
            subscriptionQuery.data?.pendingPlanId &&
            (subscriptionQuery.data.pendingPlanId === 'free' ||
              subscriptionQuery.data.pendingInterval === interval)
              ? subscriptionQuery.data.pendingPlanId
              : null
          }
          onChoose={(plan) => choose(plan, plan.id === 'free' ? 'monthly' : interval)}
        />
      )}

      <ChangePlanDialog
        target={target}
        periodEnd={user.subscriptionCurrentPeriodEnd}
        currentPlanName={planDisplayName(user.subscriptionPlan)}
        paidAndValid={paidAndValid}
        onClose={() => setTarget(null)}
        onPay={(payment) => {
          setTarget(null);
          void checkout.open(payment);
        }}
      />
      {checkout.busy && (
        <p className="sr-only" role="status">
          {checkout.phase === 'verifying' ? 'Activating your new plan…' : 'Waiting for your payment…'}
        </p>
      )}
    </div>
  );
}

function ComparisonTable({
  plans,
  interval,
  currentPlan,
  kindFor,
  scheduledPlan,
  onChoose,
}: {
  plans: PricingPlan[];
  interval: BillingInterval;
  currentPlan: PlanId;
  kindFor: (plan: PlanId) => PlanChangeKind;
  /** The plan a downgrade already waits for, at this interval. */
  scheduledPlan: PlanId | null;
  onChoose: (plan: PricingPlan) => void;
}) {
  const { formatKobo, currency, formatNgnKobo } = useCurrency();
  const rowLabels = planLimitRows(plans[0]!).map((row) => ({ key: row.key, label: row.label }));
  const cell = (_plan: PricingPlan, highlighted: boolean) =>
    cn('px-4 py-3 text-center align-middle', highlighted && 'bg-primary/5');

  return (
    <Card className="gap-0 overflow-hidden py-0">
      <div className="overflow-x-auto">
        <table className="w-full min-w-[44rem] border-collapse text-sm" data-testid="plan-comparison">
          <caption className="sr-only">Plans compared, your current plan marked</caption>
          <thead>
            <tr className="border-b">
              <th
                scope="col"
                className="sticky left-0 z-10 w-32 bg-card px-4 py-4 text-left align-bottom font-medium text-muted-foreground sm:w-48"
              >
                Plan
              </th>
              {plans.map((plan) => {
                const current = plan.id === currentPlan;
                return (
                  <th
                    key={plan.id}
                    scope="col"
                    className={cn(cell(plan, current), 'py-4 align-bottom')}
                    data-testid={`compare-plan-${plan.id}`}
                    data-current={current || undefined}
                  >
                    <div className="flex flex-col items-center gap-1">
                      {current && (
                        <Badge variant="default" className="mb-1">
                          Current plan
                        </Badge>
                      )}
                      <span className="text-base font-semibold">{plan.name}</span>
                      <span
                        className="text-lg font-bold tabular-nums"
                        data-testid={`compare-price-${plan.id}`}
                      >
                        {formatKobo(priceForInterval(plan, plan.id === 'free' ? 'monthly' : interval))}
                      </span>
                      <span className="text-xs font-normal text-muted-foreground">
                        {plan.id === 'free' ? 'forever' : interval === 'annual' ? 'per year' : 'per month'}
                      </span>
                      {currency !== 'NGN' && plan.priceMonthly > 0 && (
                        <span className="text-xs font-normal text-muted-foreground">
                          Charged in NGN: {formatNgnKobo(priceForInterval(plan, interval))}
                        </span>
                      )}
                    </div>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rowLabels.map((row) => (
              <tr key={row.key} className="border-b">
                <th
                  scope="row"
                  className="sticky left-0 z-10 bg-card px-4 py-3 text-left font-normal text-muted-foreground"
                >
                  {row.label}
                </th>
                {plans.map((plan) => (
                  <td key={plan.id} className={cell(plan, plan.id === currentPlan)}>
                    {planLimitRows(plan).find((r) => r.key === row.key)?.value ?? '—'}
                  </td>
                ))}
              </tr>
            ))}
            <tr className="border-b">
              <th
                scope="row"
                className="sticky left-0 z-10 bg-card px-4 py-3 text-left font-normal text-muted-foreground"
              >
                Smart sender rotation
              </th>
              {plans.map((plan) => (
                <td key={plan.id} className={cell(plan, plan.id === currentPlan)}>
                  {hasSenderRotation(plan) ? (
                    <Check className="mx-auto size-4 text-success" aria-label="Included" />
                  ) : (
                    <Minus className="mx-auto size-4 text-muted-foreground" aria-label="Not included" />
                  )}
                </td>
              ))}
            </tr>
            <tr>
              <td className="sticky left-0 z-10 bg-card px-4 py-4" />
              {plans.map((plan) => {
                const kind = kindFor(plan.id);
                const scheduled = scheduledPlan === plan.id && kind !== 'current';
                return (
                  <td key={plan.id} className={cn(cell(plan, plan.id === currentPlan), 'py-4')}>
                    <Button
                      size="sm"
                      className="w-full"
                      variant={
                        kind === 'upgrade' || kind === 'new' || kind === 'to-annual' ? 'default' : 'outline'
                      }
                      disabled={kind === 'current' || scheduled}
                      onClick={() => onChoose(plan)}
                      data-testid={`change-to-${plan.id}`}
                    >
                      {(kind === 'upgrade' || kind === 'to-annual') && <ArrowUpRight aria-hidden="true" />}
                      {(kind === 'downgrade' || kind === 'to-monthly') && !scheduled && (
                        <ArrowDownRight aria-hidden="true" />
                      )}
                      {scheduled ? 'Scheduled' : ACTION_LABEL[kind]}
                    </Button>
                  </td>
                );
              })}
            </tr>
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function ChangePlanDialog({
  target,
  periodEnd,
  currentPlanName,
  paidAndValid,
  onClose,
  onPay,
}: {
  target: Target | null;
  periodEnd: string | null;
  currentPlanName: string;
  paidAndValid: boolean;
  onClose: () => void;
  onPay: (payment: InitializePaymentResponse) => void;
}) {
  const navigate = useNavigate();
  const changePlan = useChangePlan();
  const selectPlan = useSelectPlan();
  const [review, setReview] = useState<ChangePlanResponse | null>(null);

  // A new target starts a new review.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset per target.
  useEffect(() => {
    setReview(null);
    changePlan.reset();
  }, [target]);

  if (!target) return null;
  const immediate = isImmediateChange(target.kind);
  const busy = changePlan.isPending || selectPlan.isPending;

  function confirm() {
    if (!target) return;
    if (!paidAndValid && target.plan.id === 'free') {
      selectPlan.mutate(
        { planId: 'free', interval: 'monthly' },
        {
          onSuccess: () => {
            toast({
              title: 'You are on the Free plan',
              description: 'Upgrade any time from your dashboard.',
            });
            onClose();
            navigate('/dashboard');
          },
          onError: (error) =>
            toast({
              title: 'Plan not changed',
              description: getErrorMessage(error, 'Please try again in a moment.'),
              variant: 'destructive',
            }),
        },
      );
      return;
    }
    changePlan.mutate(
      { planId: target.plan.id, interval: target.interval },
      {
        onSuccess: (response) => {
          if (response.effect === 'payment_required' && response.payment) {
            setReview(response);
            return;
          }
          toast({
            title: response.effect === 'scheduled' ? 'Plan change scheduled' : 'Plan changed',
            description: response.message,
          });
          onClose();
        },
        onError: (error) =>
          toast({
            title: 'Plan not changed',
            description: getErrorMessage(error, 'Please try again in a moment.'),
            variant: 'destructive',
          }),
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent data-testid="change-plan-dialog">
        <DialogHeader>
          <DialogTitle>
            {immediate
              ? `Upgrade to ${target.plan.name}${target.kind === 'to-annual' ? ' (annual)' : ''}`
              : `Move to ${target.plan.name}${target.kind === 'to-monthly' ? ' (monthly)' : ''}`}
          </DialogTitle>
          <DialogDescription>
            {immediate
              ? `Your ${target.plan.name} plan starts today. The unused part of your current ${currentPlanName} period is credited against the price.`
              : `You keep ${currentPlanName} until ${formatDate(periodEnd)}; ${target.plan.name} starts then. Nothing is charged today.`}
          </DialogDescription>
        </DialogHeader>

        {review?.payment ? (
          <dl className="space-y-2 rounded-lg border p-4 text-sm" data-testid="change-plan-review">
            <div className="flex justify-between gap-3">
              <dt className="text-muted-foreground">
                {target.plan.name} · {intervalLabel(review.payment.interval)}
              </dt>
              <dd className="tabular-nums">{formatNaira(review.amountDue + review.credit)}</dd>
            </div>
            <div className="flex justify-between gap-3 text-success">
              <dt>Credit for unused time</dt>
              <dd className="tabular-nums" data-testid="change-plan-credit">
                −{formatNaira(review.credit)}
              </dd>
            </div>
            <Separator />
            <div className="flex justify-between gap-3 text-base font-semibold">
              <dt>Due today</dt>
              <dd className="tabular-nums" data-testid="change-plan-due">
                {formatNaira(review.amountDue)}
              </dd>
            </div>
          </dl>
        ) : (
          <dl className="space-y-2 rounded-lg border p-4 text-sm">
            <div className="flex justify-between gap-3">
              <dt className="text-muted-foreground">New price</dt>
              <dd className="tabular-nums">
                {formatNaira(priceForInterval(target.plan, target.interval))}
                {target.plan.id === 'free' ? '' : target.interval === 'annual' ? ' / year' : ' / month'}
              </dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-muted-foreground">Takes effect</dt>
              <dd>{immediate ? 'Today' : formatDate(periodEnd)}</dd>
            </div>
            {immediate && (
              <p className="pt-1 text-xs text-muted-foreground">
                The exact credit and the amount due are worked out to the second when you continue.
              </p>
            )}
          </dl>
        )}

        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Keep current plan
          </Button>
          {review?.payment ? (
            <Button
              onClick={() => review.payment && onPay(review.payment)}
              disabled={busy}
              data-testid="change-plan-pay"
            >
              <Lock aria-hidden="true" />
              Pay {formatNaira(review.payment.amount)}
            </Button>
          ) : (
            <Button onClick={confirm} disabled={busy} data-testid="change-plan-confirm">
              {(changePlan.isPending || selectPlan.isPending) && (
                <Loader2 className="animate-spin" aria-hidden="true" />
              )}
              {immediate ? 'Continue' : 'Confirm change'}
            </Button>
          )}
        </DialogFooter>
        {!immediate && (
          <p className="text-xs text-muted-foreground">
            Changed your mind later? You can switch back from this page before {formatDate(periodEnd)}.
          </p>
        )}
      </DialogContent>
    </Dialog>
  );
}
