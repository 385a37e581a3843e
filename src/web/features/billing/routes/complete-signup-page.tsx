import { CreditCard, Loader2 } from 'lucide-react';
import { Link, Navigate, useNavigate } from 'react-router';

import { PageLoader } from '@/components/page-loader';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { useAuth } from '@/hooks/use-auth';
import { usePageMeta } from '@/hooks/use-page-meta';
import { toast } from '@/hooks/use-toast';
import {
  clearSelectedPlan,
  intervalLabel,
  paymentHref,
  planDisplayName,
  planLimitRows,
  priceForInterval,
  readSelectedPlan,
} from '@/lib/billing';
import { getErrorMessage } from '@/lib/errors';

import { usePricingPlans } from '../api/get-pricing-plans';
import { useSelectPlan } from '../api/select-plan';
import { PlanPrice } from '../components/plan-price';
import { findPendingChoice } from '../lib/pending-choice';

/**
 * /complete-signup: a signed-in user who chose a paid plan and has not paid sees what is waiting
 * and a Complete Payment button; everyone else goes to the dashboard.
 */
export default function CompleteSignupPage() {
  usePageMeta({
    title: 'Complete your sign-up | Tambari',
    description: 'Finish paying for your Tambari plan.',
    robots: 'noindex, nofollow',
  });
  const { user, isLoading } = useAuth();
  const navigate = useNavigate();
  const plansQuery = usePricingPlans();
  const selectPlan = useSelectPlan();

  if (isLoading) return <PageLoader />;
  if (!user) return <Navigate to="/auth?mode=login" replace />;
  const pending = findPendingChoice(user, readSelectedPlan());
  if (!pending) return <Navigate to="/dashboard" replace />;

  const plan = plansQuery.data?.find((candidate) => candidate.id === pending.plan);
  const name = plan?.name ?? planDisplayName(pending.plan);

  function continueFree() {
    clearSelectedPlan();
    if (!pending?.recorded) {
      navigate('/dashboard');
      return;
    }
    selectPlan.mutate(
      { planId: 'free', interval: 'monthly' },
      {
        onSuccess: () => {
          toast({ title: 'You are on the Free plan', description: 'Upgrade any time from your dashboard.' });
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
      },
    );
  }

  return (
    <div className="mx-auto w-full max-w-xl py-6 sm:py-10" data-testid="complete-signup-page">
      <Card>
        <CardHeader className="gap-2">
          <p className="text-sm font-semibold text-primary">One last step</p>
          <CardTitle>
            <h1 className="text-2xl">Complete your sign-up</h1>
          </CardTitle>
          <CardDescription>
            Welcome{user.firstName ? `, ${user.firstName}` : ''}! You chose the {name} plan. Pay for it now to
            unlock everything it includes.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          <div className="flex flex-wrap items-start justify-between gap-3 rounded-lg bg-secondary/60 p-4">
            <div>
              <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Your plan</p>
              <p className="text-xl font-semibold" data-testid="complete-signup-plan">
                {name}
              </p>
              <Badge variant="secondary" className="mt-1">
                {intervalLabel(pending.interval)} billing
              </Badge>
            </div>
            {plan && (
              <PlanPrice
                kobo={priceForInterval(plan, pending.interval)}
                interval={pending.interval}
                size="md"
              />
            )}
          </div>
          {plan && (
            <dl className="divide-y rounded-lg border text-sm">
              {planLimitRows(plan).map((row) => (
                <div key={row.key} className="flex items-center justify-between gap-3 px-3 py-2">
                  <dt className="text-muted-foreground">{row.label}</dt>
                  <dd className="font-medium">{row.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </CardContent>
        <CardFooter className="flex-col items-stretch gap-2">
          <Button asChild size="lg" data-testid="complete-signup-pay">
            <Link to={paymentHref(pending.plan, pending.interval)}>
              <CreditCard aria-hidden="true" />
              Complete Payment
            </Link>
          </Button>
          <Button
            variant="ghost"
            onClick={continueFree}
            disabled={selectPlan.isPending}
            data-testid="complete-signup-free"
          >
            {selectPlan.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
            Continue on the Free plan instead
          </Button>
          <Button asChild variant="link" size="sm">
            <Link to="/pricing">Compare plans</Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
