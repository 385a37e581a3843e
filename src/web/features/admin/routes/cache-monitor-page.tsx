import type { CacheSnapshotView } from '@shared/admin-operations';
import { Eraser, Info } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { MONITOR_REFRESH_MS } from '../api/email-queue';
import { useCaches, useClearCache } from '../api/operations';
import { MonitorFreshness } from '../components/monitor-freshness';
import { useConfirmedAction } from '../hooks/use-confirmed-action';

function hitRateText(rate: number | null): string {
  return rate === null ? 'no lookups yet' : `${(rate * 100).toFixed(1)}%`;
}

function Oldest({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-muted-foreground">empty</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function ClearButton({ cache, onClear }: { cache: CacheSnapshotView; onClear: (name: string) => void }) {
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => onClear(cache.name)}
      disabled={cache.size === 0}
      aria-label={`Clear ${cache.name}`}
      data-testid="clear-cache"
    >
      <Eraser aria-hidden="true" />
      Clear
    </Button>
  );
}

/** Every in-process cache of the web process, with its hit rate; a super admin can empty one. */
export default function CacheMonitorPage() {
  const caches = useCaches();
  const action = useConfirmedAction(useClearCache(), (name: string) => name);
  const list = caches.data?.caches;

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6" data-testid="cache-monitor-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Cache Monitor</h1>
          <p className="text-muted-foreground">
            The app's in-memory caches: how much they hold and how often they save a lookup.
          </p>
        </div>
        <MonitorFreshness
          updatedAt={caches.dataUpdatedAt}
          fetching={caches.isFetching}
          onRefresh={() => caches.refetch()}
          intervalSeconds={MONITOR_REFRESH_MS / 1000}
        />
      </header>

      <Alert data-testid="cache-process-note">
        <Info aria-hidden="true" />
        <AlertDescription>
          {caches.data?.process === 'app'
            ? 'These are the caches of this process, which serves the web pages and runs the background workers (the embedded setup). In a split deployment (separate web and worker processes) this screen shows only the caches of the web process that answers it.'
            : 'These are the caches of the web process that answered this page. Each worker process, and every other web process behind a load balancer, keeps its own copies, which this screen does not show; clearing here clears only this process.'}{' '}
          Counters start at zero when the process starts.
        </AlertDescription>
      </Alert>

      {caches.isError && (
        <QueryError
          title="The caches could not be read"
          error={caches.error}
          onRetry={() => caches.refetch()}
        />
      )}

      {!list && !caches.isError && <Skeleton className="h-48 w-full" />}
      {list && list.length === 0 && (
        <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
          This process has no cache registered.
        </p>
      )}
      {list && list.length > 0 && (
        <>
          <div className="hidden overflow-x-auto rounded-lg border md:block">
            <Table data-testid="caches-table">
              <TableHeader>
                <TableRow>
                  <TableHead>Cache</TableHead>
                  <TableHead className="text-right">Entries</TableHead>
                  <TableHead className="text-right">Hits</TableHead>
                  <TableHead className="text-right">Misses</TableHead>
                  <TableHead className="text-right">Hit rate</TableHead>
                  <TableHead>Oldest entry</TableHead>
                  <TableHead className="sr-only">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((cache) => (
                  <TableRow key={cache.name} data-testid="cache-row">
                    <TableCell className="min-w-64 whitespace-normal">
                      <p className="font-medium">{cache.name}</p>
                      <p className="text-xs text-muted-foreground">{cache.description}</p>
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{formatNumber(cache.size)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatNumber(cache.hits)}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatNumber(cache.misses)}</TableCell>
                    <TableCell className="text-right tabular-nums">{hitRateText(cache.hitRate)}</TableCell>
                    <TableCell className="whitespace-nowrap">
                      <Oldest iso={cache.oldestEntryAt} />
                    </TableCell>
                    <TableCell className="text-right">
                      <ClearButton cache={cache} onClear={action.ask} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <ul className="space-y-3 md:hidden">
            {list.map((cache) => (
              <li
                key={cache.name}
                className="space-y-2 rounded-lg border bg-card p-4 text-sm"
                data-testid="cache-card"
              >
                <p className="font-medium">{cache.name}</p>
                <p className="text-xs text-muted-foreground">{cache.description}</p>
                <dl className="grid grid-cols-2 gap-x-3 gap-y-1">
                  <dt className="text-muted-foreground">Entries</dt>
                  <dd className="tabular-nums">{formatNumber(cache.size)}</dd>
                  <dt className="text-muted-foreground">Hit rate</dt>
                  <dd className="tabular-nums">
                    {hitRateText(cache.hitRate)}
                    {cache.hitRate !== null &&
                      ` (${formatNumber(cache.hits)} of ${formatNumber(cache.hits + cache.misses)})`}
                  </dd>
                  <dt className="text-muted-foreground">Oldest entry</dt>
                  <dd>
                    <Oldest iso={cache.oldestEntryAt} />
                  </dd>
                </dl>
                <ClearButton cache={cache} onClear={action.ask} />
              </li>
            ))}
          </ul>
        </>
      )}

      <ConfirmDialog
        open={action.pending !== null}
        onOpenChange={(open) => !open && action.dismiss()}
        title="Clear this cache?"
        description={
          <>
            <strong>{action.pending}</strong> is emptied in this process; its next lookups go to the database
            or the source again. The audit log records that you did it.
          </>
        }
        confirmLabel="Clear it"
        pendingLabel="Clearing…"
        pending={action.busy}
        onConfirm={action.confirm}
        testId="clear-cache-dialog"
      />
    </div>
  );
}
