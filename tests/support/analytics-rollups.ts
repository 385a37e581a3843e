import { sql } from 'drizzle-orm';

/*
 * The analytics roll-ups keep one row per key and writing backend (migration *_analytics_slots): tests
 * compare them with a rebuild (slot 0 only) or with themselves later, so they read each key's slots added
 * up, as the screens do.
 */
const KINDS = ['sent', 'opened', 'opened_human', 'clicked', 'replied', 'bounced', 'unsubscribed', 'failed'];
const sums = (columns: string[]) => columns.map((c) => `sum(${c})::int AS ${c}`).join(', ');
const LASTS = KINDS.map((k) => `${k}_last`);
const ALL = sums([...KINDS, ...LASTS]);
const nonZeroWeek = LASTS.map((c) => `sum(${c})`).join(' + ');

/** analytics_daily of one user, a row per day and campaign. */
export const dailyRows = (userId: string) =>
  sql`SELECT user_id, campaign_id, day, ${sql.raw(ALL)} FROM analytics_daily WHERE user_id = ${userId}
    GROUP BY user_id, day, campaign_id ORDER BY user_id, day, campaign_id`;

/** analytics_user_daily of one user, a row per day. */
export const userDailyRows = (userId: string) =>
  sql`SELECT user_id, day, ${sql.raw(ALL)} FROM analytics_user_daily WHERE user_id = ${userId}
    GROUP BY user_id, day ORDER BY user_id, day`;

/** analytics_weekly of one user, a row per week and campaign; weeks of zeros left out (the rebuild writes none). */
export const weeklyRows = (userId: string) =>
  sql`SELECT user_id, campaign_id, week, ${sql.raw(sums(LASTS))} FROM analytics_weekly WHERE user_id = ${userId}
    GROUP BY user_id, week, campaign_id HAVING ${sql.raw(nonZeroWeek)} > 0 ORDER BY user_id, week, campaign_id`;
