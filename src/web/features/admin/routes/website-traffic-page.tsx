import { TRAFFIC_RANGES, type TrafficRange, type WebsiteTraffic } from '@shared/site-traffic';
import type { ColumnDef } from '@tanstack/react-table';
import { Eye, Globe2, MousePointerClick, UserPlus, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { QueryError } from '@/components/query-error';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatDateTime, formatNumber } from '@/lib/format';
import type { ListSort } from '@/lib/url-list-state';
import { TRAFFIC_REFRESH_MS, useWebsiteTraffic } from '../api/website-traffic';
import { EmptyState } from '../components/empty-state';
import { MonitorFreshness } from '../components/monitor-freshness';
import { StatCard, StatCardSkeleton } from '../components/stat-card';
import { TimeSeriesChart } from '../components/time-series-chart';
import { formatBucket } from '../lib/analytics-format';

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

/** Views and visitors per hour or day: where people look rather than read. */
function ViewsChart({ data }: { data: WebsiteTraffic }) {
  const hourly = data.range === '24h';
  return (
    <TimeSeriesChart
      title={`Views ${hourly ? 'per hour' : 'per day'}`}
      description={`${formatNumber(data.views)} views in the last ${RANGE_LABELS[data.range]} (UTC ${hourly ? 'hours' : 'days'}).`}
      data={data.series}
      xKey="at"
      series={[
        { key: 'views', label: 'Views', color: 'var(--chart-1)' },
        { key: 'visitors', label: 'Visitors', color: 'var(--chart-2)' },
      ]}
      kind="bar"
      formatX={(at) => formatBucket(at, hourly ? 3600 : 86_400)}
      testId="traffic-chart"
    />
  );
}

type Counted = { views: number; visitors: number };

function compareBy<Row extends Counted>(sort: ListSort, name: (row: Row) => string) {
  const value = (row: Row): string | number =>
    sort.id === 'views' ? row.views : sort.id === 'visitors' ? row.visitors : name(row);
  return (a: Row, b: Row) => {
    const x = value(a);
    const y = value(b);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sort.desc ? -order : order;
  };
}

const DEFAULT_SORT: ListSort = { id: 'views', desc: true };

/**
 * One of the top-ten lists, through the shared table. The server sends at most ten rows, so the table
 * sorts and filters them here.
 */
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
  const [sort, setSort] = useState<ListSort>(DEFAULT_SORT);
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return rows
      .filter((row) => !needle || first.value(row).toLowerCase().includes(needle))
      .sort(compareBy(sort, first.value));
  }, [rows, filter, sort, first]);
  const columns = useMemo<ColumnDef<Row, unknown>[]>(
    () => [
      {
        id: 'name',
        header: first.label,
        enableSorting: true,
        cell: ({ row }) => (
          <span className="block max-w-64 truncate" title={first.value(row.original)}>
            {first.value(row.original)}
          </span>
        ),
      },
      {
        id: 'views',
        header: 'Views',
        enableSorting: true,
        meta: { className: 'text-right tabular-nums' },
        cell: ({ row }) => formatNumber(row.original.views),
      },
      {
        id: 'visitors',
        header: 'Visitors',
        enableSorting: true,
        meta: { className: 'text-right tabular-nums' },
        cell: ({ row }) => formatNumber(row.original.visitors),
      },
    ],
    [first],
  );
  return (
    <section className="min-w-0 space-y-3" aria-label={title}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">{title}</h2>
        {rows.length > 1 && (
          <Input
            type="search"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            placeholder="Filter"
            aria-label={`Filter ${title.toLowerCase()}`}
            className="h-8 w-32"
            data-testid={`${testId}-filter`}
          />
        )}
      </div>
      <DataTable
        columns={columns}
        rows={shown}
        getRowId={first.key}
        sort={sort}
        onSortChange={(next) => setSort(next ?? DEFAULT_SORT)}
        empty={{
          icon: Globe2,
          title: rows.length === 0 ? empty : 'Nothing matches the filter.',
          testId: `${testId}-empty`,
        }}
        testId={testId}
        rowTestId={`${testId}-row`}
      />
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
