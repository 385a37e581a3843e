import type { DatabaseMonitor } from '@shared/admin-analytics';
import { Cable, Database, Gauge, HardDrive, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { ANALYTICS_REFRESH_MS, useDatabaseMonitor } from '../api/admin-analytics';
import { MonitorFreshness } from '../components/monitor-freshness';
import { StatCard, StatCardSkeleton } from '../components/stat-card';
import { formatAge, formatBytes, formatRate } from '../lib/analytics-format';

function Section({
  title,
  description,
  children,
  testId,
}: {
  title: string;
  description: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card className="min-w-0 gap-3" data-testid={testId}>
      <CardHeader>
        <CardTitle>
          <h2 className="text-base">{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-muted-foreground">Never</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
      {children}
    </p>
  );
}

function TablesCard({ data }: { data: DatabaseMonitor }) {
  return (
    <Section
      title="Tables"
      description="The largest tables with their indexes, the planner's row estimate, dead rows waiting for vacuum, and when vacuum and analyze last ran."
      testId="db-tables"
    >
      <div className="overflow-x-auto rounded-lg border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Table</TableHead>
              <TableHead className="text-right">Rows (est.)</TableHead>
              <TableHead className="text-right">Total</TableHead>
              <TableHead className="text-right">Data</TableHead>
              <TableHead className="text-right">Indexes</TableHead>
              <TableHead className="text-right">Dead rows</TableHead>
              <TableHead>Vacuumed</TableHead>
              <TableHead>Analyzed</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.tables.map((table) => (
              <TableRow key={table.name} data-testid="db-table-row">
                <TableCell className="font-mono text-xs">{table.name}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {table.rowEstimate < 0 ? '—' : formatNumber(table.rowEstimate)}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatBytes(table.totalBytes)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatBytes(table.tableBytes)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatBytes(table.indexBytes)}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {table.deadRows === null ? '—' : formatNumber(table.deadRows)}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  <When iso={table.lastVacuum} />
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  <When iso={table.lastAnalyze} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </Section>
  );
}

function IndexesCard({ data }: { data: DatabaseMonitor }) {
  return (
    <Section
      title="Indexes"
      description="The largest indexes and how often each was used since statistics were last reset. A large index never scanned costs writes for nothing."
      testId="db-indexes"
    >
      <div className="overflow-x-auto rounded-lg border">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Index</TableHead>
              <TableHead>Table</TableHead>
              <TableHead className="text-right">Size</TableHead>
              <TableHead className="text-right">Scans</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.indexes.map((index) => (
              <TableRow key={index.name} data-testid="db-index-row">
                <TableCell className="font-mono text-xs">{index.name}</TableCell>
                <TableCell className="font-mono text-xs text-muted-foreground">{index.table}</TableCell>
                <TableCell className="text-right tabular-nums">{formatBytes(index.bytes)}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {index.scans === null ? '—' : formatNumber(index.scans)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </Section>
  );
}

function StatementsCard({ data }: { data: DatabaseMonitor }) {
  return (
    <Section
      title="Slowest statements"
      description="From pg_stat_statements, by mean time. Statements are shown normalized: values are $1, $2…, never the data."
      testId="db-statements"
    >
      {data.slowStatements === null ? (
        <Empty>Not available here; see the notes above.</Empty>
      ) : data.slowStatements.length === 0 ? (
        <Empty>No statements recorded yet.</Empty>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Statement</TableHead>
                <TableHead className="text-right">Calls</TableHead>
                <TableHead className="text-right">Mean</TableHead>
                <TableHead className="text-right">Total</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.slowStatements.map((statement) => (
                <TableRow key={statement.query} data-testid="db-statement-row">
                  <TableCell className="max-w-xl truncate font-mono text-xs" title={statement.query}>
                    {statement.query}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(statement.calls)}</TableCell>
                  <TableCell className="text-right tabular-nums">{statement.meanMs.toFixed(1)} ms</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatNumber(statement.totalMs)} ms
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Section>
  );
}

function LongRunningCard({ data }: { data: DatabaseMonitor }) {
  return (
    <Section
      title="Long-running queries"
      description="Statements running for more than 5 seconds now, oldest first, with literal values hidden."
      testId="db-long-running"
    >
      {data.longRunning === null ? (
        <Empty>Not available here; see the notes above.</Empty>
      ) : data.longRunning.length === 0 ? (
        <Empty>Nothing has been running for more than 5 seconds.</Empty>
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Running for</TableHead>
                <TableHead>State</TableHead>
                <TableHead>Application</TableHead>
                <TableHead>Waiting on</TableHead>
                <TableHead>Statement</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.longRunning.map((query) => (
                <TableRow key={query.pid} data-testid="db-running-row">
                  <TableCell className="tabular-nums">{formatAge(query.ageSeconds)}</TableCell>
                  <TableCell>{query.state}</TableCell>
                  <TableCell>{query.application || '—'}</TableCell>
                  <TableCell>{query.waitEvent ?? '—'}</TableCell>
                  <TableCell className="max-w-md truncate font-mono text-xs" title={query.query}>
                    {query.query}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Section>
  );
}

/** The database's size, health and load, from its own statistics (issue #15, screen 6). */
export default function DatabaseMonitorPage() {
  const monitor = useDatabaseMonitor();
  const data = monitor.data;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="database-monitor-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-semibold tracking-tight">
            Database Monitor
            {data && (
              <Badge variant="outline" data-testid="db-engine">
                {data.engine === 'pglite' ? 'Embedded (PGlite)' : 'PostgreSQL'} {data.version}
              </Badge>
            )}
          </h1>
          <p className="text-muted-foreground">
            Table and index sizes, connections, cache, slow and long-running statements, vacuum, read from the
            database's own statistics.
          </p>
        </div>
        <MonitorFreshness
          updatedAt={monitor.dataUpdatedAt}
          fetching={monitor.isFetching}
          onRefresh={() => monitor.refetch()}
          intervalSeconds={ANALYTICS_REFRESH_MS / 1000}
        />
      </header>

      {monitor.isError && (
        <QueryError
          title="The Database Monitor could not be loaded"
          error={monitor.error}
          onRetry={() => monitor.refetch()}
          testId="database-monitor-error"
        />
      )}

      {data ? (
        <>
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            <StatCard
              label="Database size"
              value={formatBytes(data.databaseBytes)}
              icon={HardDrive}
              testId="figure-db-size"
            />
            <StatCard
              label="Cache hit ratio"
              value={formatRate(data.cacheHitRatio)}
              hint="Block reads served from memory; below 99 % on a busy server wants more shared_buffers"
              icon={Gauge}
              tone={data.cacheHitRatio !== null && data.cacheHitRatio < 0.95 ? 'danger' : 'default'}
              testId="figure-cache"
            />
            <StatCard
              label="Connections"
              value={data.connections ? `${data.connections.total} / ${data.connections.max}` : '—'}
              hint={
                data.connections
                  ? `${data.connections.active} active · ${data.connections.idle} idle · ${data.connections.idleInTransaction} idle in transaction`
                  : 'One in-process connection (embedded)'
              }
              icon={Cable}
              tone={
                data.connections && data.connections.total > data.connections.max * 0.8 ? 'danger' : 'default'
              }
              testId="figure-connections"
            />
            <StatCard
              label="Tables"
              value={formatNumber(data.tables.length)}
              hint={`Largest: ${data.tables[0]?.name ?? '—'}`}
              icon={Database}
              testId="figure-tables"
            />
          </div>

          {data.notes.length > 0 && (
            <Alert data-testid="db-notes">
              <Info aria-hidden="true" />
              <AlertTitle>What this database cannot show</AlertTitle>
              <AlertDescription>
                <ul className="list-disc space-y-1 pl-4">
                  {data.notes.map((note) => (
                    <li key={note}>{note}</li>
                  ))}
                </ul>
              </AlertDescription>
            </Alert>
          )}

          <div className="grid gap-4 xl:grid-cols-2">
            <StatementsCard data={data} />
            <LongRunningCard data={data} />
          </div>
          <TablesCard data={data} />
          <IndexesCard data={data} />
        </>
      ) : (
        !monitor.isError && (
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            {Array.from({ length: 4 }, (_, index) => (
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
