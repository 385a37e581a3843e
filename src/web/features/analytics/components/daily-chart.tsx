import type { AnalyticsDay } from '@shared/analytics';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { barPercent, formatDay } from '../lib/analytics-display';

/**
 * Sent, opened, clicked and replied per UTC day: bars of the messages sent (the shape of the period at a
 * glance) above the day-by-day table that carries every figure (and is what screen readers read).
 */
export function DailyChart({ days }: { days: AnalyticsDay[] }) {
  const max = Math.max(0, ...days.map((d) => d.sent));
  return (
    <Card data-testid="analytics-daily">
      <CardHeader>
        <CardTitle>
          <h2>Day by day</h2>
        </CardTitle>
        <CardDescription>
          Messages sent each day (UTC), with the opens, clicks and replies of that day.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div
          className="flex h-32 items-end gap-px border-b"
          aria-hidden="true"
          data-testid="analytics-daily-bars"
        >
          {days.map((day) => (
            <div
              key={day.date}
              className="flex h-full flex-1 items-end"
              title={`${formatDay(day.date)}: ${day.sent} sent, ${day.opened} opened, ${day.clicked} clicked, ${day.replied} replied`}
            >
              <div
                className="w-full rounded-t-sm bg-primary/70"
                style={{ height: `${barPercent(day.sent, max)}%` }}
              />
            </div>
          ))}
        </div>
        <div className="max-h-80 overflow-auto rounded-lg border">
          <Table>
            <TableHeader className="sticky top-0 bg-card">
              <TableRow>
                <TableHead>Day</TableHead>
                <TableHead className="text-right">Sent</TableHead>
                <TableHead className="text-right">Opened</TableHead>
                <TableHead className="text-right">Clicked</TableHead>
                <TableHead className="text-right">Replied</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {[...days].reverse().map((day) => (
                <TableRow key={day.date} data-testid="analytics-day">
                  <TableCell>
                    <time dateTime={day.date}>{formatDay(day.date)}</time>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(day.sent)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(day.opened)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(day.clicked)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(day.replied)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </CardContent>
    </Card>
  );
}
