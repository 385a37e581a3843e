import type { Analytics } from '@shared/analytics';
import { formatMoney } from '@shared/currency';
import { Card, CardContent } from '@/components/ui/card';
import { formatNaira } from '@/lib/billing';
import { formatNumber } from '@/lib/format';
import { formatRoi, rateOf } from '../lib/analytics-display';

function Figure({ id, title, value, note }: { id: string; title: string; value: string; note: string }) {
  return (
    <Card className="gap-0 py-4" data-testid={`analytics-${id}`}>
      <CardContent className="space-y-1">
        <h3 className="text-sm font-medium text-muted-foreground">{title}</h3>
        <p
          className="text-2xl font-semibold tabular-nums tracking-tight"
          data-testid={`analytics-${id}-value`}
        >
          {value}
        </p>
        <p className="text-xs text-muted-foreground">{note}</p>
      </CardContent>
    </Card>
  );
}

/** The period's totals: sending and engagement first, then conversions, revenue and ROI. */
export function TotalsCards({ data }: { data: Analytics }) {
  const { totals, days } = data;
  const machineOpens = totals.opened - totals.openedHuman;
  const period = `${days} days`;
  const converted = data.convertedCurrencies.length
    ? ` ${data.convertedCurrencies.join(', ')} deals converted to naira at today's rate.`
    : '';
  const roiNote =
    data.roi === null
      ? `Your ${data.plan.name} plan costs nothing, so there is no cost to measure a return against.`
      : `(Revenue − ${formatNaira(data.planCost)}) ÷ ${formatNaira(data.planCost)}, the ${data.plan.name} plan's price for ${period}.`;

  return (
    <div className="space-y-4">
      <section aria-labelledby="analytics-sending" className="space-y-2">
        <h2 id="analytics-sending" className="text-sm font-semibold">
          Sending and engagement
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
          <Figure id="sent" title="Emails sent" value={formatNumber(totals.sent)} note={`Last ${period}`} />
          <Figure
            id="open-rate"
            title="Open rate"
            value={rateOf(totals.openedHuman, totals.sent)}
            note={
              machineOpens > 0
                ? `${formatNumber(totals.openedHuman)} opened by people · ${formatNumber(machineOpens)} automatic ${machineOpens === 1 ? 'open' : 'opens'} left out`
                : `${formatNumber(totals.openedHuman)} opened by people`
            }
          />
          <Figure
            id="click-rate"
            title="Click rate"
            value={rateOf(totals.clicked, totals.sent)}
            note={`${formatNumber(totals.clicked)} clicked`}
          />
          <Figure
            id="reply-rate"
            title="Reply rate"
            value={rateOf(totals.replied, totals.sent)}
            note={`${formatNumber(totals.replied)} replied`}
          />
          <Figure
            id="bounces"
            title="Bounces"
            value={formatNumber(totals.bounced)}
            note={`${rateOf(totals.bounced, totals.sent)} of sent`}
          />
          <Figure
            id="unsubscribes"
            title="Unsubscribes"
            value={formatNumber(totals.unsubscribed)}
            note="Including spam complaints"
          />
        </div>
      </section>
      <section aria-labelledby="analytics-results" className="space-y-2">
        <h2 id="analytics-results" className="text-sm font-semibold">
          Results
        </h2>
        <div className="grid gap-4 sm:grid-cols-3">
          <Figure
            id="won"
            title="Deals won"
            value={formatNumber(totals.won)}
            note="Replies you marked as won"
          />
          <Figure
            id="revenue"
            title="Revenue"
            value={formatMoney(totals.revenue, 'NGN')}
            note={`Deal values of the replies won.${converted}`}
          />
          <Figure id="roi" title="ROI" value={formatRoi(data.roi)} note={roiNote} />
        </div>
      </section>
    </div>
  );
}
