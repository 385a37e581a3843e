import { z } from 'zod';
import { countsSchema } from './campaign-stats';
import { CURRENCY_CODES } from './currency';
import { PLAN_IDS } from './plans';
import { CAMPAIGN_KINDS } from './sending';

/*
 * The subscriber's analytics page (sent, opened, clicked, replied, conversions, revenue and ROI):
 * totals, a daily series and a per-campaign table over the last 7, 30 or 90 days, read from the
 * email_events log and the replies marked "won".
 */

export const ANALYTICS_PERIODS = [7, 30, 90] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = 30;

/** A plan's monthly price covers this many days when it is prorated to a period. */
export const DAYS_PER_PLAN_MONTH = 30;

export const analyticsQuerySchema = z.object({
  days: z.coerce
    .number()
    .pipe(z.literal(ANALYTICS_PERIODS, { error: 'Choose a period of 7, 30 or 90 days' }))
    .default(DEFAULT_ANALYTICS_PERIOD),
  /** One campaign's numbers only (its row, totals and daily series). */
  campaignId: z.uuid({ error: 'Choose a campaign' }).optional(),
});

/** Conversions: replies marked "won" in the period and their deal values, in naira (major units). */
const wonSchema = z.object({
  won: z.number().int(),
  revenue: z.number(),
});

export const analyticsDaySchema = z.object({
  /** UTC calendar day, `YYYY-MM-DD`. */
  date: z.string(),
  sent: z.number().int(),
  /** Human opens only (privacy proxies and scanners left out). */
  opened: z.number().int(),
  clicked: z.number().int(),
  replied: z.number().int(),
});
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>;

export const analyticsCampaignSchema = countsSchema.extend(wonSchema.shape).extend({
  id: z.string(),
  name: z.string(),
  kind: z.enum(CAMPAIGN_KINDS),
  /** The newsletter or bulk email behind a `newsletter`/`bulk` row (its editor is where it opens). */
  newsletterId: z.string().nullable(),
});
export type AnalyticsCampaign = z.infer<typeof analyticsCampaignSchema>;

export const analyticsSchema = z.object({
  days: z.literal(ANALYTICS_PERIODS),
  /** The period: the first instant of the first UTC day, and the moment it was read. */
  from: z.string(),
  to: z.string(),
  /** Counts as on the campaign page (`countsSchema`), plus conversions. */
  totals: countsSchema.extend(wonSchema.shape),
  /** Deals recorded in another currency than NGN, converted to naira at the current rate. */
  convertedCurrencies: z.array(z.enum(CURRENCY_CODES)),
  plan: z.object({
    id: z.enum(PLAN_IDS),
    name: z.string(),
    /** Kobo. */
    priceMonthly: z.number().int(),
  }),
  /** The plan's monthly price prorated to the period (kobo): priceMonthly × days / 30. */
  planCost: z.number().int(),
  /** (revenue − planCost) / planCost, e.g. 2.5 for +250%; null when the plan costs nothing. */
  roi: z.number().nullable(),
  /** False until the user's first message left: the page then shows how to start. */
  hasSentAny: z.boolean(),
  daily: z.array(analyticsDaySchema),
  campaigns: z.array(analyticsCampaignSchema),
});
export type Analytics = z.infer<typeof analyticsSchema>;
