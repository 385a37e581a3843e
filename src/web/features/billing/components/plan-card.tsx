import type { PricingPlan } from '@shared/payments';
import type { BillingInterval } from '@shared/plans';
import { Check, Loader2, Sparkles } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrency } from '@/hooks/use-currency';
import { annualSaving, planFeatureLines, priceForInterval } from '@/lib/billing';
import { cn } from '@/lib/utils';

import { PlanPrice } from './plan-price';

export function PlanCard({
  plan,
  interval,
  highlighted = false,
  current = false,
  ctaLabel,
  ctaDisabled = false,
  busy = false,
  onChoose,
}: {
  plan: PricingPlan;
  interval: BillingInterval;
  highlighted?: boolean;
  current?: boolean;
  ctaLabel: string;
  ctaDisabled?: boolean;
  busy?: boolean;
  onChoose: () => void;
}) {
  const { formatKobo } = useCurrency();
  const price = priceForInterval(plan, interval);
  const saving = annualSaving(plan);
  const free = plan.id === 'free';

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
        <div className="sm:min-h-24">
          {free ? (
            <>
              <p className="flex items-baseline gap-1">
                <span className="text-4xl font-bold tracking-tight" data-testid={`plan-price-${plan.id}`}>
                  Free
                </span>
                <span className="text-sm text-muted-foreground">forever</span>
              </p>
              <p className="mt-1 text-sm text-muted-foreground">No card needed</p>
            </>
          ) : interval === 'annual' && saving > 0 ? (
            <>
              <PlanPrice kobo={price} interval={interval} testId={`plan-price-${plan.id}`} />
              <p className="mt-1 text-sm font-medium text-success" data-testid={`plan-saving-${plan.id}`}>
                You save {formatKobo(saving)} a year
              </p>
            </>
          ) : (
            <>
              <PlanPrice kobo={price} interval={interval} testId={`plan-price-${plan.id}`} />
              {saving > 0 && (
                <p className="mt-1 text-sm text-muted-foreground">
                  or {formatKobo(plan.priceAnnual)}/year, save {formatKobo(saving)}
                </p>
              )}
            </>
          )}
        </div>
        <ul className="space-y-2.5 text-sm" aria-label={`${plan.name} plan limits`}>
          {planFeatureLines(plan).map((line) => (
            <li key={line} className="flex gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
              <span>{line}</span>
            </li>
          ))}
        </ul>
      </CardContent>
      <CardFooter>
        <Button
          className="w-full"
          size="lg"
          variant={highlighted ? 'default' : 'outline'}
          onClick={onChoose}
          disabled={ctaDisabled || busy}
          data-testid={`choose-plan-${plan.id}`}
          aria-label={`${ctaLabel}: ${plan.name}`}
        >
          {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
          {ctaLabel}
        </Button>
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
