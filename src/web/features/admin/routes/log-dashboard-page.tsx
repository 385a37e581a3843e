import { LOG_LEVEL_NAMES, type LogLine } from '@shared/admin-operations';
import { Link2, Search, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PagerPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { MONITOR_REFRESH_MS } from '../api/email-queue';
import { type LogFilters, useLogSearch } from '../api/operations';
import { MonitorFreshness } from '../components/monitor-freshness';

const PAGE_SIZE = 50;
const FILTER_KEYS = ['level', 'from', 'to', 'requestId', 'user', 'route', 'job', 'q'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];
const ANY_LEVEL = 'any';

const LEVEL_TONE: Record<string, string> = {
  fatal: 'bg-destructive text-white',
  error: 'bg-destructive/15 text-destructive',
  warn: 'bg-amber-500/15 text-amber-700 dark:text-amber-400',
  info: 'bg-sky-500/10 text-sky-700 dark:text-sky-400',
  debug: 'bg-muted text-muted-foreground',
  trace: 'bg-muted text-muted-foreground',
};

/** `datetime-local` speaks the browser's local time without a zone; the API wants an instant. */
function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function isoToLocal(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 16);
}

function filtersFrom(params: URLSearchParams): LogFilters {
  const filters: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  return filters as LogFilters;
}

function LevelBadge({ name }: { name: string }) {
  return (
    <span
      className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium uppercase ${LEVEL_TONE[name] ?? ''}`}
    >
      {name}
    </span>
  );
}

function LineDetails({ line, onRequest }: { line: LogLine; onRequest: (id: string) => void }) {
  const facts: [string, string | null][] = [
    ['Process', line.process],
    ['Route', line.route ? `${line.method ?? ''} ${line.route}`.trim() : null],
    ['Status', line.statusCode === null ? null : String(line.statusCode)],
    ['User', line.userEmail ?? line.userId],
    ['Job', line.job ? `${line.job}${line.jobId ? ` (${line.jobId})` : ''}` : null],
  ];
  return (
    <div className="min-w-0 space-y-1">
      <p className="break-words font-medium">
        {line.msg || <span className="text-muted-foreground">(no message)</span>}
      </p>
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
        {facts
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <span key={label}>
              {label}: <span className="text-foreground">{value}</span>
            </span>
          ))}
        {line.requestId && (
          <button
            type="button"
            className="inline-flex items-center gap-1 underline underline-offset-2 hover:text-foreground"
            onClick={() => onRequest(line.requestId!)}
            title="Show every line of this request"
            data-testid="request-link"
          >
            <Link2 className="size-3" aria-hidden="true" />
            request {line.requestId.slice(0, 8)}
          </button>
        )}
      </p>
      {line.data && (
        <details className="text-xs">
          <summary className="cursor-pointer text-muted-foreground">Details</summary>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-muted p-2 whitespace-pre-wrap break-all">
            {JSON.stringify(line.data, null, 2)}
          </pre>
        </details>
      )}
    </div>
  );
}

function FilterForm({ filters, onApply }: { filters: LogFilters; onApply: (next: LogFilters) => void }) {
  const [draft, setDraft] = useState<Record<FilterKey, string>>(() => ({
    level: filters.level ?? ANY_LEVEL,
    from: isoToLocal(filters.from ?? null),
    to: isoToLocal(filters.to ?? null),
    requestId: filters.requestId ?? '',
    user: filters.user ?? '',
    route: filters.route ?? '',
    job: filters.job ?? '',
    q: filters.q ?? '',
  }));
  const set = (key: FilterKey) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      level: draft.level === ANY_LEVEL ? undefined : (draft.level as LogFilters['level']),
      from: localToIso(draft.from),
      to: localToIso(draft.to),
      requestId: draft.requestId.trim() || undefined,
      user: draft.user.trim() || undefined,
      route: draft.route.trim() || undefined,
      job: draft.job.trim() || undefined,
      q: draft.q.trim() || undefined,
    });
  };
  const text = (key: FilterKey, label: string, placeholder: string) => (
    <div className="space-y-1">
      <Label htmlFor={`log-${key}`} className="text-xs">
        {label}
      </Label>
      <Input
        id={`log-${key}`}
        value={draft[key]}
        onChange={set(key)}
        placeholder={placeholder}
        className="h-9"
      />
    </div>
  );
  return (
    <form
      onSubmit={submit}
      className="grid gap-3 rounded-lg border bg-card p-4 sm:grid-cols-2 lg:grid-cols-4"
      data-testid="log-filters"
    >
      {text('q', 'Message contains', 'e.g. job failed')}
      <div className="space-y-1">
        <Label htmlFor="log-level" className="text-xs">
          Lowest level
        </Label>
        <Select value={draft.level} onValueChange={(value) => setDraft((c) => ({ ...c, level: value }))}>
          <SelectTrigger id="log-level" className="h-9 w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY_LEVEL}>Any level</SelectItem>
            {LOG_LEVEL_NAMES.map((name) => (
              <SelectItem key={name} value={name}>
                {name} and above
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="space-y-1">
        <Label htmlFor="log-from" className="text-xs">
          From
        </Label>
        <Input
          id="log-from"
          type="datetime-local"
          value={draft.from}
          onChange={set('from')}
          className="h-9"
        />
      </div>
      <div className="space-y-1">
        <Label htmlFor="log-to" className="text-xs">
          To
        </Label>
        <Input id="log-to" type="datetime-local" value={draft.to} onChange={set('to')} className="h-9" />
      </div>
      {text('requestId', 'Request id', 'all lines of one request')}
      {text('user', 'User', 'email or id')}
      {text('route', 'Route', 'e.g. /api/campaigns')}
      {text('job', 'Job', 'e.g. dispatch-outbox')}
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
        <Button type="submit" size="sm" data-testid="search-logs">
          <Search aria-hidden="true" />
          Search
        </Button>
        <Button
          type="button"
          size="sm"
          variant="ghost"
          onClick={() => {
            setDraft({
              level: ANY_LEVEL,
              from: '',
              to: '',
              requestId: '',
              user: '',
              route: '',
              job: '',
              q: '',
            });
            onApply({});
          }}
        >
          <X aria-hidden="true" />
          Clear filters
        </Button>
      </div>
    </form>
  );
}

/** The web and worker logs, searchable; a request id gathers one request's lines. */
export default function LogDashboardPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const filterKey = JSON.stringify(filters);
  const pager = useCursorPages(filterKey);
  const search = useLogSearch(filters, pager.cursor ?? undefined, PAGE_SIZE);
  const data = search.data;
  const apply = (next: LogFilters) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) search.set(key, String(value));
    setParams(search);
  };
  const hasFilters = Object.keys(filters).length > 0;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6" data-testid="log-dashboard-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Logs</h1>
          <p className="text-muted-foreground">
            What the web and worker processes logged, newest first. Passwords, tokens and query values are
            never kept.
          </p>
        </div>
        <MonitorFreshness
          updatedAt={search.dataUpdatedAt}
          fetching={search.isFetching}
          onRefresh={() => search.refetch()}
          intervalSeconds={MONITOR_REFRESH_MS / 1000}
        />
      </header>

      <FilterForm key={filterKey} filters={filters} onApply={apply} />

      {filters.requestId && (
        <p className="text-sm" data-testid="request-filter-note">
          Every line of request <code className="rounded bg-muted px-1">{filters.requestId}</code>, newest
          first.{' '}
          <button
            type="button"
            className="underline"
            onClick={() => apply({ ...filters, requestId: undefined })}
          >
            Show all requests
          </button>
        </p>
      )}

      {search.isError && (
        <QueryError
          title="The logs could not be searched"
          error={search.error}
          onRetry={() => search.refetch()}
        />
      )}

      {!data && !search.isError && <Skeleton className="h-96 w-full" />}
      {data && data.lines.length === 0 && (
        <p
          className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground"
          data-testid="logs-empty"
        >
          {hasFilters ? 'No line matches these filters.' : 'No line has been logged yet.'}
        </p>
      )}
      {data && data.lines.length > 0 && (
        <ol className="divide-y rounded-lg border bg-card" data-testid="log-lines">
          {data.lines.map((line) => (
            <li
              key={line.id}
              className="grid gap-2 px-4 py-3 text-sm sm:grid-cols-[9.5rem_4rem_1fr]"
              data-testid="log-line"
            >
              <div className="flex items-center gap-2 sm:contents">
                <time
                  dateTime={line.time}
                  title={formatRelative(line.time)}
                  className="text-xs whitespace-nowrap text-muted-foreground tabular-nums"
                >
                  {formatDateTime(line.time)}
                </time>
                <span>
                  <LevelBadge name={line.levelName} />
                </span>
              </div>
              <LineDetails line={line} onRequest={(requestId) => apply({ requestId })} />
            </li>
          ))}
        </ol>
      )}
      {data && (
        <PagerPagination
          pager={pager}
          pageSize={PAGE_SIZE}
          rows={data.lines.length}
          nextCursor={data.nextCursor}
          busy={search.isFetching}
          noun="lines"
        />
      )}

      {data && (
        <footer className="space-y-1 text-xs text-muted-foreground" data-testid="log-bounds">
          <p>
            The table keeps the newest {formatNumber(data.maxRows)} lines for at most {data.retentionDays}{' '}
            days
            {data.oldestAt ? `; the oldest kept is from ${formatDateTime(data.oldestAt)}` : ''}. Older lines
            are removed every 10 minutes.
          </p>
          <p>
            This web process has stored {formatNumber(data.sink.written)} lines since it started
            {data.sink.dropped > 0 && (
              <Badge variant="destructive" className="ml-2">
                {formatNumber(data.sink.dropped)} dropped while the database was slow
              </Badge>
            )}
            . Alerts on the error rate are on the{' '}
            <Link className="underline" to="/admin/alerting-dashboard">
              Alerting
            </Link>{' '}
            screen; in-memory caches on the{' '}
            <Link className="underline" to="/admin/cache-monitor">
              Cache Monitor
            </Link>
            .
          </p>
        </footer>
      )}
    </div>
  );
}
