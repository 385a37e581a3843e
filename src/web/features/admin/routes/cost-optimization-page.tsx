import type { IdlePaidAccount, StaleData, TableStorage, UserCost } from '@shared/cost-optimization';
import { Archive, BadgeAlert, Database, HardDrive, Search, Users } from 'lucide-react';
import { type ReactNode, useDeferredValue, useState } from 'react';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNaira } from '@/lib/billing';
import { formatDate, formatNumber, formatRelative } from '@/lib/format';
import { COST_REFRESH_MS, useCostOptimization } from '../api/cost-optimization';
import { EmptyState } from '../components/empty-state';
import { MonitorFreshness } from '../components/monitor-freshness';
import { type SortableColumn, SortableTable } from '../components/sortable-table';
import { StatCard, StatCardSkeleton } from '../components/stat-card';
import { formatBytes } from '../lib/bytes';
import { describeCron } from '../lib/cron';

/** Naira earned per thousand messages queued: what a user's volume brings in. */
function revenuePerThousand(user: UserCost): number | null {
  if (user.outboxMessages === 0) return null;
  return (user.revenueKobo / user.outboxMessages) * 1000;
}

/** A right-aligned column over one numeric field, sorted by it and shown by `format`. */
function numberColumn<Row>(
  key: string,
  label: string,
  value: (row: Row) => number,
  format: (value: number) => string = formatNumber,
  title?: string,
): SortableColumn<Row> {
  return { key, label, numeric: true, title, sortValue: value, cell: (row) => format(value(row)) };
}

/** The account's address, cut short in narrow cells with the whole of it on hover. */
function emailColumn<Row extends { email: string }>(): SortableColumn<Row> {
  return {
    key: 'email',
    label: 'User',
    sortValue: (u) => u.email,
    cell: (u) => (
      <span className="block max-w-56 truncate" title={u.email}>
        {u.email}
      </span>
    ),
  };
}

function planColumn<Row extends { plan: string }>(): SortableColumn<Row> {
  return {
    key: 'plan',
    label: 'Plan',
    sortValue: (u) => u.plan,
    cell: (u) => <Badge variant="outline">{u.plan}</Badge>,
  };
}

const tableColumns: SortableColumn<TableStorage>[] = [
  {
    key: 'table',
    label: 'Table',
    sortValue: (t) => t.table,
    cell: (t) => (
      <span className="font-medium">
        {t.schema !== 'public' && <span className="text-muted-foreground">{t.schema}.</span>}
        {t.table}
      </span>
    ),
  },
  {
    key: 'rows',
    label: 'Rows (est.)',
    numeric: true,
    title: "The planner's estimate; — before the table was first analysed",
    sortValue: (t) => t.rowEstimate,
    cell: (t) => (t.rowEstimate === null ? '—' : formatNumber(t.rowEstimate)),
  },
  numberColumn('heap', 'Data', (t) => t.tableBytes, formatBytes),
  numberColumn('idx', 'Indexes', (t) => t.indexBytes, formatBytes),
  {
    key: 'total',
    label: 'Total',
    numeric: true,
    sortValue: (t) => t.totalBytes,
    cell: (t) => <span className="font-medium">{formatBytes(t.totalBytes)}</span>,
  },
];

const userColumns: SortableColumn<UserCost>[] = [
  emailColumn(),
  planColumn(),
  numberColumn('lists', 'Lists', (u) => u.lists),
  numberColumn('contacts', 'Contacts', (u) => u.contacts),
  numberColumn(
    'outbox',
    'Messages',
    (u) => u.outboxMessages,
    formatNumber,
    'Rows in the outbox, every state',
  ),
  numberColumn('sent30', 'Sent 30 d', (u) => u.sent30d),
  numberColumn('events', 'Events', (u) => u.events),
  numberColumn(
    'bytes',
    'Storage (est.)',
    (u) => u.estimatedBytes,
    formatBytes,
    'Their rows × the average row size of each table',
  ),
  numberColumn('revenue', 'Revenue', (u) => u.revenueKobo, formatNaira),
  {
    key: 'per1k',
    label: '₦ / 1k messages',
    numeric: true,
    title: 'Revenue for every thousand messages they queued',
    sortValue: revenuePerThousand,
    cell: (u) => {
      const value = revenuePerThousand(u);
      return value === null ? '—' : formatNaira(Math.round(value));
    },
  },
];

const idleColumns: SortableColumn<IdlePaidAccount>[] = [
  emailColumn(),
  planColumn(),
  {
    key: 'last',
    label: 'Last sent',
    sortValue: (u) => u.lastSentAt,
    cell: (u) => (u.lastSentAt ? formatRelative(u.lastSentAt) : 'Never'),
  },
  {
    key: 'renews',
    label: 'Period ends',
    sortValue: (u) => u.periodEnd,
    cell: (u) => formatDate(u.periodEnd),
  },
  numberColumn('revenue', 'Paid so far', (u) => u.revenueKobo, formatNaira),
];

const staleColumns: SortableColumn<StaleData>[] = [
  {
    key: 'label',
    label: 'Data',
    sortValue: (s) => s.label,
    cell: (s) => <span className="font-medium">{s.label}</span>,
  },
  {
    key: 'rows',
    label: 'Rows',
    numeric: true,
    sortValue: (s) => s.rows,
    cell: (s) => (
      <span className={s.rows > 0 ? 'font-semibold' : 'text-muted-foreground'}>{formatNumber(s.rows)}</span>
    ),
  },
  {
    key: 'rule',
    label: 'Purged when',
    cell: (s) => <span className="text-sm">{s.rule}</span>,
    className: 'min-w-48 whitespace-normal',
  },
  {
    key: 'job',
    label: 'Job',
    sortValue: (s) => s.job,
    cell: (s) => <code className="text-xs">{s.job}</code>,
  },
  {
    key: 'cron',
    label: 'Schedule',
    sortValue: (s) => s.cron,
    cell: (s) => <span title={s.cron}>{describeCron(s.cron)}</span>,
  },
];

/** A titled part of the page; `aside` sits beside the title on wide screens (a filter, say). */
function CostSection({
  id,
  title,
  description,
  aside,
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const heading = (
    <div>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="text-sm text-muted-foreground">{description}</p>
    </div>
  );
  return (
    <section className="space-y-3" aria-labelledby={id}>
      {aside ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          {heading}
          {aside}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

/** Where the platform's storage goes, who uses it against what they pay, and what can be purged. */
export default function CostOptimizationPage() {
  const [userFilter, setUserFilter] = useState('');
  const deferredFilter = useDeferredValue(userFilter.trim());
  const cost = useCostOptimization(deferredFilter);
  const data = cost.data;
  const staleRows = data?.staleData.reduce((sum, s) => sum + s.rows, 0) ?? 0;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="cost-optimization-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Cost Optimization</h1>
          <p className="text-muted-foreground">
            Storage per table and per user, what each user sends and pays, idle paid accounts and data the
            purge jobs will remove.
          </p>
        </div>
        <MonitorFreshness
          updatedAt={cost.dataUpdatedAt}
          fetching={cost.isFetching}
          onRefresh={() => cost.refetch()}
          intervalSeconds={COST_REFRESH_MS / 1000}
        />
      </header>

      {cost.isError && (
        <QueryError title="Figures could not be loaded" error={cost.error} onRetry={() => cost.refetch()} />
      )}

      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {data ? (
          <>
            <StatCard
              label="Database size"
              value={formatBytes(data.databaseBytes)}
              hint={data.engine === 'pglite' ? 'Embedded PGlite' : 'PostgreSQL'}
              icon={Database}
              testId="cost-database-size"
            />
            <StatCard label="Tables" value={formatNumber(data.tables.length)} icon={HardDrive} />
            <StatCard
              label="Idle paid accounts"
              value={formatNumber(data.idlePaidAccounts.length)}
              hint="Paid, nothing sent in 30 days"
              icon={BadgeAlert}
              tone={data.idlePaidAccounts.length > 0 ? 'danger' : 'default'}
              testId="cost-idle"
            />
            <StatCard
              label="Rows due for purging"
              value={formatNumber(staleRows)}
              hint="At the purge jobs' next runs"
              icon={Archive}
              testId="cost-stale"
            />
          </>
        ) : (
          Array.from({ length: 4 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <StatCardSkeleton key={i} />
          ))
        )}
      </div>

      <CostSection
        id="tables-title"
        title="Storage per table"
        description={
          data?.engine === 'pglite'
            ? 'The embedded PGlite database measures its own data files the way PostgreSQL does; row counts are estimates and stay empty until a table is first analysed.'
            : 'Each table with its indexes and TOAST, from PostgreSQL (pg_total_relation_size).'
        }
      >
        {data ? (
          <SortableTable
            label="Storage per table"
            testId="cost-tables"
            rows={data.tables}
            rowKey={(t) => `${t.schema}.${t.table}`}
            columns={tableColumns}
            initialSort={{ key: 'total', direction: 'desc' }}
          />
        ) : (
          !cost.isError && <Skeleton className="h-64 w-full" />
        )}
      </CostSection>

      <CostSection
        id="users-title"
        title="Per user"
        description={
          data
            ? `The ${formatNumber(data.users.length)} largest of ${formatNumber(data.usersTotal)} users by estimated storage. Revenue is paid orders in naira, refunds excluded.`
            : 'The largest users by estimated storage.'
        }
        aside={
          <div className="relative w-full sm:w-72">
            <Label htmlFor="cost-user-filter" className="sr-only">
              Find a user by email
            </Label>
            <Search className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden="true" />
            <Input
              id="cost-user-filter"
              value={userFilter}
              onChange={(e) => setUserFilter(e.target.value)}
              placeholder="Find a user by email"
              className="pl-8"
              data-testid="cost-user-filter"
            />
          </div>
        }
      >
        {data &&
          (data.users.length === 0 ? (
            <EmptyState icon={Users} testId="cost-users-empty">
              {deferredFilter ? `No user's address contains “${deferredFilter}”.` : 'No users yet.'}
            </EmptyState>
          ) : (
            <SortableTable
              label="Per user"
              testId="cost-users"
              rows={data.users}
              rowKey={(u) => u.userId}
              columns={userColumns}
              initialSort={{ key: 'bytes', direction: 'desc' }}
            />
          ))}
      </CostSection>

      <CostSection
        id="idle-title"
        title="Idle paid accounts"
        description="On an active paid plan with nothing sent in the last 30 days: worth a check-in before they cancel."
      >
        {data &&
          (data.idlePaidAccounts.length === 0 ? (
            <EmptyState icon={BadgeAlert} testId="cost-idle-empty">
              Every paying account sent something in the last 30 days.
            </EmptyState>
          ) : (
            <SortableTable
              label="Idle paid accounts"
              testId="cost-idle-table"
              rows={data.idlePaidAccounts}
              rowKey={(u) => u.userId}
              columns={idleColumns}
              initialSort={{ key: 'revenue', direction: 'desc' }}
            />
          ))}
      </CostSection>

      <CostSection
        id="stale-title"
        title="Stale data"
        description="What each scheduled purge job will delete on its next run, and when it runs."
      >
        {data && (
          <SortableTable
            label="Stale data"
            testId="cost-stale-table"
            rows={data.staleData}
            rowKey={(s) => s.key}
            columns={staleColumns}
          />
        )}
      </CostSection>
    </div>
  );
}
