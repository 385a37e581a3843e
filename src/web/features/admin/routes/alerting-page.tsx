import type { AlertRule, Alert as AlertView } from '@shared/admin-operations';
import { BellRing, CheckCircle2, Loader2, PlayCircle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/errors';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { MONITOR_REFRESH_MS } from '../api/email-queue';
import {
  useAcknowledgeAlert,
  useAlertingOverview,
  useEvaluateAlerts,
  useUpdateAlertRule,
} from '../api/operations';
import { MonitorFreshness } from '../components/monitor-freshness';

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-muted-foreground">—</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

const STATE_BADGE: Record<
  AlertView['state'],
  { label: string; variant: 'destructive' | 'secondary' | 'outline' }
> = {
  open: { label: 'Open', variant: 'destructive' },
  acknowledged: { label: 'Acknowledged', variant: 'secondary' },
  resolved: { label: 'Resolved', variant: 'outline' },
};

function notifyResult(promise: Promise<{ message: string }>) {
  promise.then(
    (result) => toast({ title: 'Done', description: result.message }),
    (error: unknown) =>
      toast({
        title: 'Not done',
        description: getErrorMessage(error, 'Please try again.'),
        variant: 'destructive',
      }),
  );
}

function ActiveAlerts({ alerts }: { alerts: AlertView[] }) {
  const acknowledge = useAcknowledgeAlert();
  if (alerts.length === 0) {
    return (
      <div
        className="flex items-center gap-3 rounded-lg border border-dashed px-6 py-6 text-sm"
        data-testid="no-active-alerts"
      >
        <CheckCircle2 className="size-6 text-muted-foreground" aria-hidden="true" />
        <p className="text-muted-foreground">No alert is open. Every enabled rule is below its threshold.</p>
      </div>
    );
  }
  return (
    <ul className="grid gap-3 lg:grid-cols-2">
      {alerts.map((alert) => (
        <li key={alert.id} data-testid="active-alert">
          <Card className={`gap-2 ${alert.state === 'open' ? 'border-destructive/60' : ''}`}>
            <CardHeader className="flex flex-row items-start justify-between gap-3">
              <CardTitle className="flex items-center gap-2 text-base">
                <BellRing className="size-4 text-destructive" aria-hidden="true" />
                {alert.ruleName}
              </CardTitle>
              <Badge variant={STATE_BADGE[alert.state].variant}>{STATE_BADGE[alert.state].label}</Badge>
            </CardHeader>
            <CardContent className="space-y-2 text-sm">
              <p className="break-words">{alert.message}</p>
              <p className="text-muted-foreground">
                Opened <When iso={alert.openedAt} /> · now {formatNumber(alert.lastValue)} {alert.unit} ·{' '}
                {alert.notified > 0
                  ? `mailed to ${alert.notified} super admin${alert.notified === 1 ? '' : 's'}`
                  : 'no mail sent'}
                {alert.acknowledgedBy && ` · acknowledged by ${alert.acknowledgedBy}`}
              </p>
              {alert.state === 'open' && (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={acknowledge.isPending}
                  onClick={() => notifyResult(acknowledge.mutateAsync(alert.id))}
                  data-testid="acknowledge-alert"
                >
                  Acknowledge
                </Button>
              )}
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}

function RuleRow({ rule }: { rule: AlertRule }) {
  const update = useUpdateAlertRule();
  const [threshold, setThreshold] = useState(String(rule.threshold));
  const [error, setError] = useState<string | null>(null);
  const changed = threshold.trim() !== String(rule.threshold);
  const inputId = `threshold-${rule.key}`;

  const save = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(threshold);
    if (threshold.trim() === '' || !Number.isFinite(value) || value < 0) {
      setError('Enter a number of 0 or more.');
      return;
    }
    setError(null);
    notifyResult(
      update.mutateAsync({ key: rule.key, update: { threshold: value } }).then((saved) => ({
        message: `${saved.name}: the threshold is now ${formatNumber(saved.threshold)} ${saved.unit}.`,
      })),
    );
  };

  return (
    <li className="space-y-3 rounded-lg border bg-card p-4 text-sm" data-testid="alert-rule">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <p className="font-medium">{rule.name}</p>
          <p className="text-muted-foreground">{rule.description}</p>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <Label htmlFor={`enabled-${rule.key}`} className="text-xs text-muted-foreground">
            {rule.enabled ? 'On' : 'Off'}
          </Label>
          <Switch
            id={`enabled-${rule.key}`}
            checked={rule.enabled}
            disabled={update.isPending}
            aria-label={`${rule.enabled ? 'Switch off' : 'Switch on'} ${rule.name}`}
            onCheckedChange={(enabled) =>
              notifyResult(
                update
                  .mutateAsync({ key: rule.key, update: { enabled } })
                  .then((saved) => ({ message: `${saved.name} is ${saved.enabled ? 'on' : 'off'}.` })),
              )
            }
          />
        </div>
      </div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="min-w-0 text-muted-foreground" data-testid="rule-last-value">
          {rule.lastEvaluatedAt ? (
            <>
              Now{' '}
              <strong className="text-foreground">
                {formatNumber(rule.lastValue ?? 0)} {rule.unit}
              </strong>{' '}
              · {rule.lastDetail} (checked <When iso={rule.lastEvaluatedAt} />)
            </>
          ) : (
            'Not checked yet: the check runs every minute on a worker.'
          )}
        </p>
        <form className="flex items-end gap-2" onSubmit={save}>
          <div className="space-y-1">
            <Label htmlFor={inputId} className="text-xs">
              Threshold ({rule.unit})
            </Label>
            <Input
              id={inputId}
              inputMode="decimal"
              className="h-8 w-28"
              value={threshold}
              onChange={(e) => setThreshold(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
            />
          </div>
          <Button type="submit" size="sm" disabled={!changed || update.isPending}>
            Save
          </Button>
        </form>
      </div>
      {error && (
        <p id={`${inputId}-error`} className="text-destructive" role="alert">
          {error}
        </p>
      )}
      {rule.updatedBy && (
        <p className="text-xs text-muted-foreground">
          Last changed by {rule.updatedBy} <When iso={rule.updatedAt} /> · default{' '}
          {formatNumber(rule.defaultThreshold)} {rule.unit}
        </p>
      )}
    </li>
  );
}

function History({ alerts }: { alerts: AlertView[] }) {
  if (alerts.length === 0) {
    return (
      <p
        className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground"
        data-testid="history-empty"
      >
        No alert has fired yet.
      </p>
    );
  }
  return (
    <>
      <div className="hidden overflow-x-auto rounded-lg border md:block">
        <Table data-testid="alert-history">
          <TableHeader>
            <TableRow>
              <TableHead>Rule</TableHead>
              <TableHead>State</TableHead>
              <TableHead className="text-right">Value</TableHead>
              <TableHead className="text-right">Threshold</TableHead>
              <TableHead>Opened</TableHead>
              <TableHead>Acknowledged</TableHead>
              <TableHead>Resolved</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {alerts.map((alert) => (
              <TableRow key={alert.id} data-testid="alert-history-row">
                <TableCell className="font-medium whitespace-nowrap" title={alert.message}>
                  {alert.ruleName}
                </TableCell>
                <TableCell>
                  <Badge variant={STATE_BADGE[alert.state].variant}>{STATE_BADGE[alert.state].label}</Badge>
                </TableCell>
                <TableCell className="text-right tabular-nums whitespace-nowrap">
                  {formatNumber(alert.value)} {alert.unit}
                </TableCell>
                <TableCell className="text-right tabular-nums whitespace-nowrap">
                  {formatNumber(alert.threshold)} {alert.unit}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  <When iso={alert.openedAt} />
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {alert.acknowledgedAt ? (
                    <span title={alert.acknowledgedBy ?? undefined}>
                      <When iso={alert.acknowledgedAt} />
                    </span>
                  ) : (
                    '—'
                  )}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  <When iso={alert.resolvedAt} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="space-y-3 md:hidden">
        {alerts.map((alert) => (
          <li
            key={alert.id}
            className="space-y-1 rounded-lg border bg-card p-4 text-sm"
            data-testid="alert-history-card"
          >
            <div className="flex items-center justify-between gap-2">
              <p className="font-medium">{alert.ruleName}</p>
              <Badge variant={STATE_BADGE[alert.state].variant}>{STATE_BADGE[alert.state].label}</Badge>
            </div>
            <p className="text-muted-foreground">
              {formatNumber(alert.value)} {alert.unit} (threshold {formatNumber(alert.threshold)}) · opened{' '}
              <When iso={alert.openedAt} />
              {alert.resolvedAt && (
                <>
                  {' '}
                  · resolved <When iso={alert.resolvedAt} />
                </>
              )}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Alert rules with their thresholds, the alerts they opened, and who acknowledged them. */
export default function AlertingPage() {
  const overview = useAlertingOverview();
  const evaluate = useEvaluateAlerts();
  const data = overview.data;
  const active = data?.alerts.filter((a) => a.state !== 'resolved') ?? [];

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6" data-testid="alerting-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Alerting</h1>
          <p className="text-muted-foreground">
            Rules are checked every minute. When one reaches its threshold an alert opens and every super
            admin gets an email; it resolves by itself when the condition clears.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <MonitorFreshness
            updatedAt={overview.dataUpdatedAt}
            fetching={overview.isFetching}
            onRefresh={() => overview.refetch()}
            intervalSeconds={MONITOR_REFRESH_MS / 1000}
          />
          <Button
            variant="outline"
            size="sm"
            disabled={evaluate.isPending}
            onClick={() => notifyResult(evaluate.mutateAsync())}
            data-testid="evaluate-now"
          >
            {evaluate.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <PlayCircle aria-hidden="true" />
            )}
            Check now
          </Button>
        </div>
      </header>

      {overview.isError && (
        <QueryError
          title="Alerts could not be loaded"
          error={overview.error}
          onRetry={() => overview.refetch()}
        />
      )}

      <section className="space-y-3" aria-labelledby="active-alerts-title">
        <h2 id="active-alerts-title" className="text-lg font-semibold">
          Active alerts
        </h2>
        {data ? <ActiveAlerts alerts={active} /> : !overview.isError && <Skeleton className="h-24 w-full" />}
      </section>

      <section className="space-y-3" aria-labelledby="rules-title">
        <h2 id="rules-title" className="text-lg font-semibold">
          Rules
        </h2>
        {data ? (
          <ul className="grid gap-3 lg:grid-cols-2" data-testid="alert-rules">
            {data.rules.map((rule) => (
              <RuleRow key={`${rule.key}:${rule.threshold}`} rule={rule} />
            ))}
          </ul>
        ) : (
          !overview.isError && <Skeleton className="h-64 w-full" />
        )}
      </section>

      <section className="space-y-3" aria-labelledby="history-title">
        <h2 id="history-title" className="text-lg font-semibold">
          History
        </h2>
        {data ? <History alerts={data.alerts} /> : !overview.isError && <Skeleton className="h-32 w-full" />}
      </section>

      <p className="text-sm text-muted-foreground">
        Errors behind an alert are in the{' '}
        <Link className="underline" to="/admin/log-dashboard">
          Logs
        </Link>
        ; the app's in-memory caches are on the{' '}
        <Link className="underline" to="/admin/cache-monitor">
          Cache Monitor
        </Link>
        .
      </p>
    </div>
  );
}
