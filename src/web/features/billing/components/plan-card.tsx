import type { PricingPlan } from '@shared/payments';
import type { BillingInterval } from '@shared/plans';
import { Check, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrency } from '@/hooks/use-currency';
import { annualSaving, planFeatureLines, priceForInterval } from '@/lib/billing';
import { useHydrationSettled } from '@/lib/prerender-state';
import { cn } from '@/lib/utils';

import { PlanPrice } from './plan-price';

/**
 * One plan: its name, price, limits and its call to action. `intervals` lists the billing intervals it
 * shows prices and an action for: with both, each is marked with the interval it belongs to and the
 * Monthly/Annual radio inputs above show the matching one through CSS (styles.css, data-interval-switch),
 * so the switch works on a prerendered page before the app has loaded. `interval` is the app's choice:
 * the test ids go on its parts only.
 */
export function PlanCard({
  plan,
  interval,
  intervals = [interval],
  highlighted = false,
  current = false,
  action,
}: {
  plan: PricingPlan;
  interval: BillingInterval;
  intervals?: readonly BillingInterval[];
  highlighted?: boolean;
  current?: boolean;
  /** The call to action for an interval (a link, or a button doing something on this page). */
  action: (interval: BillingInterval, testId: string | undefined) => ReactNode;
}) {
  const { formatKobo } = useCurrency();
  const saving = annualSaving(plan);
  const free = plan.id === 'free';
  // Once the app runs it also hides the other interval's parts itself, for browsers without CSS :has().
  const live = useHydrationSettled();
  const forInterval = (shown: BillingInterval) =>
    intervals.length > 1 ? { 'data-for-interval': shown, hidden: live && shown !== interval } : undefined;
  const testId = (shown: BillingInterval, id: string) => (shown === interval ? id : undefined);

  return (
    <Card
      className={cn(
        'relative h-full gap-5',
        highlighted && 'border-primary shadow-lg ring-1 ring-primary/40',
        current && !highlighted && 'border-gold',
      )}
      data-testid={`plan-card-${plan.id}`}
      aria-labelledby={`plan-name-${plan.id}`}
    >
      {highlighted && (
        <span className="absolute -top-3 left-1/2 inline-flex -translate-x-1/2 items-center gap-1 rounded-full bg-primary px-3 py-1 text-xs font-semibold whitespace-nowrap text-primary-foreground shadow-sm">
          <Sparkles className="size-3" aria-hidden="true" />
          Most popular
        </span>
      )}
      <CardHeader className="gap-2">
        <div className="flex items-center justify-between gap-2">
          <CardTitle>
            <h2 id={`plan-name-${plan.id}`} className="text-lg font-semibold">
              {plan.name}
            </h2>
          </CardTitle>
          {current && (
            <Badge variant="warning" data-testid={`plan-current-${plan.id}`}>
              Your plan
            </Badge>
          )}
        </div>
        <CardDescription className="sm:min-h-15">{plan.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-5">
        {free ? (
          <div className="sm:min-h-24">
            <p className="flex items-baseline gap-1">
              <span className="text-4xl font-bold tracking-tight" data-testid={`plan-price-${plan.id}`}>
                Free
              </span>
              <span className="text-sm text-muted-foreground">forever</span>
            </p>
            <p className="mt-1 text-sm text-muted-foreground">No card needed</p>
          </div>
        ) : (
          intervals.map((shown) => (
            <div key={shown} className="sm:min-h-24" {...forInterval(shown)}>
              <PlanPrice
                kobo={priceForInterval(plan, shown)}
                interval={shown}
                testId={testId(shown, `plan-price-${plan.id}`)}
              />
              {shown === 'annual' && saving > 0 ? (
                <p
                  className="mt-1 text-sm font-medium text-success"
                  data-testid={testId(shown, `plan-saving-${plan.id}`)}
                >
                  You save {formatKobo(saving)} a year
                </p>
              ) : (
                saving > 0 && (
                  <p className="mt-1 text-sm text-muted-foreground">
                    or {formatKobo(plan.priceAnnual)}/year, save {formatKobo(saving)}
                  </p>
                )
              )}
            </div>
          ))
        )}
        <ul className="space-y-2.5 text-sm" aria-label={`${plan.name} plan limits`}>
          {planFeatureLines(plan).map((line) => (
            <li key={line} className="flex gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
              <span>{line}</span>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter className="flex-col">
        {intervals.map((shown) => (
          <div key={shown} className="w-full" {...forInterval(shown)}>
            {action(shown, testId(shown, `choose-plan-${plan.id}`))}
          </div>
        ))}
      </CardFooter>
    </Card>
  );
}

export function PlanCardSkeleton() {
  return (
    <Card className="gap-5">
      <CardHeader className="gap-2">
        <Skeleton className="h-5 w-24" />
        <Skeleton className="h-4 w-full" />
      </CardHeader>
      <CardContent className="space-y-4">
        <Skeleton className="h-10 w-32" />
        {[0, 1, 2, 3, 4].map((row) => (
          <Skeleton key={row} className="h-4 w-4/5" />
        ))}
      </CardContent>
      <CardFooter>
        <Skeleton className="h-10 w-full" />
      </CardFooter>
    </Card>
  );
}
