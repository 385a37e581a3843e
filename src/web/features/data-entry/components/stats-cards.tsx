import { BadgeCheck, CircleSlash, PlusCircle } from 'lucide-react';
import { QueryError } from '@/components/query-error';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { type DataEntryStats, useDataEntryStats } from '../api/data-entry';

const METRICS = [
  { key: 'added', label: 'Added', icon: PlusCircle, tone: 'bg-primary' },
  { key: 'verified', label: 'Verified', icon: BadgeCheck, tone: 'bg-success' },
  { key: 'invalidated', label: 'Marked invalid', icon: CircleSlash, tone: 'bg-destructive' },
] as const;

function dayLabel(date: string): string {
  const parsed = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(parsed.getTime())
    ? date
    : new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' }).format(parsed);
}

/** Seven days of work as small grouped bars: enough to see a rhythm, no chart library needed. */
function WeekBars({ daily }: { daily: DataEntryStats['daily'] }) {
  const max = Math.max(1, ...daily.flatMap((day) => [day.added, day.verified, day.invalidated]));
  return (
    <figure className="grid gap-2">
      <div className="flex h-16 items-end gap-2" aria-hidden="true">
        {daily.map((day) => (
          <div key={day.date} className="flex h-full flex-1 items-end justify-center gap-0.5">
            {METRICS.map((metric) => (
              <div
                key={metric.key}
                className={cn('w-2 rounded-t-sm sm:w-2.5', metric.tone)}
                style={{
                  height: `${Math.max(2, (day[metric.key] / max) * 100)}%`,
                  opacity: day[metric.key] ? 1 : 0.2,
                }}
              />
            ))}
          </div>
        ))}
      </div>
      <div className="flex gap-2 text-center text-xs text-muted-foreground" aria-hidden="true">
        {daily.map((day) => (
          <span key={day.date} className="flex-1">
            {dayLabel(day.date)}
          </span>
        ))}
      </div>
      <figcaption className="sr-only">
        {daily
          .map(
            (day) =>
              `${dayLabel(day.date)}: ${day.added} added, ${day.verified} verified, ${day.invalidated} invalid`,
          )
          .join('; ')}
      </figcaption>
    </figure>
  );
}

export function StatsCards() {
  const stats = useDataEntryStats();
  if (stats.isError) {
    return (
      <QueryError
        title="Your numbers could not be loaded"
        error={stats.error}
        onRetry={() => stats.refetch()}
      />
    );
  }
  const data = stats.data;
  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
      <div className="grid gap-4 sm:grid-cols-3" data-testid="data-entry-stats">
        {METRICS.map((metric) => (
          <Card key={metric.key} className="gap-2 py-5">
            <CardHeader className="px-5">
              <CardDescription className="flex items-center gap-2">
                <metric.icon className="size-4" aria-hidden="true" />
                {metric.label} today
              </CardDescription>
              <CardTitle className="text-3xl tabular-nums" data-testid={`stat-today-${metric.key}`}>
                {data ? formatNumber(data.today[metric.key]) : <Skeleton className="h-8 w-12" />}
              </CardTitle>
            </CardHeader>
            <CardContent className="px-5 text-sm text-muted-foreground">
              {data ? (
                `${formatNumber(data.last7Days[metric.key])} in the last 7 days`
              ) : (
                <Skeleton className="h-4 w-32" />
              )}
            </CardContent>
          </Card>
        ))}
      </div>
      <Card className="gap-3 py-5">
        <CardHeader className="px-5">
          <CardTitle className="text-sm">
            <h2>Last 7 days</h2>
          </CardTitle>
          <CardDescription className="flex flex-wrap gap-x-3 text-xs">
            {METRICS.map((metric) => (
              <span key={metric.key} className="inline-flex items-center gap-1">
                <span className={cn('size-2 rounded-full', metric.tone)} aria-hidden="true" />
                {metric.label}
              </span>
            ))}
          </CardDescription>
        </CardHeader>
        <CardContent className="px-5">
          {data ? <WeekBars daily={data.daily} /> : <Skeleton className="h-32" />}
        </CardContent>
      </Card>
    </div>
  );
}
