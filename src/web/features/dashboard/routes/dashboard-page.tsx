import { SubscriptionBanner } from '@/components/subscription-banner';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { GettingStartedCard } from '../components/getting-started-card';
import { PlanStatusCard } from '../components/plan-status-card';
import { QuickActions } from '../components/quick-actions';
import { RecentCampaignsCard, RecentNewslettersCard } from '../components/recent-lists';
import { StatCards } from '../components/stat-cards';
import { WelcomeHeader } from '../components/welcome-header';

function DashboardSkeleton() {
  return (
    <div className="space-y-6" role="status" aria-label="Loading your dashboard">
      <div className="space-y-2">
        <Skeleton className="h-4 w-28" />
        <Skeleton className="h-8 w-72" />
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Skeleton className="h-72 lg:col-span-2" />
        <Skeleton className="h-72" />
      </div>
    </div>
  );
}

/** The dashboard: welcome, three stat cards, quick actions, plan status and the recent lists. */
export default function DashboardPage() {
  const { user } = useAuth();
  if (!user) return <DashboardSkeleton />;

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="dashboard-page">
      <SubscriptionBanner user={user} />
      <WelcomeHeader user={user} />
      <StatCards />
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <QuickActions freePlan={user.subscriptionPlan === 'free'} />
          <GettingStartedCard />
        </div>
        <PlanStatusCard user={user} />
      </div>
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <RecentCampaignsCard />
        <RecentNewslettersCard />
      </div>
    </div>
  );
}
