import { useId, useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type ChartConfig, ChartContainer, ChartTooltip, ChartTooltipContent } from '@/components/ui/chart';
import { formatNumber } from '@/lib/format';
import {
  type DayCount,
  fillSignupDays,
  formatDayLong,
  formatDayShort,
  niceCeiling,
  SIGNUP_WINDOW_DAYS,
  summariseSignups,
} from '../lib/signups';

const chartConfig = { count: { label: 'Sign-ups', color: 'var(--chart-1)' } } satisfies ChartConfig;

function dayOf(payload: readonly { payload?: unknown }[]): string {
  const day = (payload[0]?.payload as DayCount | undefined)?.day;
  return day ? formatDayLong(day) : '';
}

/**
 * Sign-ups per day as bars (Recharts). Sighted users get the bars (with a label on hover); screen
 * readers get a summary and a data table instead of thirty unlabeled shapes.
 */
export function SignupsChart({ points }: { points: DayCount[] }) {
  const series = useMemo(() => fillSignupDays(points), [points]);
  const summary = summariseSignups(series);
  const top = niceCeiling(summary.max);
  const summaryId = useId();

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
        <ChartContainer config={chartConfig} className="aspect-auto h-48 w-full" aria-hidden="true">
          <BarChart data={series} margin={{ top: 8, right: 4, left: -16, bottom: 0 }}>
            <CartesianGrid vertical={false} strokeDasharray="3 3" />
            <XAxis
              dataKey="day"
              tickLine={false}
              axisLine={false}
              tickMargin={6}
              minTickGap={24}
              tickFormatter={(day: string) => formatDayShort(day)}
            />
            <YAxis
              allowDecimals={false}
              tickLine={false}
              axisLine={false}
              width={40}
              domain={[0, top]}
              tickFormatter={(value: number) => formatNumber(value)}
            />
            <ChartTooltip
              cursor={false}
              content={<ChartTooltipContent labelFormatter={(_, payload) => dayOf(payload)} />}
            />
            <Bar dataKey="count" fill="var(--color-count)" radius={[3, 3, 0, 0]} minPointSize={1} />
          </BarChart>
        </ChartContainer>
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
