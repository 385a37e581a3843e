import {
  cappedCountText,
  type FailedJob,
  type FailedMessage,
  type OutboxSummary,
  type QueueSummary,
  type ReasonCount,
} from '@shared/admin-monitors';
import { CheckCircle2, RotateCcw, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PagerPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import {
  MONITOR_REFRESH_MS,
  type QueueAction,
  useEmailQueueStatus,
  useFailedJobs,
  useFailedMessages,
  useQueueAction,
} from '../api/email-queue';
import { MonitorFreshness } from '../components/monitor-freshness';
import { useConfirmedAction } from '../hooks/use-confirmed-action';

const PAGE_SIZE = 10;

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-muted-foreground">—</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function Empty({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-8 text-center text-sm"
      data-testid={testId}
    >
      <CheckCircle2 className="size-6 text-muted-foreground" aria-hidden="true" />
      <p className="text-muted-foreground">{children}</p>
    </div>
  );
}

function Figure({
  label,
  value,
  hint,
  tone,
  capped,
}: {
  label: string;
  value: number;
  hint?: string;
  tone?: 'bad';
  /** A count that stops past OUTBOX_COUNT_CAP: shown as "100,000+" there. */
  capped?: boolean;
}) {
  return (
    <div className="rounded-lg border bg-card p-4" data-testid={`outbox-${label.toLowerCase()}`}>
      <p className="text-sm text-muted-foreground">{label}</p>
      <p
        className={`text-2xl font-semibold tabular-nums ${tone === 'bad' && value > 0 ? 'text-destructive' : ''}`}
      >
        {capped ? cappedCountText(value, formatNumber) : formatNumber(value)}
      </p>
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

function OutboxFigures({ outbox }: { outbox: OutboxSummary }) {
  const sending = outbox.claimed + outbox.allocated + outbox.delivering;
  return (
    <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-7">
      <Figure
        label="Queued"
        value={outbox.queued}
        capped
        hint={`${cappedCountText(outbox.queuedDeferred, formatNumber)} waiting for a later time · ${cappedCountText(outbox.queuedHeld, formatNumber)} held (paused campaigns)`}
      />
      <Figure
        label="Sending"
        value={sending}
        hint={`${formatNumber(outbox.claimed)} claimed · ${formatNumber(outbox.allocated)} allocated · ${formatNumber(outbox.delivering)} delivering`}
      />
      <Figure label="Sent" value={outbox.sent} capped />
      <Figure label="Failed" value={outbox.failed} tone="bad" />
      <Figure label="Bounced" value={outbox.bounced} tone="bad" capped />
      <Figure label="Suppressed" value={outbox.suppressed} capped />
      <Figure label="Cancelled" value={outbox.cancelled} capped />
    </div>
  );
}

function ReasonList({
  title,
  note,
  reasons,
  empty,
  testId,
}: {
  title: string;
  note?: string;
  reasons: ReasonCount[];
  empty: string;
  testId: string;
}) {
  return (
    <Card className="gap-3" data-testid={testId}>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
        {note && <p className="text-xs text-muted-foreground">{note}</p>}
      </CardHeader>
      <CardContent>
        {reasons.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {reasons.map((r) => (
              <li key={r.reason} className="flex items-start justify-between gap-3">
                <span className="min-w-0 break-words">{r.reason}</span>
                <Badge variant="secondary" className="shrink-0 tabular-nums">
                  {formatNumber(r.count)}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function QueuesTable({ queues }: { queues: QueueSummary[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border">
      <Table data-testid="queues-table">
        <TableHeader>
          <TableRow>
            <TableHead>Queue</TableHead>
            <TableHead className="text-right">Waiting</TableHead>
            <TableHead className="text-right">Active</TableHead>
            <TableHead className="text-right" title="Scheduled for later">
              Delayed
            </TableHead>
            <TableHead className="text-right">Failed</TableHead>
            <TableHead className="text-right">Done 1 h</TableHead>
            <TableHead className="text-right">Done 24 h</TableHead>
            <TableHead>Oldest waiting</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {queues.map((q) => (
            <TableRow key={q.name} data-testid="queue-row">
              <TableCell className="font-medium whitespace-nowrap">
                {q.name}
                {q.policy !== 'standard' && (
                  <span className="ml-2 text-xs text-muted-foreground">({q.policy})</span>
                )}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatNumber(q.waiting)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatNumber(q.active)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatNumber(q.delayed)}</TableCell>
              <TableCell className={`text-right tabular-nums ${q.failed > 0 ? 'text-destructive' : ''}`}>
                {formatNumber(q.failed)}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatNumber(q.completedLastHour)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatNumber(q.completedLastDay)}</TableCell>
              <TableCell className="whitespace-nowrap">
                <When iso={q.oldestWaitingAt} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function RowActions({
  onRetry,
  onCancel,
  label,
  note,
  noteTitle = 'Nothing of an ended campaign is sent',
}: {
  onRetry?: () => void;
  onCancel?: () => void;
  label: string;
  /** Why there is no retry (shown in its place). */
  note?: string;
  noteTitle?: string;
}) {
  return (
    <div className="flex items-center justify-end gap-2">
      {note && (
        <span className="text-xs whitespace-nowrap text-muted-foreground" title={noteTitle}>
          {note}
        </span>
      )}
      {onRetry && (
        <Button
          variant="outline"
          size="sm"
          onClick={onRetry}
          aria-label={`Retry ${label}`}
          data-testid="retry"
        >
          <RotateCcw aria-hidden="true" />
          Retry
        </Button>
      )}
      {onCancel && (
        <Button
          variant="ghost"
          size="sm"
          onClick={onCancel}
          aria-label={`Cancel ${label}`}
          data-testid="cancel"
        >
          <XCircle aria-hidden="true" />
          Cancel
        </Button>
      )}
    </div>
  );
}

function LoadingRows({ columns }: { columns: number }) {
  return Array.from({ length: 3 }, (_, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
    <TableRow key={index}>
      {Array.from({ length: columns }, (_, cell) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
        <TableCell key={cell}>
          <Skeleton className="h-4 w-full max-w-32" />
        </TableCell>
      ))}
    </TableRow>
  ));
}

function MessageActions({
  message: m,
  onAction,
}: {
  message: FailedMessage;
  onAction: (a: PendingAction) => void;
}) {
  const what = `the message to ${m.toEmail}`;
  if (m.archived) {
    // Failed over a week ago and moved to the outbox archive: kept for the record, no longer changed.
    return (
      <RowActions
        label={`message to ${m.toEmail}`}
        note="Archived"
        noteTitle="Failed over a week ago: kept for the record, no longer retried or cancelled"
      />
    );
  }
  return (
    <RowActions
      label={`message to ${m.toEmail}`}
      onRetry={
        m.canRetry
          ? () => onAction({ target: { kind: 'message', action: 'retry', id: m.id }, what })
          : undefined
      }
      note={m.canRetry ? undefined : `Campaign ${m.campaignStatus}`}
      onCancel={() => onAction({ target: { kind: 'message', action: 'cancel', id: m.id }, what })}
    />
  );
}

function JobActions({ job, onAction }: { job: FailedJob; onAction: (a: PendingAction) => void }) {
  const what = `the ${job.name} job`;
  return (
    <RowActions
      label={`job ${job.name}`}
      onRetry={
        job.state === 'failed'
          ? () => onAction({ target: { kind: 'job', action: 'retry', name: job.name, id: job.id }, what })
          : undefined
      }
      onCancel={
        job.state === 'retry'
          ? () => onAction({ target: { kind: 'job', action: 'cancel', name: job.name, id: job.id }, what })
          : undefined
      }
    />
  );
}

/** A phone's view of a list row: its fields stacked, its actions at the bottom. */
function RowCard({
  fields,
  actions,
  testId,
}: {
  fields: [string, ReactNode][];
  actions: ReactNode;
  testId: string;
}) {
  return (
    <li className="space-y-2 rounded-lg border bg-card p-4 text-sm" data-testid={testId}>
      <dl className="space-y-1.5">
        {fields.map(([label, value]) => (
          <div key={label} className="grid grid-cols-[6rem_1fr] gap-2">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 break-words">{value}</dd>
          </div>
        ))}
      </dl>
      {actions}
    </li>
  );
}

function FailedMessagesSection({ onAction }: { onAction: (action: PendingAction) => void }) {
  const pager = useCursorPages('failed-messages');
  const list = useFailedMessages(pager.cursor ?? undefined);
  const messages = list.data?.messages;
  return (
    <section className="space-y-3" aria-labelledby="failed-messages-title">
      <h2 id="failed-messages-title" className="text-lg font-semibold">
        Failed messages
      </h2>
      {list.isError ? (
        <QueryError
          title="Failed messages could not be loaded"
          error={list.error}
          onRetry={() => list.refetch()}
        />
      ) : messages?.length === 0 && !pager.hasPrevious ? (
        <Empty testId="failed-messages-empty">No message has failed.</Empty>
      ) : (
        <>
          <div className="hidden overflow-x-auto rounded-lg border md:block">
            <Table data-testid="failed-messages-table">
              <TableHeader>
                <TableRow>
                  <TableHead>User</TableHead>
                  <TableHead>Campaign</TableHead>
                  <TableHead>Recipient</TableHead>
                  <TableHead>Reason</TableHead>
                  <TableHead className="text-right">Attempts</TableHead>
                  <TableHead>When</TableHead>
                  <TableHead className="sr-only">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {messages ? (
                  messages.map((m: FailedMessage) => (
                    <TableRow key={m.id} data-testid="failed-message-row">
                      <TableCell className="max-w-40 truncate" title={m.userEmail}>
                        {m.userEmail}
                      </TableCell>
                      <TableCell className="max-w-32 truncate" title={m.campaignName}>
                        {m.campaignName}
                      </TableCell>
                      <TableCell className="max-w-40 truncate" title={m.toEmail}>
                        {m.toEmail}
                      </TableCell>
                      <TableCell className="min-w-48 max-w-72 text-sm break-words whitespace-normal">
                        {m.reason ?? '—'}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{m.attempts}</TableCell>
                      <TableCell className="whitespace-nowrap">
                        <When iso={m.at} />
                      </TableCell>
                      <TableCell>
                        <MessageActions message={m} onAction={onAction} />
                      </TableCell>
                    </TableRow>
                  ))
                ) : (
                  <LoadingRows columns={7} />
                )}
              </TableBody>
            </Table>
          </div>
          <ul className="space-y-3 md:hidden">
            {messages?.map((m) => (
              <RowCard
                key={m.id}
                testId="failed-message-card"
                fields={[
                  ['User', m.userEmail],
                  ['Campaign', m.campaignName],
                  ['Recipient', m.toEmail],
                  ['Reason', m.reason ?? '—'],
                  ['Attempts', m.attempts],
                  ['When', <When key="when" iso={m.at} />],
                ]}
                actions={<MessageActions message={m} onAction={onAction} />}
              />
            ))}
          </ul>
        </>
      )}
      {list.data && (
        <PagerPagination
          pager={pager}
          pageSize={PAGE_SIZE}
          rows={list.data.messages.length}
          nextCursor={list.data.nextCursor}
          busy={list.isFetching}
          noun="messages"
        />
      )}
    </section>
  );
}

function FailedJobsSection({ onAction }: { onAction: (action: PendingAction) => void }) {
  const pager = useCursorPages('failed-jobs');
  const list = useFailedJobs(pager.cursor ?? undefined);
  const jobs = list.data?.jobs;
  return (
    <section className="space-y-3" aria-labelledby="failed-jobs-title">
      <div>
        <h2 id="failed-jobs-title" className="text-lg font-semibold">
          Failed jobs
        </h2>
        <p className="text-sm text-muted-foreground">
          Background jobs that failed for good (retry runs them once more) or failed an attempt and wait for
          the next (cancel stops them).
        </p>
      </div>
      {list.isError ? (
        <QueryError
          title="Failed jobs could not be loaded"
          error={list.error}
          onRetry={() => list.refetch()}
        />
      ) : jobs?.length === 0 && !pager.hasPrevious ? (
        <Empty testId="failed-jobs-empty">No job has failed.</Empty>
      ) : (
        <>
          <div className="hidden overflow-x-auto rounded-lg border md:block">
            <Table data-testid="failed-jobs-table">
              <TableHeader>
                <TableRow>
                  <TableHead>Job</TableHead>
                  <TableHead>State</TableHead>
                  <TableHead>Error</TableHead>
                  <TableHead className="text-right">Retries</TableHead>
                  <TableHead>When</TableHead>
                  <TableHead className="sr-only">Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {jobs ? (
                  jobs.map((job: FailedJob) => (
                    <TableRow key={job.id} data-testid="failed-job-row">
                      <TableCell className="font-medium whitespace-nowrap">{job.name}</TableCell>
                      <TableCell>
                        <Badge variant={job.state === 'failed' ? 'destructive' : 'outline'}>
                          {job.state === 'failed' ? 'Failed' : 'Will retry'}
                        </Badge>
                      </TableCell>
                      <TableCell className="min-w-48 max-w-72 text-sm break-words whitespace-normal">
                        {job.error ?? '—'}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{job.retryCount}</TableCell>
                      <TableCell className="whitespace-nowrap">
                        <When iso={job.at} />
                      </TableCell>
                      <TableCell>
                        <JobActions job={job} onAction={onAction} />
                      </TableCell>
                    </TableRow>
                  ))
                ) : (
                  <LoadingRows columns={6} />
                )}
              </TableBody>
            </Table>
          </div>
          <ul className="space-y-3 md:hidden">
            {jobs?.map((job) => (
              <RowCard
                key={job.id}
                testId="failed-job-card"
                fields={[
                  ['Job', job.name],
                  ['State', job.state === 'failed' ? 'Failed' : 'Will retry'],
                  ['Error', job.error ?? '—'],
                  ['Retries', job.retryCount],
                  ['When', <When key="when" iso={job.at} />],
                ]}
                actions={<JobActions job={job} onAction={onAction} />}
              />
            ))}
          </ul>
        </>
      )}
      {list.data && (
        <PagerPagination
          pager={pager}
          pageSize={PAGE_SIZE}
          rows={list.data.jobs.length}
          nextCursor={list.data.nextCursor}
          busy={list.isFetching}
          noun="jobs"
        />
      )}
    </section>
  );
}

interface PendingAction {
  target: QueueAction;
  what: string;
}

const CONFIRM_COPY: Record<
  'retry' | 'cancel',
  { title: string; label: string; pending: string; body: string }
> = {
  retry: {
    title: 'Retry?',
    label: 'Retry',
    pending: 'Retrying…',
    body: 'It goes back to the queue and is tried again now.',
  },
  cancel: {
    title: 'Cancel?',
    label: 'Cancel it',
    pending: 'Cancelling…',
    body: 'It will not be sent or run.',
  },
};

/** The operator's view of the background queues and the outbox (issue #15, screen 1). */
export default function EmailQueuePage() {
  const status = useEmailQueueStatus();
  const action = useConfirmedAction(useQueueAction(), (pending: PendingAction) => pending.target);
  const { pending, ask: setPending } = action;
  const copy = pending ? CONFIRM_COPY[pending.target.action] : CONFIRM_COPY.retry;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="email-queue-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Email Queue</h1>
          <p className="text-muted-foreground">
            The background queues and every message in the outbox, read live from the database.
          </p>
        </div>
        <MonitorFreshness
          updatedAt={status.dataUpdatedAt}
          fetching={status.isFetching}
          onRefresh={() => status.refetch()}
          intervalSeconds={MONITOR_REFRESH_MS / 1000}
        />
      </header>

      {status.isError && (
        <QueryError
          title="The queue could not be loaded"
          error={status.error}
          onRetry={() => status.refetch()}
          testId="email-queue-error"
        />
      )}

      <section className="space-y-3" aria-labelledby="outbox-title">
        <h2 id="outbox-title" className="text-lg font-semibold">
          Outbox
        </h2>
        {status.data ? (
          <OutboxFigures outbox={status.data.outbox} />
        ) : (
          !status.isError && <Skeleton className="h-24 w-full" />
        )}
        {status.data && (
          <div className="grid gap-3 lg:grid-cols-2">
            <ReasonList
              title="Why queued messages wait"
              note={`Reasons of the ${formatNumber(status.data.deferredReasonsSample)} queued messages due last`}
              reasons={status.data.deferredReasons}
              empty="No queued message was put back."
              testId="deferred-reasons"
            />
            <ReasonList
              title="Why messages failed"
              reasons={status.data.failedReasons}
              empty="No message has failed."
              testId="failed-reasons"
            />
          </div>
        )}
      </section>

      <section className="space-y-3" aria-labelledby="queues-title">
        <h2 id="queues-title" className="text-lg font-semibold">
          Job queues
        </h2>
        {status.data ? (
          status.data.queues.length === 0 ? (
            <Empty>No queue exists yet.</Empty>
          ) : (
            <QueuesTable queues={status.data.queues} />
          )
        ) : (
          !status.isError && <Skeleton className="h-48 w-full" />
        )}
      </section>

      <FailedMessagesSection onAction={setPending} />
      <FailedJobsSection onAction={setPending} />

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && action.dismiss()}
        title={copy.title}
        description={
          <>
            {pending && <strong>{pending.what[0]?.toUpperCase() + pending.what.slice(1)}</strong>}:{' '}
            {copy.body} The audit log records that you did it.
          </>
        }
        confirmLabel={copy.label}
        pendingLabel={copy.pending}
        destructive={pending?.target.action === 'cancel'}
        pending={action.busy}
        onConfirm={action.confirm}
        testId="queue-action-dialog"
      />
    </div>
  );
}
