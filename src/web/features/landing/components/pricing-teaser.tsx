import type { PricingPlan } from '@shared/payments';
import { PRICING_PLANS_API_PATH } from '@shared/public-site';
import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrency } from '@/hooks/use-currency';
import { formatLimit, perIntervalSuffix } from '@/lib/billing';

/**
 * The landing page's plans from GET /api/pricing-plans. A compact teaser of the live plan prices
 * (in the display currency; always charged in NGN) that leads to /pricing for the full comparison.
 *
 * The build prerenders the landing page with the default plans, which the app's cache starts from while
 * they are the live plans (src/web/main.tsx; the server sends that page only then): the teaser is then
 * copy and a link, and the page waits for the visitor's intent before loading the app. Prerendered
 * without plans (an admin has changed them), the teaser needs the app at once to fetch them. Prices are
 * in the display currency the app shows a new visitor (the default) until the visitor's is known, as the
 * plans on /pricing are.
 */
export function PricingTeaser() {
  const {
    data: plans,
    isPending,
    isError,
  } = useQuery<PricingPlan[]>({
    queryKey: [PRICING_PLANS_API_PATH],
  });
  const { currency, formatKobo } = useCurrency();
  const loading = isPending;

  return (
    <section
      className="content-auto mx-auto max-w-6xl px-4 pb-20 sm:px-6"
      aria-labelledby="pricing-teaser-heading"
      data-testid="landing-pricing"
      data-needs-app={plans ? undefined : ''}
    >
      <div className="text-center">
        <h2 id="pricing-teaser-heading" className="text-3xl font-bold tracking-tight">
          Simple pricing in Naira
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-muted-foreground">
          No credit card needed for the free plan. Pay by Visa, Mastercard or Verve, and cancel at any time.
        </p>
      </div>
      {!isError && (
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-busy={loading}>
          {loading
            ? [0, 1, 2, 3].map((slot) => (
                <li key={slot} className="rounded-xl border bg-card p-6">
                  <Skeleton className="h-5 w-24" />
                  <Skeleton className="mt-4 h-8 w-32" />
                  <Skeleton className="mt-3 h-4 w-40" />
                </li>
              ))
            : (plans ?? []).map((plan) => (
                <li
                  key={plan.id}
                  className="rounded-xl border bg-card p-6"
                  data-testid={`landing-plan-${plan.id}`}
                >
                  <h3 className="font-semibold">{plan.name}</h3>
                  <p className="mt-3 flex items-baseline gap-1">
                    <span
                      className="text-2xl font-bold tabular-nums"
                      data-testid={`landing-plan-price-${plan.id}`}
                      data-currency={currency}
                    >
                      {formatKobo(plan.priceMonthly)}
                    </span>
                    <span className="text-sm text-muted-foreground">{perIntervalSuffix('monthly')}</span>
                  </p>
                  <p className="mt-2 text-sm text-muted-foreground">
                    {formatLimit(plan.recipientLimit, { one: 'recipient', other: 'recipients' })}
                  </p>
                </li>
              ))}
        </ul>
      )}
      <div className="mt-8 text-center">
        <Button asChild variant="outline" data-testid="landing-pricing-link">
          <Link to="/pricing">
            Compare plans
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
