import { useId } from 'react';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Line, LineChart, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  type ChartConfig,
  ChartContainer,
  ChartLegend,
  ChartLegendContent,
  ChartTooltip,
  ChartTooltipContent,
} from '@/components/ui/chart';
import { formatNumber } from '@/lib/format';

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

type Point = { [key: string]: string | number | null };

/**
 * One chart of figures over time (Recharts through the shadcn/ui chart component). The picture is for
 * looking; a visually hidden table carries every figure for screen readers. Bars do not grow in: the
 * monitors refresh on their own, and a redraw (or a resize) would replay the animation from zero.
 */
export function TimeSeriesChart({
  title,
  description,
  data,
  xKey,
  series,
  kind,
  stacked = false,
  formatX,
  formatValue = formatNumber,
  testId,
}: {
  title: string;
  description: string;
  data: Point[];
  xKey: string;
  series: ChartSeries[];
  kind: 'bar' | 'line' | 'area';
  stacked?: boolean;
  formatX: (value: string) => string;
  formatValue?: (value: number) => string;
  testId: string;
}) {
  const descriptionId = useId();
  const config = Object.fromEntries(
    series.map((s) => [s.key, { label: s.label, color: s.color }]),
  ) satisfies ChartConfig;
  const axes = (
    <>
      <CartesianGrid vertical={false} strokeDasharray="3 3" />
      <XAxis
        dataKey={xKey}
        tickLine={false}
        axisLine={false}
        tickMargin={6}
        minTickGap={28}
        tickFormatter={(value: string) => formatX(value)}
      />
      <YAxis
        tickLine={false}
        axisLine={false}
        width={48}
        allowDecimals={false}
        tickFormatter={(value: number) => formatValue(value)}
      />
      <ChartTooltip
        content={
          <ChartTooltipContent
            labelFormatter={(_, payload) => {
              const x = (payload[0]?.payload as Point | undefined)?.[xKey];
              return typeof x === 'string' ? formatX(x) : '';
            }}
            formatter={(value, name, item) => (
              <div className="flex w-full items-center gap-2">
                <span className="size-2.5 shrink-0 rounded-[2px]" style={{ backgroundColor: item.color }} />
                <span className="text-muted-foreground">{config[String(name)]?.label ?? name}</span>
                <span className="ml-auto font-mono font-medium tabular-nums">
                  {typeof value === 'number' ? formatValue(value) : '—'}
                </span>
              </div>
            )}
          />
        }
      />
      {series.length > 1 && <ChartLegend content={<ChartLegendContent />} />}
    </>
  );
  const stackId = stacked ? 'stack' : undefined;

  return (
    <Card className="min-w-0 gap-3" data-testid={testId}>
      <CardHeader>
        <CardTitle>
          <h2 className="text-base">{title}</h2>
        </CardTitle>
        <CardDescription id={descriptionId}>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <ChartContainer config={config} className="aspect-auto h-56 w-full" aria-hidden="true">
          {kind === 'bar' ? (
            <BarChart data={data} margin={{ top: 4, right: 4, left: 0, bottom: 0 }}>
              {axes}
              {series.map((s) => (
                <Bar
                  key={s.key}
                  dataKey={s.key}
                  stackId={stackId}
                  fill={`var(--color-${s.key})`}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          ) : kind === 'area' ? (
            <AreaChart data={data} margin={{ top: 4, right: 4, left: 0, bottom: 0 }}>
              {axes}
              {series.map((s) => (
                <Area
                  key={s.key}
                  dataKey={s.key}
                  stackId={stackId}
                  type="monotone"
                  stroke={`var(--color-${s.key})`}
                  fill={`var(--color-${s.key})`}
                  fillOpacity={0.25}
                />
              ))}
            </AreaChart>
          ) : (
            <LineChart data={data} margin={{ top: 4, right: 4, left: 0, bottom: 0 }}>
              {axes}
              {series.map((s) => (
                <Line
                  key={s.key}
                  dataKey={s.key}
                  type="monotone"
                  stroke={`var(--color-${s.key})`}
                  strokeWidth={2}
                  dot={false}
                  connectNulls
                />
              ))}
            </LineChart>
          )}
        </ChartContainer>
        <table className="sr-only" aria-describedby={descriptionId}>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {series.map((s) => (
                <th key={s.key} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((point) => (
              <tr key={String(point[xKey])}>
                <th scope="row">{formatX(String(point[xKey]))}</th>
                {series.map((s) => {
                  const value = point[s.key];
                  return <td key={s.key}>{typeof value === 'number' ? formatValue(value) : '—'}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
