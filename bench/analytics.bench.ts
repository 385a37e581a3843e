// The subscriber's analytics at scale: one user with 1,000 campaigns and 10,000,000 events (1,000,000
// messages over 120 days: sent, delivered, opens — a quarter by privacy proxies —, clicks, replies,
// bounces, unsubscribes, failures). The events are loaded with the roll-up trigger off, then
// `analytics_rebuild()` folds them in (timed); then 100,000 more events go in as the app writes them,
// in batches of 1,000 with the trigger, each beside one of other messages without it (its cost per event). Then 100 /analytics
// overviews and 100 per-campaign reads of 90 days through the service the API uses, each timed, against
// the direct grouped read of email_events they replace (the baseline: 1 overview, 5 campaigns — a
// direct overview takes minutes at this size).
// `npm run bench -- analytics --db postgres [--count EVENTS]`. Goal: p95 ≤ 100 ms.
import { randomUUID } from 'node:crypto';
import type { Database } from '@server/db/client';
import { users } from '@server/db/schema/index';
import { getAnalytics, periodStart } from '@server/features/analytics/analytics.service';
import { ensureEventPartitions } from '@server/features/analytics/event-partitions.service';
import {
  COUNT_COLUMNS,
  COUNTED_TYPE_LIST,
  countsByCampaign,
} from '@server/features/campaign-stats/campaign-stats.service';
import { seedPricingPlans } from '@server/features/plans/plans.service';
import { sql } from 'drizzle-orm';
import { type BenchDb, latencyStats, openBenchDatabase, rowsOf } from './support';

const CAMPAIGNS = 1_000;
const EVENTS_PER_MESSAGE = 10;
const DAYS = 120;
const RUNS = 100;
const LIVE_EVENTS = 100_000;
const LIVE_BATCH = 1_000;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Events of messages [first, last]: message m belongs to campaign m % 1,000, is sent on a day spread over
 * the 120 days (every campaign sends on every day: the most roll-up rows), and gets 10 events over the
 * following hours (never past now).
 */
function eventsOf(userId: string, first: number, last: number, now: Date) {
  return sql`
    INSERT INTO email_events (user_id, campaign_id, campaign_contact_id, outbox_message_id, type, machine,
      occurred_at)
    SELECT ${userId}, md5('c' || (m % ${CAMPAIGNS}))::uuid, md5('k' || m)::uuid, md5('m' || m)::uuid,
      t.type, t.machine,
      least(${now.toISOString()}::timestamptz - interval '1 minute',
        ${now.toISOString()}::timestamptz - (((m / ${CAMPAIGNS}) * 7919) % ${DAYS}) * interval '1 day'
          - ((m * 104729) % 86400) * interval '1 second'
          + (j - 1) * ((m * 31 + j * 17) % 30) * interval '1 hour')
    FROM generate_series(${first}::bigint, ${last}::bigint) m
    CROSS JOIN generate_series(1, ${EVENTS_PER_MESSAGE}) j
    CROSS JOIN LATERAL (SELECT CASE
      WHEN j = 1 THEN 'sent' WHEN j = 2 THEN 'delivered'
      WHEN j IN (3, 4, 5, 6) THEN 'opened' WHEN j IN (7, 8) THEN 'clicked'
      ELSE (ARRAY['replied', 'bounced', 'unsubscribed', 'failed', 'opened', 'complained', 'clicked'])[1 + (m + j) % 7]
    END AS type, (j = 3 OR (j = 7 AND m % 5 = 0)) AS machine) t`;
}

/** Today's direct read: the grouped read of the user's email_events that analytics did before roll-ups. */
async function directOverview(db: Database, userId: string, from: Date, to: Date, campaignId?: string) {
  const result = await db.execute(sql`
    SELECT grouping(e.campaign_id, e.day)::int AS g, e.campaign_id::text AS campaign_id, e.day, ${COUNT_COLUMNS}
    FROM (
      SELECT ev.campaign_id, ev.campaign_contact_id, ev.outbox_message_id, ev.type, ev.machine,
             to_char(ev.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
      FROM email_events ev
      WHERE ev.user_id = ${userId}
        AND ev.occurred_at >= ${from.toISOString()}::timestamptz
        AND ev.occurred_at <= ${to.toISOString()}::timestamptz
        AND ev.type IN (${COUNTED_TYPE_LIST})
        ${campaignId ? sql`AND ev.campaign_id = ${campaignId}::uuid` : sql``}
    ) e
    GROUP BY GROUPING SETS ((), (e.campaign_id), (e.day))`);
  return rowsOf<Record<string, unknown>>(result);
}

export async function run(options: { db: BenchDb; count?: number }) {
  const events = options.count ?? 10_000_000;
  const messages = Math.floor(events / EVENTS_PER_MESSAGE);
  const bench = await openBenchDatabase(options.db);
  try {
    const { db } = bench.database;
    await seedPricingPlans({ db });
    const userId = randomUUID();
    const now = new Date();
    await db.insert(users).values({ id: userId, name: 'Bench', email: `${userId}@tambari.test` });
    await db.execute(sql`
      INSERT INTO campaigns (id, user_id, name, kind, status)
      SELECT md5('c' || c)::uuid, ${userId}, 'Campaign ' || c, 'campaign', 'active'
      FROM generate_series(0, ${CAMPAIGNS - 1}) c`);

    // The months the events fall in have their partitions, as the daily job keeps them in production.
    await ensureEventPartitions({ db, at: new Date(now.getTime() - (DAYS + 1) * 86_400_000), ahead: 6 });
    // The log, loaded with the trigger off, in chunks of 100,000 messages.
    const seedStart = performance.now();
    await db.execute(sql`ALTER TABLE email_events DISABLE TRIGGER analytics_track_insert`);
    // Its secondary indexes are built once at the end (as a restore would), not row by row.
    const indexes = rowsOf<{ name: string; definition: string }>(
      await db.execute(sql`SELECT indexname AS name, indexdef AS definition FROM pg_indexes
        WHERE tablename = 'email_events' AND indexname <> 'email_events_id_occurred_at_pk'`),
    );
    for (const index of indexes) await db.execute(sql.raw(`DROP INDEX ${index.name}`));
    const liveMessages = Math.floor(LIVE_EVENTS / EVENTS_PER_MESSAGE);
    const seeded = messages - liveMessages;
    for (let first = 1; first <= seeded; first += 100_000) {
      await db.execute(eventsOf(userId, first, Math.min(seeded, first + 99_999), now));
      process.stderr.write(`seeded ${Math.min(seeded, first + 99_999) * EVENTS_PER_MESSAGE} events\n`);
    }
    for (const index of indexes) await db.execute(sql.raw(index.definition));
    await db.execute(sql`ALTER TABLE email_events ENABLE TRIGGER analytics_track_insert`);
    await db.execute(sql`ANALYZE email_events`);
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const rebuildMs = await timed(() => db.execute(sql`SELECT analytics_rebuild()`));
    process.stderr.write(`rebuilt in ${Math.round(rebuildMs)} ms\n`);
    await db.execute(sql`ANALYZE analytics_daily`);

    // The last events as the app writes them: batches of 1,000 through the trigger, each followed by a
    // batch of other messages written with the trigger off and deleted again (the baseline).
    const batchMessages = LIVE_BATCH / EVENTS_PER_MESSAGE;
    const withTrigger: number[] = [];
    const withoutTrigger: number[] = [];
    for (let first = seeded + 1; first <= messages; first += batchMessages) {
      const last = Math.min(messages, first + batchMessages - 1);
      withTrigger.push(await timed(() => db.execute(eventsOf(userId, first, last, now))));
      const [top] = rowsOf<{ id: string }>(
        await db.execute(sql`SELECT max(id)::text AS id FROM email_events`),
      );
      await db.execute(sql`ALTER TABLE email_events DISABLE TRIGGER USER`);
      withoutTrigger.push(
        await timed(() => db.execute(eventsOf(userId, first + 10 * messages, last + 10 * messages, now))),
      );
      await db.execute(sql`DELETE FROM email_events WHERE id > ${top!.id}::bigint`);
      await db.execute(sql`ALTER TABLE email_events ENABLE TRIGGER USER`);
    }
    const perEvent = (ms: number[]) =>
      Math.round((ms.reduce((a, b) => a + b, 0) / (ms.length * LIVE_BATCH)) * 1000 * 10) / 10;

    const rollupRows = rowsOf<{ n: number; marks: number; lasts: number }>(
      await db.execute(sql`SELECT (SELECT count(*) FROM analytics_daily)::int AS n,
        (SELECT count(*) FROM analytics_marks)::int AS marks, (SELECT count(*) FROM analytics_lasts)::int AS lasts`),
    )[0]!;

    const user = { id: userId, subscriptionPlan: 'free' };
    const campaignIds = rowsOf<{ id: string }>(
      await db.execute(sql`SELECT id::text AS id FROM campaigns WHERE user_id = ${userId} ORDER BY id`),
    ).map((r) => r.id);

    // The same numbers both ways, before timing anything.
    const from = periodStart(now, 90);
    const rolled = await getAnalytics({ db, user, days: 90 });
    const direct = await directOverview(db, userId, from, new Date());
    const directTotal = direct.find((r) => Number(r.g) === 3)!;
    const same =
      rolled.totals.sent === Number(directTotal.sent) &&
      rolled.totals.openedHuman === Number(directTotal.opened_human) &&
      rolled.totals.clicked === Number(directTotal.clicked) &&
      rolled.totals.unsubscribed === Number(directTotal.unsubscribed);
    if (!same) {
      throw new Error(
        `roll-up and direct read differ: ${JSON.stringify({ rolled: rolled.totals, directTotal })}`,
      );
    }

    const overview: number[] = [];
    for (let i = 0; i < RUNS; i++) overview.push(await timed(() => getAnalytics({ db, user, days: 90 })));
    const perCampaign: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const campaignId = campaignIds[(i * 37) % campaignIds.length]!;
      perCampaign.push(await timed(() => getAnalytics({ db, user, days: 90, campaignId })));
    }
    const listCounts: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const ids = campaignIds.slice((i * 20) % 980, ((i * 20) % 980) + 20);
      listCounts.push(await timed(() => countsByCampaign({ db, campaignIds: ids })));
    }
    const directOverviewMs: number[] = [];
    for (let i = 0; i < 1; i++) {
      directOverviewMs.push(await timed(() => directOverview(db, userId, from, new Date())));
    }
    const directCampaignMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const campaignId = campaignIds[(i * 37) % campaignIds.length]!;
      directCampaignMs.push(await timed(() => directOverview(db, userId, from, new Date(), campaignId)));
    }

    return {
      bench: 'analytics',
      db: options.db,
      events: messages * EVENTS_PER_MESSAGE,
      campaigns: CAMPAIGNS,
      seedSeconds: Math.round(seedSeconds),
      rebuildSeconds: Math.round(rebuildMs / 100) / 10,
      rollupRows: Number(rollupRows.n),
      markRows: Number(rollupRows.marks),
      lastRows: Number(rollupRows.lasts),
      insertUsPerEventWithTrigger: perEvent(withTrigger),
      insertUsPerEventWithoutTrigger: perEvent(withoutTrigger),
      overview90dMs: latencyStats(overview),
      perCampaign90dMs: latencyStats(perCampaign),
      campaignListCountsMs: latencyStats(listCounts),
      baselineDirectOverview90dMs: latencyStats(directOverviewMs),
      baselineDirectPerCampaign90dMs: latencyStats(directCampaignMs),
      goalP95Ms: 100,
    };
  } finally {
    await bench.close();
  }
}
