import { BUSINESS_RANGES, type BusinessAnalytics, type BusinessRange } from '@shared/admin-analytics';
import {
  Banknote,
  CreditCard,
  MessageSquareReply,
  Rocket,
  Send,
  TrendingDown,
  UserPlus,
  Wallet,
} from 'lucide-react';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNaira } from '@/lib/billing';
import { formatNumber, formatRelative } from '@/lib/format';
import { ANALYTICS_REFRESH_MS, useBusinessAnalytics } from '../api/admin-analytics';
import { MonitorFreshness } from '../components/monitor-freshness';
import { RangeTabs, useRangeParam } from '../components/range-tabs';
import { StatCard, StatCardSkeleton } from '../components/stat-card';
import { TimeSeriesChart } from '../components/time-series-chart';
import { formatDayLabel, formatRate } from '../lib/analytics-format';

const RANGE_OPTIONS = [
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
  { value: '90d', label: '90 days' },
  { value: '365d', label: '12 months' },
] as const satisfies readonly { value: BusinessRange; label: string }[];

function ratio(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

function Figures({ data }: { data: BusinessAnalytics }) {
  const { totals } = data;
  return (
    <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4" data-testid="business-figures">
      <StatCard
        label="Sign-ups"
        value={formatNumber(totals.signups)}
        hint={`${formatNumber(totals.totalUsers)} accounts in all`}
        icon={UserPlus}
        testId="figure-signups"
      />
      <StatCard
        label="Activated"
        value={formatNumber(totals.activations)}
        hint={`First message sent. ${formatRate(ratio(totals.signupsActivated, totals.signups))} of this range's sign-ups`}
        icon={Rocket}
        testId="figure-activations"
      />
      <StatCard
        label="Paid conversions"
        value={formatNumber(totals.conversions)}
        hint={`First payment; ${formatNaira(totals.revenue)} paid in the range`}
        icon={CreditCard}
        testId="figure-conversions"
      />
      <StatCard
        label="MRR"
        value={formatNaira(totals.mrr)}
        hint={`${formatNumber(totals.payingSubscribers)} paying subscriptions now`}
        icon={Wallet}
        testId="figure-mrr"
      />
      <StatCard
        label="Churned"
        value={formatNumber(totals.churned)}
        hint="Subscriptions cancelled or expired in the range"
        icon={TrendingDown}
        tone={totals.churned > 0 ? 'danger' : 'default'}
        testId="figure-churn"
      />
      <StatCard
        label="Messages sent"
        value={formatNumber(totals.sent)}
        hint="By every user's campaigns and newsletters"
        icon={Send}
        testId="figure-business-sent"
      />
      <StatCard
        label="Replies"
        value={formatNumber(totals.replied)}
        hint={`Reply rate ${formatRate(ratio(totals.replied, totals.sent))}`}
        icon={MessageSquareReply}
        testId="figure-replies"
      />
      <StatCard
        label="Revenue"
        value={formatNaira(totals.revenue)}
        hint="Successful payments in the range (refunds left out)"
        icon={Banknote}
        testId="figure-revenue"
      />
    </div>
  );
}

function PlansTable({ data }: { data: BusinessAnalytics }) {
  return (
    <Card className="min-w-0 gap-3" data-testid="plans-table">
      <CardHeader>
        <CardTitle>
          <h2 className="text-base">MRR and churn by plan</h2>
        </CardTitle>
        <CardDescription>
          Active subscriptions now at today's prices (annual plans at a twelfth), and subscriptions that ended
          in the range, by the plan last paid for.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Plan</TableHead>
                <TableHead className="text-right">Subscribers</TableHead>
                <TableHead className="text-right">MRR</TableHead>
                <TableHead className="text-right">Churned</TableHead>
                <TableHead className="text-right">Churn rate</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.plans.map((plan) => (
                <TableRow key={plan.planId} data-testid="plan-row">
                  <TableCell className="font-medium">{plan.planName}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(plan.subscribers)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNaira(plan.mrr)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(plan.churned)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatRate(plan.churnRate)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </CardContent>
    </Card>
  );
}

function TopUsers({ data }: { data: BusinessAnalytics }) {
  return (
    <Card className="min-w-0 gap-3" data-testid="top-users">
      <CardHeader>
        <CardTitle>
          <h2 className="text-base">Top users by volume</h2>
        </CardTitle>
        <CardDescription>The ten accounts that sent the most messages in the range.</CardDescription>
      </CardHeader>
      <CardContent>
        {data.topUsers.length === 0 ? (
          <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
            No one sent mail in this range.
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>User</TableHead>
                  <TableHead>Plan</TableHead>
                  <TableHead className="text-right">Sent</TableHead>
                  <TableHead className="text-right">Replies</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.topUsers.map((user) => (
                  <TableRow key={user.userId} data-testid="top-user-row">
                    <TableCell className="max-w-64">
                      <div className="truncate font-medium" title={user.email}>
                        {user.email}
                      </div>
                      <div className="truncate text-xs text-muted-foreground">{user.name}</div>
                    </TableCell>
                    <TableCell>
                      <Badge variant="outline" className="capitalize">
                        {user.plan}
                      </Badge>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{formatNumber(user.sent)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatNumber(user.replied)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** The platform's business figures over a chosen range (issue #15, screen 5). */
export default function AdminAnalyticsPage() {
  const [range, setRange] = useRangeParam(BUSINESS_RANGES, '30d');
  const analytics = useBusinessAnalytics(range);
  const data = analytics.data;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="admin-analytics-page">
      <header className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Analytics</h1>
          <p className="text-muted-foreground">
            Sign-ups, activation, payments, recurring revenue and sending across the platform, in Naira.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <RangeTabs value={range} options={RANGE_OPTIONS} onChange={setRange} label="Range" />
          <MonitorFreshness
            updatedAt={analytics.dataUpdatedAt}
            fetching={analytics.isFetching}
            onRefresh={() => analytics.refetch()}
            intervalSeconds={ANALYTICS_REFRESH_MS / 1000}
          />
        </div>
      </header>

      {analytics.isError && (
        <QueryError
          title="Analytics could not be loaded"
          error={analytics.error}
          onRetry={() => analytics.refetch()}
          testId="admin-analytics-error"
        />
      )}

      {data ? (
        <>
          <Figures data={data} />
          <div className="grid gap-4 lg:grid-cols-2">
            <TimeSeriesChart
              title="Growth"
              description="Sign-ups, first messages sent (activation) and first payments, per day (UTC)."
              data={data.days}
              xKey="day"
              series={[
                { key: 'signups', label: 'Sign-ups', color: 'var(--chart-1)' },
                { key: 'activations', label: 'Activated', color: 'var(--chart-3)' },
                { key: 'conversions', label: 'Paid', color: 'var(--chart-2)' },
              ]}
              kind="bar"
              formatX={formatDayLabel}
              testId="chart-growth"
            />
            <TimeSeriesChart
              title="Messages and replies"
              description="Messages sent and replies received across all users, per day."
              data={data.days}
              xKey="day"
              series={[
                { key: 'sent', label: 'Sent', color: 'var(--chart-1)' },
                { key: 'replied', label: 'Replies', color: 'var(--chart-2)' },
              ]}
              kind="area"
              formatX={formatDayLabel}
              testId="chart-volume"
            />
            <TimeSeriesChart
              title="Revenue"
              description="Successful payments per day, in Naira."
              data={data.days.map((day) => ({ day: day.day, naira: day.revenue / 100 }))}
              xKey="day"
              series={[{ key: 'naira', label: 'Revenue', color: 'var(--chart-2)' }]}
              kind="bar"
              formatX={formatDayLabel}
              formatValue={(naira) => formatNaira(naira * 100)}
              testId="chart-revenue"
            />
            <PlansTable data={data} />
          </div>
          <TopUsers data={data} />
          <p className="text-xs text-muted-foreground">
            Messages and replies come from a roll-up of the event log{' '}
            {data.rolledUpAt ? `(last folded in ${formatRelative(data.rolledUpAt)})` : '(not run yet)'} plus
            the events since, counted live. Days are UTC.
          </p>
        </>
      ) : (
        !analytics.isError && (
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            {Array.from({ length: 8 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
              <StatCardSkeleton key={index} />
            ))}
            <Skeleton className="h-64 sm:col-span-2 xl:col-span-4" />
          </div>
        )
      )}
    </div>
  );
}
