import type { PricingPlan } from '@shared/payments';
import { BILLING_INTERVALS, type BillingInterval, isBillingInterval } from '@shared/plans';
import { hasValidSubscription } from '@shared/subscription';
import { BadgeCheck, CalendarX2, CreditCard, Loader2, ShieldCheck } from 'lucide-react';
import { lazy, Suspense, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { CurrencySelector } from '@/components/currency-selector';
import { StaticHtml } from '@/components/static-html';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/hooks/use-auth';
import { useDirectoryStats } from '@/hooks/use-directory-stats';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';
import { toast } from '@/hooks/use-toast';
import { annualSavingPercent, readSelectedPlan, saveSelectedPlan } from '@/lib/billing';
import { directoryFigure } from '@/lib/directory-figures';
import { getErrorMessage } from '@/lib/errors';
import { isHydratingPrerenderedPage } from '@/lib/prerender-state';
import { cn } from '@/lib/utils';

import { usePricingPlans } from '../api/get-pricing-plans';
import { useSelectPlan } from '../api/select-plan';
import { IncludedFeatures } from '../components/included-features';
import { IntervalToggle } from '../components/interval-toggle';
import { PlanCard, PlanCardSkeleton } from '../components/plan-card';
import { type PlanAction, planActionFor } from '../lib/plan-actions';

/** Shown only when the plans fail to load: fetched then, not with every visit (the first load stays small). */
const PlansError = lazy(() => import('../components/plans-error').then((m) => ({ default: m.PlansError })));

const PAYMENT_FACTS = [
  {
    icon: CreditCard,
    title: 'Billed in Naira',
    body: 'Pay by Visa, Mastercard or Verve through Paystack. Other currencies are shown for reference only.',
  },
  {
    icon: CalendarX2,
    title: 'Cancel anytime',
    body: 'Cancel from your Subscription page; you keep your plan until the end of the period you paid for.',
  },
  {
    icon: BadgeCheck,
    title: 'Fair upgrades',
    body: 'Move up a plan and the unused part of your current period is credited against the new price.',
  },
  {
    icon: ShieldCheck,
    title: 'Free plan, no card',
    body: 'Start on Free with no card at all, and only pay when your outreach outgrows it.',
  },
];

/** The savings badge of the Annual option: "2 months free" when every plan is priced at ten months. */
function savingsLabel(plans: PricingPlan[] | undefined): string | undefined {
  const percents = (plans ?? []).filter((p) => p.priceMonthly > 0).map(annualSavingPercent);
  if (percents.length === 0) return undefined;
  const best = Math.max(...percents);
  if (best <= 0) return undefined;
  if (percents.every((p) => p === 17)) return '2 months free';
  return percents.every((p) => p === best) ? `Save ${best}%` : `Save up to ${best}%`;
}

/**
 * /pricing: the four plans from GET /api/pricing-plans, a monthly/annual switch with the annual
 * saving, each plan's limits and a "Choose plan" that leads to sign-up or to payment.
 */
export default function PricingPage() {
  const figure = directoryFigure(useDeferredValue(useDirectoryStats().data));
  usePublicPageMeta('/pricing');
  const { user } = useAuth();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const plansQuery = usePricingPlans();
  const selectPlan = useSelectPlan();
  const preferredInterval = (): BillingInterval => {
    const fromUrl = searchParams.get('interval');
    if (isBillingInterval(fromUrl)) return fromUrl;
    return readSelectedPlan()?.interval ?? 'monthly';
  };
  // A prerendered page hydrates on Monthly, as it was rendered; then the visitor's choice stands: the one
  // made on the page before the app had loaded (its radio inputs work without it), else the address's or
  // the saved one.
  const [hydrating] = useState(isHydratingPrerenderedPage);
  const [interval, setBillingInterval] = useState<BillingInterval>(() =>
    hydrating ? 'monthly' : preferredInterval(),
  );
  const intervalToggle = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    if (!hydrating) return;
    const chosen = intervalToggle.current?.querySelector<HTMLInputElement>('input:checked')?.value;
    setBillingInterval(chosen === 'annual' ? 'annual' : preferredInterval());
  }, []);
  const [pendingPlan, setPendingPlan] = useState<string | null>(null);

  const paidAndValid = Boolean(user && user.subscriptionPlan !== 'free' && hasValidSubscription(user));
  // The plans arrive after the page has hydrated; rendering their cards as a transition lets React split
  // that render into short tasks instead of one the visitor's first click would wait behind.
  const plans = useDeferredValue(plansQuery.data);

  /**
   * A plan's call to action for an interval: a link wherever it leads to another page (it works before
   * the app has loaded), else a button.
   */
  function planAction(plan: PricingPlan, shown: BillingInterval, testId: string | undefined) {
    const action = planActionFor({ plan: plan.id, interval: shown, user, paidAndValid });
    const buttonProps = {
      className: 'w-full',
      size: 'lg',
      variant: plan.id === 'professional' ? 'default' : 'outline',
      'data-testid': testId,
      'aria-label': `${action.label}: ${plan.name}`,
    } as const;
    if (action.type === 'navigate') {
      return (
        <Button asChild {...buttonProps}>
          <Link to={action.to} onClick={() => saveSelectedPlan(plan.id, shown)}>
            {action.label}
          </Link>
        </Button>
      );
    }
    const busy = pendingPlan === plan.id;
    return (
      <Button {...buttonProps} onClick={() => run(plan, action)} disabled={action.type === 'none' || busy}>
        {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
        {action.label}
      </Button>
    );
  }

  function run(plan: PricingPlan, action: PlanAction) {
    saveSelectedPlan(plan.id, interval);
    if (action.type === 'select-free') {
      setPendingPlan(plan.id);
      selectPlan.mutate(
        { planId: 'free', interval: 'monthly' },
        {
          onSuccess: () => {
            toast({
              title: 'You are on the Free plan',
              description: 'Upgrade any time from your dashboard.',
            });
            navigate('/dashboard');
          },
          onError: (error) =>
            toast({
              title: 'Plan not changed',
              description: getErrorMessage(
                error,
                'We could not switch you to the Free plan. Please try again.',
              ),
              variant: 'destructive',
            }),
          onSettled: () => setPendingPlan(null),
        },
      );
    }
  }

  return (
    <div className={cn(!user && 'bg-[radial-gradient(ellipse_at_top,var(--color-accent),transparent_55%)]')}>
      <div
        className={cn('mx-auto w-full max-w-7xl space-y-12', !user && 'px-4 py-14 sm:px-6 md:py-20')}
        data-testid="pricing-page"
        // The plans show the prices of the interval whose radio input is checked (styles.css).
        data-interval-switch=""
      >
        <header className="mx-auto max-w-3xl space-y-4 text-center">
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">Pricing</p>
          <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">
            Plans that grow with your outreach
          </h1>
          <p className="text-lg text-muted-foreground">
            Start free, then move up when you need more campaigns, recipients and sender accounts. Every paid
            plan is billed in Naira and can be cancelled anytime.
          </p>
          {figure && (
            // A live count of real verified records (rounded down); nothing is quoted when there is none.
            <p className="font-medium" data-testid="directory-figure">
              Every plan searches the directory: {figure}.
            </p>
          )}
          <div className="flex flex-col items-center justify-center gap-3 pt-2 sm:flex-row">
            <IntervalToggle
              ref={intervalToggle}
              value={interval}
              onChange={setBillingInterval}
              savingLabel={savingsLabel(plans)}
            />
            <div className="flex items-center gap-2 text-sm text-muted-foreground">
              <span id="pricing-currency-label">Show prices in</span>
              <CurrencySelector testId="pricing-currency-selector" showName align="center" />
            </div>
          </div>
        </header>

        {plansQuery.isError ? (
          <Suspense fallback={null}>
            <PlansError error={plansQuery.error} onRetry={() => plansQuery.refetch()} />
          </Suspense>
        ) : (
          <section
            aria-label="Plans"
            className="grid gap-6 pt-3 sm:grid-cols-2 xl:grid-cols-4"
            data-testid="pricing-plans"
            data-interval={interval}
            // Prerendered without plans (an admin has changed them since the build), the page loads the app
            // at once to fetch them; prerendered with them, it is a plain page (scripts/prerender-plugin.ts).
            data-needs-app={plans ? undefined : ''}
          >
            {plans
              ? plans.map((plan) => (
                  <PlanCard
                    key={plan.id}
                    plan={plan}
                    interval={interval}
                    intervals={BILLING_INTERVALS}
                    highlighted={plan.id === 'professional'}
                    current={Boolean(
                      user && user.subscriptionPlan === plan.id && (paidAndValid || plan.id === 'free'),
                    )}
                    action={(shown, testId) => planAction(plan, shown, testId)}
                  />
                ))
              : [0, 1, 2, 3].map((key) => <PlanCardSkeleton key={key} />)}
          </section>
        )}

        {/* Copy only: a prerendered page keeps its HTML instead of hydrating it. */}
        <StaticHtml className="content-auto space-y-12">
          <Card className="gap-4" aria-labelledby="included-heading">
            <CardHeader>
              <CardTitle>
                <h2 id="included-heading" className="text-lg">
                  Included in all plans
                </h2>
              </CardTitle>
              <CardDescription>Every Tambari account, Free included, comes with these.</CardDescription>
            </CardHeader>
            <CardContent>
              <IncludedFeatures columns={4} />
            </CardContent>
          </Card>

          <section aria-labelledby="billing-facts-heading" className="space-y-6">
            <h2 id="billing-facts-heading" className="text-center text-2xl font-semibold tracking-tight">
              How billing works
            </h2>
            <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {PAYMENT_FACTS.map((fact) => (
                <div key={fact.title} className="space-y-2">
                  <span className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                    <fact.icon className="size-5" aria-hidden="true" />
                  </span>
                  <h3 className="font-semibold">{fact.title}</h3>
                  <p className="text-sm text-muted-foreground">{fact.body}</p>
                </div>
              ))}
            </div>
          </section>
        </StaticHtml>
      </div>
    </div>
  );
}
