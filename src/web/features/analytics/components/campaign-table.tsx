import type { AnalyticsCampaign } from '@shared/analytics';
import { formatMoney } from '@shared/currency';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatNumber } from '@/lib/format';
import { campaignHref, KIND_LABELS, rateOf } from '../lib/analytics-display';

/** Each campaign, newsletter and bulk email with activity in the period, busiest first. */
export function CampaignTable({ rows }: { rows: AnalyticsCampaign[] }) {
  return (
    <Card data-testid="analytics-campaigns">
      <CardHeader>
        <CardTitle>
          <h2>By campaign</h2>
        </CardTitle>
        <CardDescription>Rates are of the messages each one sent in the period.</CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="analytics-campaigns-empty">
            Nothing was sent or won in this period.
          </p>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Kind</TableHead>
                  <TableHead className="text-right">Sent</TableHead>
                  <TableHead className="text-right">Open %</TableHead>
                  <TableHead className="text-right">Click %</TableHead>
                  <TableHead className="text-right">Reply %</TableHead>
                  <TableHead className="text-right">Won</TableHead>
                  <TableHead className="text-right">Revenue</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => {
                  const href = campaignHref(row);
                  return (
                    <TableRow key={row.id} data-testid="analytics-campaign-row">
                      <TableCell className="max-w-64 truncate font-medium">
                        {href ? (
                          <Link to={href} className="text-primary underline-offset-4 hover:underline">
                            {row.name}
                          </Link>
                        ) : (
                          row.name
                        )}
                      </TableCell>
                      <TableCell>
                        <Badge variant="secondary">{KIND_LABELS[row.kind]}</Badge>
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{formatNumber(row.sent)}</TableCell>
                      <TableCell className="text-right tabular-nums">
                        {rateOf(row.openedHuman, row.sent)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">
                        {rateOf(row.clicked, row.sent)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">
                        {rateOf(row.replied, row.sent)}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{formatNumber(row.won)}</TableCell>
                      <TableCell className="text-right tabular-nums">
                        {formatMoney(row.revenue, 'NGN')}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
