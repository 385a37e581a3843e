import { useId, useMemo } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  type DayCount,
  fillSignupDays,
  formatDayLong,
  formatDayShort,
  niceCeiling,
  SIGNUP_WINDOW_DAYS,
  summariseSignups,
} from '../lib/signups';

/**
 * Sign-ups per day as CSS bars. Sighted users get the bars (with a label on hover); screen
 * readers get a summary and a data table instead of thirty unlabeled shapes.
 */
export function SignupsChart({ points }: { points: DayCount[] }) {
  const series = useMemo(() => fillSignupDays(points), [points]);
  const summary = summariseSignups(series);
  const top = niceCeiling(summary.max);
  const summaryId = useId();
  const lastIndex = series.length - 1;

  return (
    <Card data-testid="signups-chart">
      <CardHeader>
        <CardTitle>
          <h2>Sign-ups, last {SIGNUP_WINDOW_DAYS} days</h2>
        </CardTitle>
        <CardDescription id={summaryId}>
          {summary.total === 0
            ? 'No one signed up in the last 30 days.'
            : `${formatNumber(summary.total)} new ${summary.total === 1 ? 'account' : 'accounts'}` +
              (summary.busiest
                ? `; busiest day ${formatDayLong(summary.busiest.day)} with ${formatNumber(summary.busiest.count)}.`
                : '.')}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex gap-2" aria-hidden="true">
          <div className="flex h-44 w-8 shrink-0 flex-col justify-between pb-0 text-right text-xs tabular-nums text-muted-foreground">
            <span className="-translate-y-1/2">{formatNumber(top)}</span>
            <span>{top % 2 === 0 ? formatNumber(top / 2) : ''}</span>
            <span className="translate-y-1/2">0</span>
          </div>
          <div className="min-w-0 flex-1">
            <div className="relative h-44 border-b border-l border-border">
              <div className="absolute inset-x-0 top-0 border-t border-dashed border-border" />
              <div className="absolute inset-x-0 top-1/2 border-t border-dashed border-border" />
              <div className="absolute inset-0 flex items-end gap-[2px] px-[2px]">
                {series.map((point) => {
                  const height = point.count === 0 ? 0 : Math.max(2, (point.count / top) * 100);
                  return (
                    <div key={point.day} className="group relative flex h-full flex-1 items-end">
                      <div
                        className={cn(
                          'w-full rounded-t-sm bg-primary/80 transition-colors group-hover:bg-primary',
                          point.count === 0 && 'h-px bg-border',
                        )}
                        style={point.count === 0 ? undefined : { height: `${height}%` }}
                        data-testid="signups-bar"
                        data-day={point.day}
                        data-count={point.count}
                      />
                      <div className="pointer-events-none absolute bottom-full left-1/2 z-10 mb-1 hidden -translate-x-1/2 whitespace-nowrap rounded-md bg-foreground px-2 py-1 text-xs text-background shadow-md group-hover:block">
                        {formatDayShort(point.day)}: {formatNumber(point.count)}
                      </div>
                    </div>
                  );
                })}
              </div>
            </div>
            <div className="mt-1.5 flex gap-[2px] px-[2px] text-xs text-muted-foreground">
              {series.map((point, index) => (
                <div key={point.day} className="relative h-4 flex-1">
                  {(index === lastIndex || (index % 7 === 0 && lastIndex - index >= 4)) && (
                    <span
                      className={cn(
                        'absolute top-0 whitespace-nowrap',
                        // Narrow screens keep the ends and the middle label only.
                        index !== 0 && index !== lastIndex && index !== 14 && 'hidden sm:inline',
                        index === 0
                          ? 'left-0'
                          : index === lastIndex
                            ? 'right-0'
                            : 'left-1/2 -translate-x-1/2',
                      )}
                    >
                      {formatDayShort(point.day)}
                    </span>
                  )}
                </div>
              ))}
            </div>
          </div>
        </div>
        <table className="sr-only" aria-describedby={summaryId}>
          <caption>Sign-ups per day, last {SIGNUP_WINDOW_DAYS} days</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Sign-ups</th>
            </tr>
          </thead>
          <tbody>
            {series.map((point) => (
              <tr key={point.day}>
                <th scope="row">{formatDayLong(point.day)}</th>
                <td>{point.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
