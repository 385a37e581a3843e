import type { EventRates, SenderMonitorRow } from '@shared/admin-monitors';
import type { SenderStatus } from '@shared/sending';
import { Pause, Play, ServerOff } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PagerPagination } from '@/components/cursor-pagination';
import { FilterSelect } from '@/components/filter-select';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { useSenderAction, useSenderMonitor } from '../api/email-processing';
import { MONITOR_REFRESH_MS } from '../api/email-queue';
import { CardField, SkeletonRows } from '../components/card-parts';
import { MonitorFreshness } from '../components/monitor-freshness';
import { useConfirmedAction } from '../hooks/use-confirmed-action';

const PAGE_SIZE = 25;

const STATUS_BADGE: Record<
  SenderStatus,
  { label: string; variant: 'default' | 'secondary' | 'destructive' }
> = {
  active: { label: 'Active', variant: 'default' },
  paused: { label: 'Paused', variant: 'secondary' },
  failing: { label: 'Failing', variant: 'destructive' },
};

function percent(rate: number): string {
  return `${(rate * 100).toFixed(rate > 0 && rate < 0.1 ? 1 : 0)}%`;
}

function Rates({ rates, testId }: { rates: EventRates; testId: string }) {
  const risky = rates.bounceRate > 0.05 || rates.complaintRate > 0.001;
  return (
    <div className="text-sm tabular-nums whitespace-nowrap" data-testid={testId}>
      <div className={risky ? 'text-destructive' : ''}>
        <span title="Bounced">{percent(rates.bounceRate)} bounce</span>
        <br />
        <span title="Complaints">{percent(rates.complaintRate)} compl.</span>
      </div>
      <div className="text-xs text-muted-foreground">{formatNumber(rates.sent)} sent</div>
    </div>
  );
}

function StatusCell({ row }: { row: SenderMonitorRow }) {
  const badge = STATUS_BADGE[row.status];
  return (
    <>
      <Badge variant={badge.variant} data-testid="sender-status">
        {badge.label}
      </Badge>
      {row.statusReason && <p className="mt-1 text-xs text-muted-foreground">{row.statusReason}</p>}
      {row.cooldownUntil && (
        <p className="mt-1 text-xs text-muted-foreground">
          Resting until {formatDateTime(row.cooldownUntil)}
        </p>
      )}
    </>
  );
}

function CapCell({ row }: { row: SenderMonitorRow }) {
  const capShare = row.capToday > 0 ? Math.min(1, row.sentToday / row.capToday) : 0;
  return (
    <div className="whitespace-nowrap">
      <div className="tabular-nums">
        {formatNumber(row.sentToday)} / {formatNumber(row.capToday)}
      </div>
      <div className="mt-1 h-1.5 w-20 rounded bg-muted" aria-hidden="true">
        <div className="h-1.5 rounded bg-primary" style={{ width: `${capShare * 100}%` }} />
      </div>
      <div className="text-xs text-muted-foreground">{row.timeZone}</div>
    </div>
  );
}

function ErrorsCell({ row }: { row: SenderMonitorRow }) {
  return (
    <>
      <div className={`tabular-nums ${row.errors24h > 0 ? 'text-destructive' : ''}`}>{row.errors24h}</div>
      {row.smtpCodes.length > 0 && (
        <div className="mt-1 flex flex-wrap gap-1" data-testid="smtp-codes">
          {row.smtpCodes.slice(0, 4).map((c) => (
            <Badge key={c.code} variant="outline" className="font-mono text-xs">
              {c.code} ×{c.count}
            </Badge>
          ))}
        </div>
      )}
    </>
  );
}

function ImapCell({ row }: { row: SenderMonitorRow }) {
  if (!row.imapEnabled) return <span className="text-muted-foreground">No IMAP</span>;
  return (
    <>
      <div className="whitespace-nowrap">
        {row.imapCheckedAt ? (
          <time dateTime={row.imapCheckedAt} title={formatDateTime(row.imapCheckedAt)}>
            {formatRelative(row.imapCheckedAt)}
          </time>
        ) : (
          'Never'
        )}
      </div>
      <div className={`text-xs ${row.imapError ? 'text-destructive' : 'text-muted-foreground'}`}>
        {row.imapError ?? (row.imapCheckedAt ? 'OK' : '')}
      </div>
      {row.imapIdle && (
        <div className="text-xs text-muted-foreground" data-testid="imap-idle">
          Listening (IDLE)
        </div>
      )}
    </>
  );
}

function ActionButton({
  row,
  onAction,
}: {
  row: SenderMonitorRow;
  onAction: (row: SenderMonitorRow, action: 'pause' | 'resume') => void;
}) {
  return row.status === 'active' ? (
    <Button variant="outline" size="sm" onClick={() => onAction(row, 'pause')} data-testid="pause-sender">
      <Pause aria-hidden="true" />
      Pause
    </Button>
  ) : (
    <Button variant="outline" size="sm" onClick={() => onAction(row, 'resume')} data-testid="resume-sender">
      <Play aria-hidden="true" />
      Resume
    </Button>
  );
}

/** A phone's view of one account: the same figures as the table's row, stacked. */
function AccountCard({
  row,
  onAction,
}: {
  row: SenderMonitorRow;
  onAction: (row: SenderMonitorRow, action: 'pause' | 'resume') => void;
}) {
  return (
    <li className="space-y-3 rounded-lg border bg-card p-4" data-testid="sender-row">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate font-medium">{row.fromEmail}</p>
          <p className="truncate text-xs text-muted-foreground">Owner: {row.ownerEmail}</p>
        </div>
        <ActionButton row={row} onAction={onAction} />
      </div>
      <div>
        <StatusCell row={row} />
      </div>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <CardField label="Today / cap">
          <CapCell row={row} />
        </CardField>
        <CardField label={<>Errors 24 h · deferred {formatNumber(row.deferred)}</>}>
          <ErrorsCell row={row} />
        </CardField>
        <CardField label="Last 24 h">
          <Rates rates={row.last24h} testId="rates-24h" />
        </CardField>
        <CardField label="Last 7 days">
          <Rates rates={row.last7d} testId="rates-7d" />
        </CardField>
        <CardField label="Last IMAP poll" className="col-span-2">
          <ImapCell row={row} />
        </CardField>
      </dl>
    </li>
  );
}

function AccountRow({
  row,
  onAction,
}: {
  row: SenderMonitorRow;
  onAction: (row: SenderMonitorRow, action: 'pause' | 'resume') => void;
}) {
  return (
    <TableRow data-testid="sender-row">
      <TableCell className="max-w-52">
        <div className="truncate font-medium" title={row.fromEmail}>
          {row.fromEmail}
        </div>
        <div className="truncate text-xs text-muted-foreground" title={row.ownerEmail}>
          Owner: {row.ownerEmail}
        </div>
      </TableCell>
      <TableCell className="max-w-48 whitespace-normal">
        <StatusCell row={row} />
      </TableCell>
      <TableCell>
        <CapCell row={row} />
      </TableCell>
      <TableCell>
        <ErrorsCell row={row} />
      </TableCell>
      <TableCell className="text-right tabular-nums">{formatNumber(row.deferred)}</TableCell>
      <TableCell>
        <Rates rates={row.last24h} testId="rates-24h" />
      </TableCell>
      <TableCell>
        <Rates rates={row.last7d} testId="rates-7d" />
      </TableCell>
      <TableCell className="max-w-40 text-sm whitespace-normal">
        <ImapCell row={row} />
      </TableCell>
      <TableCell className="text-right">
        <ActionButton row={row} onAction={onAction} />
      </TableCell>
    </TableRow>
  );
}

/** Every sender account across all users, with its day and its health (issue #15, screen 2). */
export default function EmailProcessingPage() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<SenderStatus | undefined>(undefined);
  const debounced = useDebouncedValue(search.trim(), 300);
  const pager = useCursorPages(JSON.stringify([debounced, status]));
  const list = useSenderMonitor({
    search: debounced || undefined,
    status,
    cursor: pager.cursor ?? undefined,
  });
  const action = useConfirmedAction(
    useSenderAction(),
    (target: { row: SenderMonitorRow; action: 'pause' | 'resume' }) => ({
      id: target.row.id,
      action: target.action,
    }),
  );
  const { pending, ask: setPending } = action;
  const accounts = list.data?.accounts;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="email-processing-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Email Processing</h1>
          <p className="text-muted-foreground">
            Every sender account of every user: today's sends against its cap (in the account's own day),
            errors and their SMTP codes, bounce and complaint rates, and its last mailbox check.
          </p>
          {list.data && (
            <p className="text-sm text-muted-foreground" data-testid="sender-totals">
              {formatNumber(list.data.totals.active)} active · {formatNumber(list.data.totals.paused)} paused
              · {formatNumber(list.data.totals.failing)} failing
            </p>
          )}
        </div>
        <MonitorFreshness
          updatedAt={list.dataUpdatedAt}
          fetching={list.isFetching}
          onRefresh={() => list.refetch()}
          intervalSeconds={MONITOR_REFRESH_MS / 1000}
        />
      </header>

      <search className="flex flex-col gap-3 sm:flex-row sm:items-center" aria-label="Filter sender accounts">
        <SearchInput
          className="flex-1 sm:max-w-sm"
          value={search}
          onChange={setSearch}
          placeholder="Search by account or owner email"
          aria-label="Search sender accounts by email"
          maxLength={200}
          data-testid="sender-search"
        />
        <FilterSelect
          value={status}
          onChange={setStatus}
          allLabel="All statuses"
          options={['active', 'paused', 'failing'] as const}
          optionLabel={(value) => ({ active: 'Active', paused: 'Paused', failing: 'Failing' })[value]}
          className="w-full sm:w-44"
          aria-label="Filter by status"
          data-testid="sender-status-filter"
        />
      </search>

      {list.isError && (
        <QueryError
          title="Sender accounts could not be loaded"
          error={list.error}
          onRetry={() => list.refetch()}
          testId="email-processing-error"
        />
      )}

      {!list.isError && accounts?.length === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center"
          data-testid="senders-empty"
        >
          <ServerOff className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">
            {debounced || status
              ? 'No sender account matches these filters'
              : 'No user has added a sender account yet'}
          </p>
        </div>
      ) : (
        !list.isError && (
          <>
            <div className="hidden overflow-x-auto rounded-lg border md:block">
              <Table data-testid="senders-table">
                <TableHeader>
                  <TableRow>
                    <TableHead>Account</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Today / cap</TableHead>
                    <TableHead title="Failed messages in the last 24 hours, with the SMTP codes seen">
                      Errors 24 h
                    </TableHead>
                    <TableHead className="text-right" title="Messages waiting to be tried again">
                      Deferred
                    </TableHead>
                    <TableHead>24 h</TableHead>
                    <TableHead>7 days</TableHead>
                    <TableHead>Last IMAP poll</TableHead>
                    <TableHead className="sr-only">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {accounts ? (
                    accounts.map((row) => (
                      <AccountRow
                        key={row.id}
                        row={row}
                        onAction={(r, a) => setPending({ row: r, action: a })}
                      />
                    ))
                  ) : (
                    <SkeletonRows rows={4} cells={9} />
                  )}
                </TableBody>
              </Table>
            </div>
            <ul className="space-y-3 md:hidden" data-testid="senders-cards">
              {accounts
                ? accounts.map((row) => (
                    <AccountCard
                      key={row.id}
                      row={row}
                      onAction={(r, a) => setPending({ row: r, action: a })}
                    />
                  ))
                : [0, 1, 2].map((index) => <Skeleton key={index} className="h-40 w-full" />)}
            </ul>
          </>
        )
      )}

      {list.data && (
        <PagerPagination
          pager={pager}
          pageSize={PAGE_SIZE}
          rows={list.data.accounts.length}
          nextCursor={list.data.nextCursor}
          busy={list.isFetching}
          noun="accounts"
        />
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && action.dismiss()}
        title={pending?.action === 'pause' ? 'Pause this account?' : 'Resume this account?'}
        description={
          pending && (
            <>
              <strong>{pending.row.fromEmail}</strong> (owner {pending.row.ownerEmail}){' '}
              {pending.action === 'pause'
                ? 'stops sending; its campaigns carry on through their other accounts.'
                : 'sends again; a failing account forgets its reason and its failure run.'}{' '}
              The audit log records that you did it.
            </>
          )
        }
        confirmLabel={pending?.action === 'pause' ? 'Pause' : 'Resume'}
        pendingLabel={pending?.action === 'pause' ? 'Pausing…' : 'Resuming…'}
        destructive={pending?.action === 'pause'}
        pending={action.busy}
        onConfirm={action.confirm}
        testId="sender-action-dialog"
      />
    </div>
  );
}
