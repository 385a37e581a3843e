import { SYSTEM_RANGES, type SystemAnalytics, type SystemRange } from '@shared/admin-analytics';
import { cappedCountText } from '@shared/admin-monitors';
import {
  AlertTriangle,
  ArrowRight,
  Inbox,
  ListChecks,
  MousePointerClick,
  Send,
  Timer,
  Upload,
  Users,
} from 'lucide-react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber, formatRelative } from '@/lib/format';
import { ANALYTICS_REFRESH_MS, useSystemAnalytics } from '../api/admin-analytics';
import { MonitorFreshness } from '../components/monitor-freshness';
import { RangeTabs, useRangeParam } from '../components/range-tabs';
import { StatCard, StatCardSkeleton } from '../components/stat-card';
import { TimeSeriesChart } from '../components/time-series-chart';
import { formatBucket, formatRate, formatWait } from '../lib/analytics-format';

const RANGE_OPTIONS = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' },
] as const satisfies readonly { value: SystemRange; label: string }[];

const RANGE_WORDS: Record<SystemRange, string> = {
  '24h': 'the last 24 hours',
  '7d': 'the last 7 days',
  '30d': 'the last 30 days',
};

function Figures({ data }: { data: SystemAnalytics }) {
  const { totals, activity } = data;
  const humanOpens = totals.opened - totals.openedMachine;
  const humanClicks = totals.clicked - totals.clickedMachine;
  return (
    <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4" data-testid="system-figures">
      <StatCard
        label="Sent"
        value={formatNumber(totals.sent)}
        hint={`${formatNumber(totals.failed)} failed · ${formatNumber(totals.bounced)} bounced`}
        icon={Send}
        testId="figure-sent"
      />
      <StatCard
        label="Error rate"
        value={formatRate(totals.errorRate)}
        hint={`Deferred and retried: ${formatRate(totals.deferralRate)} (${formatNumber(totals.deferred)})`}
        icon={AlertTriangle}
        tone={totals.errorRate !== null && totals.errorRate > 0.05 ? 'danger' : 'default'}
        testId="figure-error-rate"
      />
      <StatCard
        label="Queue latency (p50 / p95)"
        value={`${formatWait(totals.latencyP50)} / ${formatWait(totals.latencyP95)}`}
        hint="From queued to accepted by the mail server"
        icon={Timer}
        testId="figure-latency"
      />
      <StatCard
        label="Opens / clicks by people"
        value={`${formatNumber(humanOpens)} / ${formatNumber(humanClicks)}`}
        hint={`Plus ${formatNumber(totals.openedMachine)} opens and ${formatNumber(totals.clickedMachine)} clicks by machines`}
        icon={MousePointerClick}
        testId="figure-tracking"
      />
      <StatCard
        label="Active users"
        value={formatNumber(activity.activeUsers)}
        hint={`${formatNumber(activity.activeSessions)} open sessions · ${formatNumber(activity.onlineSessions)} in the last 15 min`}
        icon={Users}
        testId="figure-users"
      />
      <StatCard
        label="Imports"
        value={formatNumber(totals.importRuns)}
        hint={`${formatNumber(totals.importRows)} rows read`}
        icon={Upload}
        testId="figure-imports"
      />
      <StatCard
        label="Due in the outbox now"
        value={cappedCountText(data.queue.outboxDue, formatNumber)}
        hint={
          data.queue.oldestDueAt
            ? `Oldest due ${formatRelative(data.queue.oldestDueAt)}`
            : 'Nothing is waiting to be sent'
        }
        icon={Inbox}
        testId="figure-outbox-due"
      />
      <StatCard
        label="Background jobs waiting"
        value={formatNumber(data.queue.jobsWaiting)}
        hint={
          <Link to="/admin/email-queue-status" className="underline">
            Open the Email Queue
          </Link>
        }
        icon={ListChecks}
        testId="figure-jobs-waiting"
      />
    </div>
  );
}

function Charts({ data }: { data: SystemAnalytics }) {
  const formatX = (at: string) => formatBucket(at, data.bucketSeconds);
  const step = data.bucketSeconds === 3600 ? 'hour' : data.bucketSeconds === 86400 ? 'day' : 'six hours';
  const points = data.series.map((b) => ({
    ...b,
    openedHuman: b.opened - b.openedMachine,
    clickedHuman: b.clicked - b.clickedMachine,
  }));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <TimeSeriesChart
        title="Sends"
        description={`Messages accepted by the mail servers, per ${step} (UTC).`}
        data={points}
        xKey="at"
        series={[{ key: 'sent', label: 'Sent', color: 'var(--chart-1)' }]}
        kind="bar"
        formatX={formatX}
        testId="chart-sends"
      />
      <TimeSeriesChart
        title="Errors"
        description={`Failed for good, bounced, and deferred to be tried again, per ${step}.`}
        data={points}
        xKey="at"
        series={[
          { key: 'failed', label: 'Failed', color: 'var(--chart-4)' },
          { key: 'bounced', label: 'Bounced', color: 'var(--chart-5)' },
          { key: 'deferred', label: 'Deferred', color: 'var(--chart-2)' },
        ]}
        kind="bar"
        stacked
        formatX={formatX}
        testId="chart-errors"
      />
      <TimeSeriesChart
        title="Queue latency"
        description="Wait from queued to accepted by the mail server: the median (p50) and the slowest 5 % (p95)."
        data={points}
        xKey="at"
        series={[
          { key: 'latencyP50', label: 'p50', color: 'var(--chart-1)' },
          { key: 'latencyP95', label: 'p95', color: 'var(--chart-2)' },
        ]}
        kind="line"
        formatX={formatX}
        formatValue={formatWait}
        testId="chart-latency"
      />
      <TimeSeriesChart
        title="Tracking hits"
        description="Opens and clicks by people, and opens by privacy proxies and scanners."
        data={points}
        xKey="at"
        series={[
          { key: 'openedHuman', label: 'Opens', color: 'var(--chart-1)' },
          { key: 'clickedHuman', label: 'Clicks', color: 'var(--chart-3)' },
          { key: 'openedMachine', label: 'Machine opens', color: 'var(--chart-2)' },
        ]}
        kind="area"
        formatX={formatX}
        testId="chart-tracking"
      />
      <TimeSeriesChart
        title="Imports"
        description={`Contact imports started per ${step}, and the rows they read.`}
        data={points}
        xKey="at"
        series={[
          { key: 'importRows', label: 'Rows', color: 'var(--chart-3)' },
          { key: 'importRuns', label: 'Runs', color: 'var(--chart-2)' },
        ]}
        kind="bar"
        formatX={formatX}
        testId="chart-imports"
      />
    </div>
  );
}

/** The sending machine at a glance: throughput, errors, latency, tracking, activity (issue #15, screen 4). */
export default function SystemAnalyticsPage() {
  const [range, setRange] = useRangeParam(SYSTEM_RANGES, '24h');
  const analytics = useSystemAnalytics(range);
  const data = analytics.data;
  const quiet =
    data && data.totals.sent + data.totals.failed + data.totals.deferred + data.totals.opened === 0;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="system-analytics-page">
      <header className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">System Analytics</h1>
          <p className="text-muted-foreground">
            Sending, errors, queue latency, tracking and activity over {RANGE_WORDS[range]}, from the live
            outbox and event log.{' '}
            <Link to="/admin/cost-optimization" className="inline-flex items-center gap-1 underline">
              Cost Optimization
              <ArrowRight className="size-3" aria-hidden="true" />
            </Link>
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
          title="System Analytics could not be loaded"
          error={analytics.error}
          onRetry={() => analytics.refetch()}
          testId="system-analytics-error"
        />
      )}

      {data ? (
        <>
          {quiet && (
            <div
              className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-8 text-center"
              data-testid="system-analytics-empty"
            >
              <Send className="size-8 text-muted-foreground" aria-hidden="true" />
              <p className="font-medium">No mail went out in {RANGE_WORDS[range]}</p>
              <p className="text-sm text-muted-foreground">
                The charts fill in as campaigns and newsletters send.
              </p>
            </div>
          )}
          <Figures data={data} />
          <Charts data={data} />
          <p className="text-xs text-muted-foreground" data-testid="rollup-freshness">
            Counts come from an hourly roll-up of the event log{' '}
            {data.rolledUpAt ? `(last folded in ${formatRelative(data.rolledUpAt)})` : '(not run yet)'} plus
            every event written since, counted live. Times are UTC.
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
