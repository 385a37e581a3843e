import {
  type AutomatedSchedule,
  DAY_RUNS_COUNTED,
  type ScheduleRun,
  type ScheduleRunOutcome,
} from '@shared/admin-schedules';
import { CalendarOff, Pause, Play, Zap } from 'lucide-react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { MONITOR_REFRESH_MS } from '../api/email-queue';
import { type ScheduleAction, useScheduleAction, useSchedules } from '../api/schedules';
import { CardField } from '../components/card-parts';
import { MonitorFreshness } from '../components/monitor-freshness';
import { useConfirmedAction } from '../hooks/use-confirmed-action';

type Pending = { schedule: AutomatedSchedule; action: ScheduleAction };
type OnAction = (schedule: AutomatedSchedule, action: ScheduleAction) => void;

const OUTCOME_BADGE: Record<
  ScheduleRunOutcome,
  { label: string; variant: 'default' | 'secondary' | 'destructive' | 'outline' }
> = {
  running: { label: 'Running', variant: 'secondary' },
  completed: { label: 'Completed', variant: 'default' },
  failed: { label: 'Failed', variant: 'destructive' },
  retrying: { label: 'Failed, retrying', variant: 'destructive' },
  cancelled: { label: 'Cancelled', variant: 'outline' },
};

/** "320 ms", "4.2 s", "3 min 10 s". */
function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function CronCell({ schedule }: { schedule: AutomatedSchedule }) {
  return (
    <>
      <div>{schedule.cronText}</div>
      <code className="text-xs text-muted-foreground">{schedule.cron}</code>
    </>
  );
}

function LastRunCell({ run, schedule }: { run: ScheduleRun | null; schedule: AutomatedSchedule }) {
  const totals = (
    <div className="text-xs text-muted-foreground" data-testid="schedule-day-totals">
      {schedule.lastDayCapped ? `24 h, latest ${formatNumber(DAY_RUNS_COUNTED)} runs` : '24 h'}:{' '}
      {formatNumber(schedule.completedLastDay)} completed
      {schedule.failedLastDay > 0 && (
        <span className="text-destructive"> · {formatNumber(schedule.failedLastDay)} failed</span>
      )}
      {schedule.pending > 0 && <span> · {formatNumber(schedule.pending)} waiting</span>}
    </div>
  );
  if (!run) {
    return (
      <div data-testid="schedule-last-run">
        <div className="text-muted-foreground">No run on record</div>
        {totals}
      </div>
    );
  }
  const badge = OUTCOME_BADGE[run.outcome];
  return (
    <div className="space-y-1" data-testid="schedule-last-run">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={badge.variant} data-testid="schedule-outcome">
          {badge.label}
        </Badge>
        <span className="whitespace-nowrap text-sm">
          <When iso={run.startedAt} />
          {run.durationMs !== null && (
            <span className="text-muted-foreground"> · {formatDuration(run.durationMs)}</span>
          )}
        </span>
      </div>
      {run.error && (
        <p className="line-clamp-2 text-xs break-words text-destructive" title={run.error}>
          {run.error}
        </p>
      )}
      {totals}
    </div>
  );
}

function NextRunCell({ schedule }: { schedule: AutomatedSchedule }) {
  if (schedule.paused) {
    return (
      <div data-testid="schedule-next-run">
        <Badge variant="secondary" data-testid="schedule-paused">
          Paused
        </Badge>
        {schedule.pausedAt && (
          <p className="mt-1 text-xs text-muted-foreground">
            {formatDateTime(schedule.pausedAt)}
            {schedule.pausedBy && <> by {schedule.pausedBy}</>}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="whitespace-nowrap" data-testid="schedule-next-run">
      {schedule.nextRunAt ? (
        <>
          <div>
            <When iso={schedule.nextRunAt} />
          </div>
          <div className="text-xs text-muted-foreground">{formatDateTime(schedule.nextRunAt)}</div>
        </>
      ) : (
        '—'
      )}
    </div>
  );
}

function Actions({
  schedule,
  onAction,
  className = 'flex-wrap',
}: {
  schedule: AutomatedSchedule;
  onAction: OnAction;
  className?: string;
}) {
  return (
    <div className={`flex justify-end gap-2 ${className}`}>
      <Button
        variant="outline"
        size="sm"
        onClick={() => onAction(schedule, 'run')}
        data-testid="run-schedule"
        aria-label={`Run ${schedule.name} now`}
      >
        <Zap aria-hidden="true" />
        Run now
      </Button>
      {schedule.paused ? (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onAction(schedule, 'resume')}
          data-testid="resume-schedule"
          aria-label={`Resume ${schedule.name}`}
        >
          <Play aria-hidden="true" />
          Resume
        </Button>
      ) : (
        <Button
          variant="outline"
          size="sm"
          onClick={() => onAction(schedule, 'pause')}
          data-testid="pause-schedule"
          aria-label={`Pause ${schedule.name}`}
        >
          <Pause aria-hidden="true" />
          Pause
        </Button>
      )}
    </div>
  );
}

function ScheduleRow({ schedule, onAction }: { schedule: AutomatedSchedule; onAction: OnAction }) {
  return (
    <TableRow data-testid="schedule-row" data-name={schedule.name}>
      <TableCell className="max-w-72 whitespace-normal">
        <div className="font-mono text-sm font-medium">{schedule.name}</div>
        <div className="text-xs text-muted-foreground">{schedule.description}</div>
      </TableCell>
      <TableCell className="whitespace-normal">
        <CronCell schedule={schedule} />
      </TableCell>
      <TableCell className="max-w-72 whitespace-normal">
        <LastRunCell run={schedule.lastRun} schedule={schedule} />
      </TableCell>
      <TableCell>
        <NextRunCell schedule={schedule} />
      </TableCell>
      <TableCell className="text-right">
        <Actions schedule={schedule} onAction={onAction} className="flex-nowrap" />
      </TableCell>
    </TableRow>
  );
}

/** A phone's view of one schedule: the same facts as the table's row, stacked. */
function ScheduleCard({ schedule, onAction }: { schedule: AutomatedSchedule; onAction: OnAction }) {
  return (
    <li
      className="space-y-3 rounded-lg border bg-card p-4"
      data-testid="schedule-row"
      data-name={schedule.name}
    >
      <div className="min-w-0">
        <p className="font-mono text-sm font-medium break-all">{schedule.name}</p>
        <p className="text-xs text-muted-foreground">{schedule.description}</p>
      </div>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <CardField label="Schedule (UTC)">
          <CronCell schedule={schedule} />
        </CardField>
        <CardField label="Next run">
          <NextRunCell schedule={schedule} />
        </CardField>
        <CardField label="Last run" className="col-span-2">
          <LastRunCell run={schedule.lastRun} schedule={schedule} />
        </CardField>
      </dl>
      <Actions schedule={schedule} onAction={onAction} />
    </li>
  );
}

const DIALOG: Record<ScheduleAction, { title: string; confirm: string; pending: string; effect: string }> = {
  run: {
    title: 'Run this job now?',
    confirm: 'Run now',
    pending: 'Queuing…',
    effect: 'is queued at once, outside its schedule; a worker picks it up within seconds.',
  },
  pause: {
    title: 'Pause this schedule?',
    confirm: 'Pause',
    pending: 'Pausing…',
    effect: 'stops running on its schedule until you resume it. You can still run it by hand.',
  },
  resume: {
    title: 'Resume this schedule?',
    confirm: 'Resume',
    pending: 'Resuming…',
    effect: 'runs on its schedule again from the next due time.',
  },
};

/** Every job that runs on a schedule: its cron, last and next run; run now, pause, resume. */
export default function AutomatedSchedulesPage() {
  const list = useSchedules();
  const action = useConfirmedAction(useScheduleAction(), (target: Pending) => ({
    name: target.schedule.name,
    action: target.action,
  }));
  const { pending, ask } = action;
  const onAction: OnAction = (schedule, kind) => ask({ schedule, action: kind });
  const schedules = list.data?.schedules;
  const paused = schedules?.filter((s) => s.paused).length ?? 0;
  const dialog = pending ? DIALOG[pending.action] : DIALOG.run;

  return (
    <div
      className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6"
      data-testid="automated-schedules-page"
    >
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Automated Schedules</h1>
          <p className="text-muted-foreground">
            Every background job that runs on a schedule (times in UTC): when it last ran and how that ended,
            when it runs next. Run one now, or pause its schedule.
          </p>
          {schedules && (
            <p className="text-sm text-muted-foreground" data-testid="schedule-totals">
              {formatNumber(schedules.length)} schedules · {formatNumber(paused)} paused
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

      {list.isError && (
        <QueryError
          title="Schedules could not be loaded"
          error={list.error}
          onRetry={() => list.refetch()}
          testId="schedules-error"
        />
      )}

      {!list.isError && schedules?.length === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center"
          data-testid="schedules-empty"
        >
          <CalendarOff className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">No job runs on a schedule</p>
          <p className="text-sm text-muted-foreground">Jobs with a cron in the job registry appear here.</p>
        </div>
      ) : (
        !list.isError && (
          <>
            <div className="hidden overflow-x-auto rounded-lg border md:block">
              <Table data-testid="schedules-table">
                <TableHeader>
                  <TableRow>
                    <TableHead>Job</TableHead>
                    <TableHead>Schedule (UTC)</TableHead>
                    <TableHead>Last run</TableHead>
                    <TableHead>Next run</TableHead>
                    <TableHead className="sr-only">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {schedules
                    ? schedules.map((schedule) => (
                        <ScheduleRow key={schedule.name} schedule={schedule} onAction={onAction} />
                      ))
                    : [0, 1, 2, 3].map((index) => (
                        <TableRow key={index}>
                          {[0, 1, 2, 3, 4].map((cell) => (
                            <TableCell key={cell}>
                              <Skeleton className="h-4 w-full max-w-32" />
                            </TableCell>
                          ))}
                        </TableRow>
                      ))}
                </TableBody>
              </Table>
            </div>
            <ul className="space-y-3 md:hidden" data-testid="schedules-cards">
              {schedules
                ? schedules.map((schedule) => (
                    <ScheduleCard key={schedule.name} schedule={schedule} onAction={onAction} />
                  ))
                : [0, 1, 2].map((index) => <Skeleton key={index} className="h-40 w-full" />)}
            </ul>
          </>
        )
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && action.dismiss()}
        title={dialog.title}
        description={
          pending && (
            <>
              <strong className="font-mono">{pending.schedule.name}</strong> {dialog.effect} The audit log
              records that you did it.
            </>
          )
        }
        confirmLabel={dialog.confirm}
        pendingLabel={dialog.pending}
        destructive={pending?.action === 'pause'}
        pending={action.busy}
        onConfirm={action.confirm}
        testId="schedule-action-dialog"
      />
    </div>
  );
}
