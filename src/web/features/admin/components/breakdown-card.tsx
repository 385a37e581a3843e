import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';

export interface BreakdownRow {
  key: string;
  label: string;
  count: number;
}

/** Counts per category with a proportional bar, e.g. users by role. */
export function BreakdownCard({
  title,
  description,
  rows,
  testId,
}: {
  title: string;
  description: string;
  rows: BreakdownRow[];
  testId?: string;
}) {
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle>
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="space-y-4">
          {rows.map((row) => {
            const share = total > 0 ? Math.round((row.count / total) * 100) : 0;
            return (
              <div key={row.key} className="space-y-1.5" data-testid={testId && `${testId}-${row.key}`}>
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <dt className="font-medium">{row.label}</dt>
                  <dd className="tabular-nums text-muted-foreground">
                    <span className="font-semibold text-foreground">{formatNumber(row.count)}</span>
                    <span className="ml-1.5 text-xs">({share}%)</span>
                  </dd>
                </div>
                <div className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                  <div
                    className="h-full rounded-full bg-primary transition-[width]"
                    style={{ width: `${share}%` }}
                  />
                </div>
              </div>
            );
          })}
        </dl>
      </CardContent>
    </Card>
  );
}
