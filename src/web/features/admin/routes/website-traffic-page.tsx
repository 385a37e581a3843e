import { TRAFFIC_RANGES, type TrafficRange, type WebsiteTraffic } from '@shared/site-traffic';
import { Eye, Globe2, MousePointerClick, UserPlus, Users } from 'lucide-react';
import { useState } from 'react';
import { QueryError } from '@/components/query-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatDateTime, formatNumber } from '@/lib/format';
import { TRAFFIC_REFRESH_MS, useWebsiteTraffic } from '../api/website-traffic';
import { EmptyState } from '../components/empty-state';
import { MonitorFreshness } from '../components/monitor-freshness';
import { SortableTable } from '../components/sortable-table';
import { StatCard, StatCardSkeleton } from '../components/stat-card';

const RANGE_LABELS: Record<TrafficRange, string> = { '24h': '24 hours', '7d': '7 days', '30d': '30 days' };

const regionNames =
  typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
function countryName(code: string | null): string {
  if (!code) return 'Unknown';
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

function percent(rate: number | null): string {
  if (rate === null) return '—';
  return `${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)}%`;
}

/** Views per hour or day as bars: where people look rather than read. */
function ViewsChart({ data }: { data: WebsiteTraffic }) {
  const max = Math.max(1, ...data.series.map((b) => b.views));
  const hourly = data.range === '24h';
  const label = (at: string) =>
    hourly
      ? new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
      : new Date(at).toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
  return (
    <Card className="gap-3">
      <CardHeader>
        <CardTitle>
          <h2>Views {hourly ? 'per hour' : 'per day'}</h2>
        </CardTitle>
        <CardDescription>
          {formatNumber(data.views)} views in the last {RANGE_LABELS[data.range]}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div
          className="flex h-40 items-end gap-px sm:gap-1"
          role="img"
          aria-label={`Views ${hourly ? 'per hour' : 'per day'}, highest ${formatNumber(max)}`}
          data-testid="traffic-chart"
        >
          {data.series.map((bucket) => (
            <div
              key={bucket.at}
              className="group relative flex h-full flex-1 items-end"
              title={`${label(bucket.at)}: ${formatNumber(bucket.views)} views, ${formatNumber(bucket.visitors)} visitors`}
            >
              <div
                className="w-full rounded-t bg-primary/80 group-hover:bg-primary"
                style={{ height: `${bucket.views === 0 ? 0 : Math.max(3, (bucket.views / max) * 100)}%` }}
              />
            </div>
          ))}
        </div>
        <div className="mt-2 flex justify-between text-xs text-muted-foreground">
          <span>{data.series[0] && label(data.series[0].at)}</span>
          <span>{hourly ? 'now' : 'today'}</span>
        </div>
      </CardContent>
    </Card>
  );
}

type Counted = { views: number; visitors: number };
function countColumns<Row extends Counted>() {
  return [
    {
      key: 'views',
      label: 'Views',
      numeric: true,
      sortValue: (r: Row) => r.views,
      cell: (r: Row) => formatNumber(r.views),
    },
    {
      key: 'visitors',
      label: 'Visitors',
      numeric: true,
      sortValue: (r: Row) => r.visitors,
      cell: (r: Row) => formatNumber(r.visitors),
    },
  ];
}

function Breakdown<Row extends Counted>({
  title,
  rows,
  empty,
  first,
  testId,
}: {
  title: string;
  rows: Row[];
  empty: string;
  first: { label: string; value: (row: Row) => string; key: (row: Row) => string };
  testId: string;
}) {
  return (
    <section className="space-y-3" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <EmptyState icon={Globe2} testId={`${testId}-empty`}>
          {empty}
        </EmptyState>
      ) : (
        <SortableTable
          label={title}
          testId={testId}
          rows={rows}
          rowKey={first.key}
          initialSort={{ key: 'views', direction: 'desc' }}
          columns={[
            {
              key: 'name',
              label: first.label,
              sortValue: first.value,
              cell: (r) => (
                <span className="block max-w-64 truncate" title={first.value(r)}>
                  {first.value(r)}
                </span>
              ),
            },
            ...countColumns<Row>(),
          ]}
        />
      )}
    </section>
  );
}

/** Self-hosted analytics of the public site: no cookies, no third party, no stored addresses. */
export default function WebsiteTrafficPage() {
  const [range, setRange] = useState<TrafficRange>('7d');
  const traffic = useWebsiteTraffic(range);
  const data = traffic.data;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="website-traffic-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Website Traffic</h1>
          <p className="text-muted-foreground">
            Visits to the public site, counted by our own server: no cookies, no third-party script, no stored
            addresses.
          </p>
        </div>
        <MonitorFreshness
          updatedAt={traffic.dataUpdatedAt}
          fetching={traffic.isFetching}
          onRefresh={() => traffic.refetch()}
          intervalSeconds={TRAFFIC_REFRESH_MS / 1000}
        />
      </header>

      <Tabs value={range} onValueChange={(value) => setRange(value as TrafficRange)}>
        <TabsList aria-label="Period">
          {TRAFFIC_RANGES.map((r) => (
            <TabsTrigger key={r} value={r} data-testid={`range-${r}`}>
              {RANGE_LABELS[r]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>

      {traffic.isError && (
        <QueryError
          title="Traffic could not be loaded"
          error={traffic.error}
          onRetry={() => traffic.refetch()}
        />
      )}

      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-5">
        {data ? (
          <>
            <StatCard label="Page views" value={formatNumber(data.views)} icon={Eye} testId="traffic-views" />
            <StatCard
              label="Visitors"
              value={formatNumber(data.visitors)}
              hint="Counted once per day each"
              icon={Users}
              testId="traffic-visitors"
            />
            <StatCard
              label="Reached sign-up"
              value={formatNumber(data.signUp.visitors)}
              hint={`Visitors who opened ${data.signUp.pagePath}`}
              icon={MousePointerClick}
              testId="traffic-signup-visitors"
            />
            <StatCard
              label="Accounts created"
              value={formatNumber(data.signUp.accountsCreated)}
              icon={UserPlus}
              testId="traffic-accounts"
            />
            <StatCard
              label="Sign-up conversion"
              value={percent(data.signUp.conversionRate)}
              hint="Accounts ÷ sign-up visitors"
              icon={UserPlus}
              testId="traffic-conversion"
            />
          </>
        ) : (
          Array.from({ length: 5 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <StatCardSkeleton key={i} />
          ))
        )}
      </div>

      {data ? <ViewsChart data={data} /> : !traffic.isError && <Skeleton className="h-56 w-full" />}

      {data && data.views === 0 && (
        <EmptyState icon={Globe2} testId="traffic-empty">
          No visits in the last {RANGE_LABELS[data.range]}. Views are counted when a signed-out visitor opens
          a page of the public site in a browser; crawlers and visitors who ask not to be tracked are not.
        </EmptyState>
      )}

      {data && data.views > 0 && (
        <div className="grid gap-6 xl:grid-cols-3">
          <Breakdown
            title="Top pages"
            rows={data.topPages}
            empty="No pages viewed."
            testId="top-pages"
            first={{ label: 'Page', value: (r) => r.path, key: (r) => r.path }}
          />
          <Breakdown
            title="Referrers"
            rows={data.referrers}
            empty="Every visit came directly or from the site itself."
            testId="referrers"
            first={{ label: 'Site', value: (r) => r.host, key: (r) => r.host }}
          />
          <Breakdown
            title="Countries"
            rows={data.countries}
            empty="No countries yet."
            testId="countries"
            first={{
              label: 'Country',
              value: (r) => countryName(r.country),
              key: (r) => r.country ?? 'unknown',
            }}
          />
        </div>
      )}

      {data && (
        <p className="text-xs text-muted-foreground">
          Since {formatDateTime(data.since)}. A visitor is a one-way hash of the address and browser under a
          salt that changes every day and is then deleted, so nobody can be followed from one day to the next.
          Raw page views are kept {data.retentionDays} days. Bots, Do Not Track and Global Privacy Control are
          honoured.
        </p>
      )}
    </div>
  );
}
