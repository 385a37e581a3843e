import {
  ANALYTICS_PERIODS,
  type AnalyticsCampaign,
  type AnalyticsPeriod,
  DEFAULT_ANALYTICS_PERIOD,
} from '@shared/analytics';
import { percentString } from '@shared/campaign-stats';
import type { CampaignKind } from '@shared/sending';

/** The period in the address bar (`?days=7`); anything else is the default 30 days. */
export function readPeriod(value: string | null): AnalyticsPeriod {
  const days = Number(value);
  return (ANALYTICS_PERIODS as readonly number[]).includes(days)
    ? (days as AnalyticsPeriod)
    : DEFAULT_ANALYTICS_PERIOD;
}

/** "42.5%" of the messages sent; "—" when nothing was sent, where a rate means nothing. */
export function rateOf(part: number, sent: number): string {
  return sent > 0 ? percentString(part, sent) : '—';
}

/** ROI as a signed percentage ("+1,259%", "-40%", "0%"); "—" when there is no plan cost to divide by. */
export function formatRoi(roi: number | null): string {
  if (roi === null || !Number.isFinite(roi)) return '—';
  const percent = Math.round(roi * 100);
  const digits = new Intl.NumberFormat('en-US').format(Math.abs(percent));
  if (percent === 0) return '0%';
  return `${percent > 0 ? '+' : '-'}${digits}%`;
}

export const KIND_LABELS: Record<CampaignKind, string> = {
  campaign: 'Campaign',
  newsletter: 'Newsletter',
  bulk: 'Bulk email',
};

/** Where a row opens: the campaign page, or the newsletter editor for newsletters and bulk emails. */
export function campaignHref(row: Pick<AnalyticsCampaign, 'id' | 'kind' | 'newsletterId'>): string | null {
  if (row.kind === 'campaign') return `/campaigns/${row.id}`;
  return row.newsletterId ? `/newsletters/editor/${row.newsletterId}` : null;
}

/** "Mon 3 Jun" for a `YYYY-MM-DD` UTC day (the server's buckets), whatever the browser's zone. */
export function formatDay(date: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(at);
}
