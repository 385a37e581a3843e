import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '@shared/analytics';
import { BarChart3, Plus } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/utils';
import { useAnalytics } from '../api/get-analytics';
import { CampaignTable } from '../components/campaign-table';
import { DailyChart } from '../components/daily-chart';
import { TotalsCards } from '../components/totals-cards';
import { readPeriod } from '../lib/analytics-display';

function AnalyticsSkeleton() {
  return (
    <div className="space-y-4" role="status" aria-label="Loading your analytics">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
        {[0, 1, 2, 3, 4, 5].map((i) => (
          <Skeleton key={i} className="h-24" />
        ))}
      </div>
      <Skeleton className="h-64" />
    </div>
  );
}

function NothingSentYet() {
  return (
    <Card data-testid="analytics-empty">
      <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-secondary text-muted-foreground">
          <BarChart3 className="size-6" aria-hidden="true" />
        </span>
        <div className="space-y-1">
          <h2 className="font-medium">No emails sent yet</h2>
          <p className="max-w-md text-sm text-muted-foreground">
            Once your first campaign or newsletter goes out, its opens, clicks, replies, deals won and ROI
            show here.
          </p>
        </div>
        <Button asChild>
          <Link to="/campaigns">
            <Plus aria-hidden="true" />
            Create a campaign
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** /analytics: sent, opened, clicked, replied, conversions, revenue and ROI over a period. */
export default function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const days = readPeriod(params.get('days'));
  const analytics = useAnalytics(days);
  const data = analytics.data;

  const choose = (value: string) => {
    const next = new URLSearchParams(params);
    next.set('days', value);
    setParams(next, { replace: true });
  };

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="analytics-page">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Analytics</h1>
          <p className="text-sm text-muted-foreground">
            Opens count people only: Apple Mail privacy opens and link scanners are left out.
          </p>
        </div>
        <Tabs value={String(days)} onValueChange={choose}>
          <TabsList aria-label="Period" data-testid="analytics-period">
            {ANALYTICS_PERIODS.map((period: AnalyticsPeriod) => (
              <TabsTrigger key={period} value={String(period)} data-testid={`analytics-period-${period}`}>
                Last {period} days
              </TabsTrigger>
            ))}
          </TabsList>
        </Tabs>
      </div>

      {analytics.isError ? (
        <QueryError
          title="Your analytics could not be loaded"
          error={analytics.error}
          onRetry={() => analytics.refetch()}
          testId="analytics-error"
        />
      ) : !data ? (
        <AnalyticsSkeleton />
      ) : !data.hasSentAny ? (
        <NothingSentYet />
      ) : (
        <div
          className={cn('space-y-6', analytics.isPlaceholderData && 'opacity-60 transition-opacity')}
          aria-busy={analytics.isPlaceholderData}
        >
          <TotalsCards data={data} />
          <DailyChart days={data.daily} />
          <CampaignTable rows={data.campaigns} />
        </div>
      )}
    </div>
  );
}
