import type { User } from '@shared/auth';
import { getSubscriptionIssue } from '@shared/subscription';
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/hooks/use-auth';
import { getPaymentHref, SUBSCRIPTION_BANNER_TEXT } from '@/lib/subscription-copy';
import { cn } from '@/lib/utils';

const BANNER_TITLE = {
  incomplete: 'Payment incomplete',
  expired: 'Subscription expired',
  cancelled: 'Subscription cancelled',
  past_due: 'Payment failed',
} as const;

/**
 * The dashboard's subscription-problem banner, with the fixed text of each problem. Renders nothing when the
 * user's subscription is fine. The button reads Complete Payment for an incomplete payment and Update
 * Payment otherwise; it leads to /payment for a paid plan and to /pricing for the free plan.
 */
export function SubscriptionBanner({
  user: userProp,
  className,
}: {
  user?: User | null;
  className?: string;
}) {
  const { user: signedInUser } = useAuth();
  const user = userProp ?? signedInUser;
  if (!user) return null;

  const issue = getSubscriptionIssue(user);
  if (!issue || issue === 'free_plan') return null;

  return (
    <Alert variant="warning" className={cn('items-center', className)} data-testid="subscription-banner">
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>{BANNER_TITLE[issue]}</AlertTitle>
      <AlertDescription className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p>{SUBSCRIPTION_BANNER_TEXT[issue]}</p>
        <Button asChild size="sm" className="shrink-0" data-testid="subscription-banner-action">
          <Link to={getPaymentHref(user.subscriptionPlan, user.subscriptionInterval)}>
            {issue === 'incomplete' ? 'Complete Payment' : 'Update Payment'}
          </Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}
