// The operator's analytics screens at scale: seeds 1,000,000 outbox messages and 10,000,000 email events
// (--count sets the events; the outbox is a tenth of it) over the last 30 days, with users, orders,
// subscriptions, imports and sessions; folds the events into the hourly roll-up (timed), writes a live
// tail of 20,000 events after it, then times each screen's API through the real app (100 calls each, one
// at a time): System Analytics (24 h, 7 d, 30 d), Analytics (30 d, 365 d), Database Monitor, Cost Optimization.
// Goal (PostgreSQL): p95 ≤ 200 ms per screen. ADMIN_BENCH_DATABASE_URL reuses a seeded database.
import type { DatabaseHandle } from '@server/db/client';
import { users } from '@server/db/schema/index';
import { rollUpPlatformStats } from '@server/features/admin-analytics/platform-rollup.service';
import { eq, sql } from 'drizzle-orm';
import {
  type BenchDb,
  buildBenchApp,
  latencyStats,
  openBenchDatabase,
  say,
  scalar,
  signedInBenchUser,
  timedStep,
} from './support';

const CALLS = 100;
const USERS = 2_000;
const TAIL_EVENTS = 20_000;

/** Users, campaigns, contacts, the outbox and the event log, written by the database itself. */
async function seed(database: DatabaseHandle, events: number) {
  const outbox = Math.round(events / 10);
  const exec = (text: string) => database.db.execute(sql.raw(text));
  await timedStep('users, plans, orders, subscriptions, sessions, imports', async () => {
    await exec(`
      INSERT INTO "user" (id, name, email, created_at, updated_at, first_name, subscription_plan,
        subscription_status, subscription_interval)
      SELECT 'bench-' || g, 'Bench ' || g, 'bench' || g || '@tambari.test',
        now() - (g % 365) * interval '1 day' - (g % 24) * interval '1 hour', now(), 'Bench',
        (ARRAY['free','free','starter','professional','enterprise'])[1 + g % 5],
        CASE WHEN g % 5 = 0 OR g % 5 = 1 THEN NULL WHEN g % 17 = 0 THEN 'cancelled' ELSE 'active' END,
        CASE WHEN g % 3 = 0 THEN 'annual' ELSE 'monthly' END
      FROM generate_series(1, ${USERS}) g`);
    await exec(`
      INSERT INTO orders (user_id, reference, plan_id, interval, amount, status, paid_at, created_at)
      SELECT 'bench-' || g, 'bench-order-' || g, (ARRAY['starter','professional','enterprise'])[1 + g % 3],
        'monthly', 1500000 + (g % 3) * 2000000, CASE WHEN g % 11 = 0 THEN 'failed' ELSE 'success' END,
        now() - (g % 300) * interval '1 day', now() - (g % 300) * interval '1 day'
      FROM generate_series(1, ${USERS}) g WHERE g % 5 >= 2`);
    await exec(`
      INSERT INTO subscriptions (user_id, ended_at)
      SELECT 'bench-' || g, CASE WHEN g % 17 = 0 THEN now() - (g % 60) * interval '1 day' END
      FROM generate_series(1, ${USERS}) g WHERE g % 5 >= 2`);
    await exec(`
      INSERT INTO session (id, expires_at, token, created_at, updated_at, user_id)
      SELECT 'bench-session-' || g, now() + interval '7 days', 'bench-token-' || g,
        now() - (g % 30) * interval '1 day', now() - (g % 1440) * interval '1 minute', 'bench-' || (1 + g % ${USERS})
      FROM generate_series(1, 5000) g`);
    await exec(`
      INSERT INTO imports (user_id, target, file_name, file_path, size_bytes, encoding, delimiter, line_break,
        has_header, inspection, status, processed_rows, created_at, started_at)
      SELECT 'bench-' || (1 + g % ${USERS}), 'list', 'leads-' || g || '.csv', '/nonexistent', 100000, 'utf-8',
        ',', E'\\n', true, '{}'::jsonb, 'completed', 1000 + g % 5000,
        now() - (g % 720) * interval '1 hour', now() - (g % 720) * interval '1 hour'
      FROM generate_series(1, 1000) g`);
  });
  await timedStep('campaigns and contacts', async () => {
    await exec(`
      INSERT INTO campaigns (id, user_id, name, status, started_at)
      SELECT md5('campaign' || g)::uuid, 'bench-' || (1 + g % ${USERS}), 'Campaign ' || g, 'active',
        now() - (g % 90) * interval '1 day'
      FROM generate_series(1, 4000) g`);
    await exec(`
      INSERT INTO campaign_contacts (id, campaign_id, user_id, email)
      SELECT md5('contact' || g)::uuid, md5('campaign' || (1 + g % 4000))::uuid,
        'bench-' || (1 + (1 + g % 4000) % ${USERS}), 'lead' || g || '@example.com'
      FROM generate_series(1, ${outbox}) g`);
  });
  await timedStep(`${outbox.toLocaleString('en-US')} outbox messages`, async () => {
    // 90 % sent, the rest queued (some due), failed, bounced or cancelled; queued 1–120 minutes before sending.
    await exec(`
      INSERT INTO outbox_messages (id, token, user_id, campaign_id, campaign_contact_id, to_email, subject, html,
        state, send_after, sent_at, created_at, updated_at)
      SELECT md5('message' || g)::uuid, md5('token' || g), 'bench-' || (1 + (1 + g % 4000) % ${USERS}),
        md5('campaign' || (1 + g % 4000))::uuid, md5('contact' || g)::uuid, 'lead' || g || '@example.com',
        'Hello', '<p>Hello</p>',
        s.state, s.at + interval '1 minute', CASE WHEN s.state IN ('sent', 'bounced') THEN s.at + (1 + g % 120) * interval '1 minute' END,
        s.at, s.at
      FROM generate_series(1, ${outbox}) g
      CROSS JOIN LATERAL (SELECT
        CASE WHEN g % 100 < 90 THEN 'sent' WHEN g % 100 < 93 THEN 'queued' WHEN g % 100 < 95 THEN 'failed'
          WHEN g % 100 < 98 THEN 'bounced' ELSE 'cancelled' END AS state,
        now() - interval '30 days' + (g::float8 / ${outbox}) * interval '30 days' - interval '3 hours' AS at) s`);
  });
  await timedStep(`${events.toLocaleString('en-US')} email events`, async () => {
    await exec(`
      INSERT INTO email_events (user_id, campaign_id, outbox_message_id, type, occurred_at)
      SELECT user_id, campaign_id, id, 'sent', sent_at FROM outbox_messages WHERE state = 'sent'`);
    const sent = await scalar(database, sql`SELECT count(*) FROM email_events`);
    const rest = events - sent;
    // In steps, so each statement stays a few million rows.
    const step = 2_000_000;
    for (let start = 1; start <= rest; start += step) {
      const end = Math.min(rest, start + step - 1);
      await exec(`
        INSERT INTO email_events (user_id, campaign_id, type, machine, occurred_at)
        SELECT 'bench-' || (1 + g % ${USERS}), md5('campaign' || (1 + g % 4000))::uuid,
          (ARRAY['opened','opened','opened','opened','clicked','clicked','delivered','replied','deferred','failed',
            'bounced','unsubscribed'])[1 + g % 12], g % 7 = 0,
          now() - interval '30 days' + (g::float8 / ${rest}) * interval '30 days' - interval '3 minutes'
        FROM generate_series(${start}, ${end}) g`);
    }
  });
  await timedStep('ANALYZE', () => exec('ANALYZE'));
}

export async function run(options: { db: BenchDb; count?: number }) {
  const events = options.count ?? 10_000_000;
  const bench = await openBenchDatabase(options.db, { reuseUrlEnv: 'ADMIN_BENCH_DATABASE_URL' });
  const { database } = bench;
  const app = await buildBenchApp(bench);

  let rollupMs = 0;
  let rolledEvents = 0;
  if ((await scalar(database, sql`SELECT count(*) FROM email_events`)) < events) {
    say(`seeding on ${options.db}…`);
    await seed(database, events);
    const rollup = await timedStep('roll-up of the event log', () =>
      rollUpPlatformStats({ db: database.db, batchSize: 200_000, maxBatches: Number.POSITIVE_INFINITY }),
    );
    rollupMs = rollup.ms;
    rolledEvents = rollup.result.events;
  } else {
    say('reusing the seeded database');
    await rollUpPlatformStats({ db: database.db, batchSize: 200_000, maxBatches: Number.POSITIVE_INFINITY });
  }
  // A minute of busy tracking after the last roll-up: counted live by every screen.
  await database.db.execute(sql`
    INSERT INTO email_events (user_id, type, occurred_at)
    SELECT 'bench-' || (1 + g % ${USERS}), (ARRAY['opened','clicked','sent'])[1 + g % 3], now() - interval '30 seconds'
    FROM generate_series(1, ${TAIL_EVENTS}) g`);

  const outboxRows = await scalar(database, sql`SELECT count(*) FROM outbox_messages`);
  const eventRows = await scalar(database, sql`SELECT count(*) FROM email_events`);
  const tail = await scalar(
    database,
    sql`SELECT count(*) FROM email_events WHERE id > (SELECT last_event_id FROM platform_stats_progress)`,
  );
  say(
    `${outboxRows.toLocaleString('en-US')} outbox rows, ${eventRows.toLocaleString('en-US')} events, ${tail} in the live tail`,
  );

  const { cookie } = await signedInBenchUser(app, `bench-admin-${Date.now()}@tambari.test`, (id) =>
    app.services.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, id)),
  );

  const endpoints = {
    system_24h: '/api/admin/system-analytics?range=24h',
    system_7d: '/api/admin/system-analytics?range=7d',
    system_30d: '/api/admin/system-analytics?range=30d',
    analytics_30d: '/api/admin/analytics?range=30d',
    analytics_365d: '/api/admin/analytics?range=365d',
    database_monitor: '/api/admin/database-monitor',
    cost_optimization: '/api/admin/cost-optimization',
  } as const;
  const figures: Record<string, number> = {};
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const timings: number[] = [];
    for (let i = 0; i < CALLS + 5; i++) {
      const started = performance.now();
      const response = await app.inject({ method: 'GET', url: endpoint, headers: { cookie } });
      const ms = performance.now() - started;
      if (response.statusCode !== 200)
        throw new Error(`${endpoint}: ${response.statusCode} ${response.body}`);
      if (i >= 5) timings.push(ms); // the first calls warm the plan cache
    }
    const { p50, p95 } = latencyStats(timings, 0);
    figures[`${name}_p50_ms`] = p50;
    figures[`${name}_p95_ms`] = p95;
    say(`${endpoint}: p50 ${figures[`${name}_p50_ms`]} ms, p95 ${figures[`${name}_p95_ms`]} ms`);
  }

  await app.close();
  await bench.close();
  return {
    bench: 'admin-monitors',
    db: options.db,
    outbox_rows: outboxRows,
    events: eventRows,
    live_tail_events: tail,
    ...(rolledEvents > 0
      ? { rollup_events: rolledEvents, rollup_events_per_s: Math.round((rolledEvents / rollupMs) * 1000) }
      : {}),
    ...figures,
    system_analytics_p95_ms: Math.max(
      figures.system_24h_p95_ms!,
      figures.system_7d_p95_ms!,
      figures.system_30d_p95_ms!,
    ),
    analytics_p95_ms: Math.max(figures.analytics_30d_p95_ms!, figures.analytics_365d_p95_ms!),
    database_monitor_p95_ms: figures.database_monitor_p95_ms!,
    cost_optimization_p95_ms: figures.cost_optimization_p95_ms!,
  };
}
