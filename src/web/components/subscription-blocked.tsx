import type { User } from '@shared/auth';
import { PLAN_NAMES } from '@shared/plans';
import { CreditCard, LifeBuoy, Lock } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { type BlockingIssue, getPaymentHref, SUBSCRIPTION_BLOCKED_COPY } from '@/lib/subscription-copy';

/**
 * The subscription-blocked screen: shown in place of a page to a subscriber without a valid subscription.
 * Each problem kind (expired, cancelled, past_due, incomplete, free plan) has its own title and button;
 * every variant offers Change Plan, to /pricing.
 */
export function SubscriptionBlocked({
  issue,
  user,
}: {
  issue: BlockingIssue;
  user: Pick<User, 'subscriptionPlan' | 'subscriptionInterval'>;
}) {
  const copy = SUBSCRIPTION_BLOCKED_COPY[issue];
  const primaryHref =
    issue === 'free_plan' ? '/pricing' : getPaymentHref(user.subscriptionPlan, user.subscriptionInterval);

  return (
    <div
      className="mx-auto flex w-full max-w-xl flex-1 items-center py-10"
      data-testid="subscription-blocked"
      data-issue={issue}
    >
      <Card className="w-full">
        <CardHeader className="items-center text-center">
          <div className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
            <Lock className="size-6" aria-hidden="true" />
          </div>
          <CardTitle className="text-xl">
            <h1>{copy.title}</h1>
          </CardTitle>
          <CardDescription className="text-base">{copy.body}</CardDescription>
        </CardHeader>
        {issue !== 'free_plan' && user.subscriptionPlan !== 'free' && (
          <CardContent>
            <p className="rounded-lg bg-muted px-4 py-3 text-center text-sm text-muted-foreground">
              Your plan:{' '}
              <span className="font-medium text-foreground">{PLAN_NAMES[user.subscriptionPlan]}</span>
              {user.subscriptionInterval
                ? `, billed ${user.subscriptionInterval === 'annual' ? 'annually' : 'monthly'}`
                : ''}
              . Your contacts, campaigns and templates are kept safe while you sort this out.
            </p>
          </CardContent>
        )}
        <CardFooter className="flex flex-col gap-3">
          <div className="flex w-full flex-col gap-2 sm:flex-row">
            <Button asChild className="flex-1" data-testid="subscription-blocked-action">
              <Link to={primaryHref}>
                <CreditCard aria-hidden="true" />
                {copy.action}
              </Link>
            </Button>
            <Button
              asChild
              variant="outline"
              className="flex-1"
              data-testid="subscription-blocked-change-plan"
            >
              <Link to="/pricing">Change Plan</Link>
            </Button>
          </div>
          <Button asChild variant="link" size="sm">
            <Link to="/help">
              <LifeBuoy aria-hidden="true" />
              Need help with billing?
            </Link>
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
