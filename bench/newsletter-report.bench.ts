// A sent newsletter's report at its bound: one newsletter to N recipients (default 100,000) with
// 1,000,000 events (sends, deliveries, opens — a fifth by privacy proxies —, clicks on 8 links, bounces,
// unsubscribes, complaints) spread over its first 72 hours, beside another user's campaign with events
// of its own. Then 100 report loads (summary, links, 48 hours) through the service the API uses, and
// 100 recipient pages (first page, random pages by number, an email search) and 100 by keyset (from a
// page's start at random depths, as Next and Previous go), each timed. The seed's events go
// through the email_events trigger that keeps the report's counters (migration *_newsletter_report).
// `npm run bench -- newsletter-report [--db postgres|pglite] [--count N]`. Goal: report p95 ≤ 200 ms.
import { randomUUID } from 'node:crypto';
import { users } from '@server/db/schema/index';
import {
  getNewsletterProgress,
  getNewsletterReport,
  listNewsletterRecipients,
} from '@server/features/newsletters/newsletter-report.service';
import { sql } from 'drizzle-orm';
import { type BenchDb, latencyStats, openBenchDatabase } from './support';

const EVENTS = 1_000_000;
const RUNS = 100;

export async function run(options: { db: BenchDb; count?: number }) {
  const recipients = options.count ?? 100_000;
  const bench = await openBenchDatabase(options.db);
  try {
    const { db } = bench.database;
    const userId = randomUUID();
    const otherId = randomUUID();
    const campaignId = randomUUID();
    const otherCampaignId = randomUUID();
    const newsletterId = randomUUID();
    const sentAt = new Date(Date.now() - 80 * 3600_000);
    const seedStart = performance.now();
    await db.insert(users).values([
      { id: userId, name: 'Bench', email: `${userId}@tambari.test` },
      { id: otherId, name: 'Other', email: `${otherId}@tambari.test` },
    ]);
    await db.execute(sql`insert into campaigns (id, user_id, name, kind, status, started_at, completed_at)
      values (${campaignId}, ${userId}, 'March news', 'newsletter', 'completed', ${sentAt.toISOString()}::timestamptz, now()),
             (${otherCampaignId}, ${otherId}, 'Other', 'campaign', 'active', ${sentAt.toISOString()}::timestamptz, null)`);
    await db.execute(sql`insert into newsletters (id, user_id, kind, name, subject, status, sent_at, campaign_id, web_token)
      values (${newsletterId}, ${userId}, 'newsletter', 'March news', 'Hello {{ firstName }}', 'sent',
        ${sentAt.toISOString()}::timestamptz, ${campaignId}, ${randomUUID()})`);
    // Recipients and their messages: 1% failed or bounced at once, the rest sent.
    await db.execute(sql`insert into campaign_contacts (id, campaign_id, user_id, email, first_name, status, current_step)
      select md5(${campaignId} || i)::uuid, ${campaignId}, ${userId}, 'r' || i || '@example.com', 'R' || i, 'completed', 1
      from generate_series(1, ${recipients}) i`);
    await db.execute(sql`insert into outbox_messages (id, token, user_id, campaign_id, campaign_contact_id, to_email,
        subject, html, state, sent_at)
      select md5('m' || ${campaignId} || i)::uuid, 'tok' || i, ${userId}, ${campaignId}, md5(${campaignId} || i)::uuid,
        'r' || i || '@example.com', 'Hello', '<p>x</p>',
        case when i % 100 = 0 then 'bounced' when i % 150 = 0 then 'failed' else 'sent' end,
        ${sentAt.toISOString()}::timestamptz + (i % 3600) * interval '1 second'
      from generate_series(1, ${recipients}) i`);
    // The events: type by share of the million, recipient and time spread over the first 72 hours.
    const shares: [string, number][] = [
      ['sent', 0.1],
      ['delivered', 0.1],
      ['opened', 0.52],
      ['clicked', 0.25],
      ['bounced', 0.01],
      ['unsubscribed', 0.01],
      ['complained', 0.01],
    ];
    let offset = 0;
    for (const [type, share] of shares) {
      const n = Math.round(EVENTS * share);
      await db.execute(sql`insert into email_events (user_id, campaign_id, campaign_contact_id, outbox_message_id,
          type, occurred_at, detail, machine)
        select ${userId}, ${campaignId}, md5(${campaignId} || r)::uuid, md5('m' || ${campaignId} || r)::uuid, ${type},
          ${sentAt.toISOString()}::timestamptz + (random() ^ 3) * interval '72 hours',
          case when ${type} = 'clicked' then 'https://kanofoods.example.com/page-' || (i % 8) else null end,
          ${type} in ('opened', 'clicked') and i % 5 = 0
        from (select i, 1 + (hashint4(i + ${offset}) & 2147483647) % ${recipients} as r
              from generate_series(1, ${n}) i) s`);
      offset += n;
    }
    // Another user's events in the same table (what the report must skip).
    await db.execute(sql`insert into email_events (user_id, campaign_id, type, occurred_at)
      select ${otherId}, ${otherCampaignId}, 'opened', now() - random() * interval '72 hours'
      from generate_series(1, 200000)`);
    await db.execute(sql`vacuum analyze email_events`).catch(() => db.execute(sql`analyze`));
    await db.execute(sql`analyze`);
    const seedMs = performance.now() - seedStart;
    process.stdout.write(`seeded ${recipients} recipients, ${EVENTS} events in ${Math.round(seedMs)} ms\n`);

    const ctx = { db, userId, id: newsletterId };
    // The first load after the seed, timed apart (no cache: every load reads the kept counters).
    const c0 = performance.now();
    const first = await getNewsletterReport(ctx);
    const coldMs = performance.now() - c0;
    const report: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await getNewsletterReport(ctx);
      report.push(performance.now() - t0);
    }
    const pages: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const query =
        i % 10 === 0
          ? { page: 1, pageSize: 50, q: 'r4242' }
          : { page: i % 3 === 0 ? 1 : 1 + ((i * 7919) % Math.floor(recipients / 50)), pageSize: 50 };
      const t0 = performance.now();
      await listNewsletterRecipients({ ...ctx, query });
      pages.push(performance.now() - t0);
    }
    // Next/Previous as the report page walks: from a page's start (`after`) at random depths.
    const keyset: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const after = `r${1 + ((i * 7919) % recipients)}@example.com`;
      const t0 = performance.now();
      await listNewsletterRecipients({ ...ctx, query: { page: 2, pageSize: 50, after } });
      keyset.push(performance.now() - t0);
    }
    const progress: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await getNewsletterProgress(ctx);
      progress.push(performance.now() - t0);
    }
    const r = latencyStats(report);
    const p = latencyStats(pages);
    const k = latencyStats(keyset);
    const g = latencyStats(progress);
    process.stdout.write(`report cold ${Math.round(coldMs)} ms (first load)\n`);
    process.stdout.write(`report      p50 ${r.p50} ms  p95 ${r.p95} ms  max ${r.max} ms\n`);
    process.stdout.write(`recipients  p50 ${p.p50} ms  p95 ${p.p95} ms  max ${p.max} ms\n`);
    process.stdout.write(`by keyset   p50 ${k.p50} ms  p95 ${k.p95} ms  max ${k.max} ms\n`);
    process.stdout.write(`progress    p50 ${g.p50} ms  p95 ${g.p95} ms  max ${g.max} ms\n`);
    return {
      bench: 'newsletter-report',
      db: options.db,
      recipients,
      events: EVENTS,
      seed_ms: Math.round(seedMs),
      opens: first.summary.opens,
      unique_clickers: first.summary.uniqueClickers,
      report_cold_ms: Math.round(coldMs),
      report_p50_ms: r.p50,
      report_p95_ms: r.p95,
      report_max_ms: r.max,
      recipients_page_p95_ms: p.p95,
      recipients_keyset_p95_ms: k.p95,
      progress_p95_ms: g.p95,
      goal_report_p95_ms: 200,
    };
  } finally {
    await bench.close();
  }
}
