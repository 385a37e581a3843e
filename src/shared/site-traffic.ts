import { z } from 'zod';

/*
 * Self-hosted analytics of the public site (Website Traffic): a first-party beacon from the web app,
 * no cookies, no third-party script, no stored address.
 */

/** What the web app's beacon sends for one page view. */
export const pageViewBeaconSchema = z.object({
  path: z.string().trim().min(1).max(512).startsWith('/', 'The path must start with "/".'),
  /** document.referrer of the page load; empty for direct visits. */
  referrer: z.string().max(2048).optional(),
});
export type PageViewBeacon = z.infer<typeof pageViewBeaconSchema>;

/** The beacon's own URL (with the public site's constants, which the browser's first load reads). */
export { PAGE_VIEW_BEACON_PATH } from './public-site';

/** The page where visitors create an account: its viewers are the top of the sign-up funnel. */
export const SIGN_UP_PAGE_PATH = '/auth';

/** How long raw page views are kept before the purge job deletes them. */
export const PAGE_VIEW_RETENTION_DAYS = 90;

export const TRAFFIC_RANGES = ['24h', '7d', '30d'] as const;
export type TrafficRange = (typeof TRAFFIC_RANGES)[number];

export const trafficQuerySchema = z.object({ range: z.enum(TRAFFIC_RANGES).default('7d') });

const countsSchema = { views: z.number(), visitors: z.number() };

export const websiteTrafficSchema = z.object({
  range: z.enum(TRAFFIC_RANGES),
  since: z.string(),
  generatedAt: z.string(),
  views: z.number(),
  /** Distinct daily visitor hashes: a person who comes back on two days counts twice. */
  visitors: z.number(),
  /** Hourly buckets over 24 h, daily over 7 and 30 days, oldest first, with empty buckets. */
  series: z.array(z.object({ at: z.string(), ...countsSchema })),
  topPages: z.array(z.object({ path: z.string(), ...countsSchema })),
  referrers: z.array(z.object({ host: z.string(), ...countsSchema })),
  countries: z.array(z.object({ country: z.string().nullable(), ...countsSchema })),
  signUp: z.object({
    pagePath: z.string(),
    /** Visitors who opened the sign-up page in the range. */
    visitors: z.number(),
    /** Subscriber accounts created in the range. */
    accountsCreated: z.number(),
    /** accountsCreated / visitors; null without visitors. */
    conversionRate: z.number().nullable(),
  }),
  retentionDays: z.number(),
});
export type WebsiteTraffic = z.infer<typeof websiteTrafficSchema>;
