import type { User } from '@shared/auth';
import type { UserPlan } from '@shared/payments';
import { useQuery } from '@tanstack/react-query';
import { ArrowUpRight, CalendarClock, CreditCard } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  formatDate,
  periodEndLabel,
  planLimitRows,
  planName,
  type StatusTone,
  subscriptionStatusDisplay,
} from '../lib/plan-display';

const TONE_VARIANT: Record<StatusTone, 'success' | 'warning' | 'destructive' | 'secondary'> = {
  success: 'success',
  warning: 'warning',
  danger: 'destructive',
  neutral: 'secondary',
};

const INTERVAL_LABEL = { monthly: 'Monthly', annual: 'Annual' } as const;

export function PlanStatusCard({ user }: { user: User }) {
  const free = user.subscriptionPlan === 'free';
  const status = subscriptionStatusDisplay(
    user.subscriptionPlan,
    user.subscriptionStatus,
    user.subscriptionCurrentPeriodEnd,
  );
  const periodEnd = !free ? user.subscriptionCurrentPeriodEnd : null;
  // A paid plan's limits come from the plan endpoint; the free plan shows its fixed defaults.
  const planQuery = useQuery<UserPlan>({ queryKey: ['/api/user/plan'], enabled: !free, staleTime: 0 });
  const limits = planLimitRows(user.subscriptionPlan, free ? undefined : planQuery.data);
  const limitsLoading = !free && planQuery.isPending;

  return (
    <Card data-testid="plan-status-card">
      <CardHeader>
        <CardTitle>
          <h2>Plan Status</h2>
        </CardTitle>
        <CardDescription>Your subscription and what it includes.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <div className="flex items-center justify-between gap-3 rounded-lg bg-secondary/60 p-4">
          <div>
            <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Current plan</p>
            <p className="text-xl font-semibold" data-testid="plan-name">
              {planName(user.subscriptionPlan)}
            </p>
          </div>
          <Badge variant={TONE_VARIANT[status.tone]} data-testid="plan-status">
            {status.label}
          </Badge>
        </div>

        <dl className="space-y-3 text-sm">
          {!free && user.subscriptionInterval && (
            <div className="flex items-center justify-between gap-3">
              <dt className="flex items-center gap-2 text-muted-foreground">
                <CreditCard className="size-4" aria-hidden="true" />
                Billing
              </dt>
              <dd className="font-medium">{INTERVAL_LABEL[user.subscriptionInterval]}</dd>
            </div>
          )}
          {periodEnd && (
            <div className="flex items-center justify-between gap-3">
              <dt className="flex items-center gap-2 text-muted-foreground">
                <CalendarClock className="size-4" aria-hidden="true" />
                {periodEndLabel(user.subscriptionStatus, periodEnd)}
              </dt>
              <dd className="font-medium" data-testid="plan-renewal-date">
                <time dateTime={periodEnd}>{formatDate(periodEnd)}</time>
              </dd>
            </div>
          )}
        </dl>

        <div className="space-y-2">
          <h3 className="text-sm font-medium">{free ? 'Free plan limits' : 'Included'}</h3>
          <dl className="divide-y rounded-lg border text-sm" data-testid="plan-limits">
            {limitsLoading
              ? [0, 1, 2].map((row) => (
                  <div key={row} className="flex items-center justify-between gap-3 px-3 py-2.5">
                    <Skeleton className="h-4 w-24" />
                    <Skeleton className="h-4 w-16" />
                  </div>
                ))
              : limits.map((row) => (
                  <div key={row.label} className="flex items-center justify-between gap-3 px-3 py-2">
                    <dt className="text-muted-foreground">{row.label}</dt>
                    <dd className="font-medium">{row.value}</dd>
                  </div>
                ))}
          </dl>
          {free && (
            <p className="text-xs text-muted-foreground">
              No card needed. Upgrade any time; cancel any time.
            </p>
          )}
        </div>
      </CardContent>
      <CardFooter className="flex-col items-stretch gap-2">
        {free ? (
          <>
            <Button asChild>
              <Link to="/upgrade">
                Upgrade to Premium
                <ArrowUpRight aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/pricing">Compare plans</Link>
            </Button>
          </>
        ) : (
          <Button asChild variant="outline">
            <Link to="/subscription">Manage subscription</Link>
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
