import type { AnalyticsDay } from '@shared/analytics';
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type ChartConfig, ChartContainer, ChartTooltip, ChartTooltipContent } from '@/components/ui/chart';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { formatDay } from '../lib/analytics-display';

const chartConfig = {
  sent: { label: 'Sent', color: 'var(--chart-1)' },
  replied: { label: 'Replied', color: 'var(--chart-2)' },
} satisfies ChartConfig;

/**
 * Sent, opened, clicked and replied per UTC day: bars (Recharts) of the messages sent and replies (the shape of the period at a
 * glance) above the day-by-day table that carries every figure (and is what screen readers read).
 */
export function DailyChart({ days }: { days: AnalyticsDay[] }) {
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
        <ChartContainer
          config={chartConfig}
          className="aspect-auto h-40 w-full"
          aria-hidden="true"
          data-testid="analytics-daily-bars"
        >
          <BarChart data={days} margin={{ top: 4, right: 4, left: -16, bottom: 0 }}>
            <CartesianGrid vertical={false} strokeDasharray="3 3" />
            <XAxis
              dataKey="date"
              tickLine={false}
              axisLine={false}
              tickMargin={6}
              minTickGap={24}
              tickFormatter={(date: string) => formatDay(date)}
            />
            <YAxis
              allowDecimals={false}
              tickLine={false}
              axisLine={false}
              width={40}
              tickFormatter={(value: number) => formatNumber(value)}
            />
            <ChartTooltip
              content={
                <ChartTooltipContent
                  labelFormatter={(_, payload) => {
                    const date = (payload[0]?.payload as AnalyticsDay | undefined)?.date;
                    return date ? formatDay(date) : '';
                  }}
                />
              }
            />
            <Bar dataKey="sent" fill="var(--color-sent)" radius={[3, 3, 0, 0]} />
            <Bar dataKey="replied" fill="var(--color-replied)" radius={[3, 3, 0, 0]} />
          </BarChart>
        </ChartContainer>
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
