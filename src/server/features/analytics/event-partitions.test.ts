import { randomUUID } from 'node:crypto';
import { emailEvents } from '@server/db/schema/index';
import { advanceClock, now as clockNow, resetClock, startOfUtcMonth } from '@server/lib/clock';
import { seededRandom } from '@server/lib/seeded-random';
import { ANALYTICS_PERIODS } from '@shared/analytics';
import { seedCampaign } from '@tests/factories/campaign-stats';
import { createUser } from '@tests/factories/users';
import { ownDatabase } from '@tests/setup/own-database';
import { createTestApp } from '@tests/setup/test-app';
import { dailyRows, userDailyRows, weeklyRows } from '@tests/support/analytics-rollups';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollUpPlatformStats } from '../admin-analytics/platform-rollup.service';
import { COUNT_COLUMNS, toCounts } from '../campaign-stats/campaign-stats.service';
import { getAnalytics, periodStart, rebuildAnalytics } from './analytics.service';
import { ensureEventPartitions, expireEvents, listEventPartitions } from './event-partitions.service';

/*
 * email_events partitioned by month: events across six months, some written before their month's
 * partition existed (the default partition takes them, and they move in when it is made); retention
 * drops the months past the cutoff as whole partitions; the roll-ups keep counting the expired months and,
 * over the months kept, agree with the events, kept by the triggers and rebuilt alike.
 *
 * Drops whole months of every account's events, so on PostgreSQL it makes a database of its own (the
 * run's database is shared by the files running meanwhile, whatever their vitest project). The app's
 * clock sits mid-month three years ahead, in months no other partition holds.
 */

const DAY = 86_400_000;
// 'sent' comes once per message at most, as the dispatcher writes it (the stream adds it that way).
const TYPES = ['opened', 'opened', 'clicked', 'replied', 'bounced', 'unsubscribed', 'failed'] as const;

type Db = FastifyInstance['services']['db'];
type EventRow = typeof emailEvents.$inferInsert;

let app: FastifyInstance;
let db: Db;
let userId: string;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

function monthsBack(at: Date, months: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - months, 1));
}

let dropDatabase: () => Promise<void> = async () => {};

beforeAll(async () => {
  const today = new Date();
  const target = Date.UTC(today.getUTCFullYear() + 3, today.getUTCMonth(), 15, 12);
  advanceClock(target - Date.now());
  const own = await ownDatabase('partitions');
  dropDatabase = own.drop;
  app = await createTestApp(own.env);
  db = app.services.db;
  userId = (await createUser(app)).user.id;
});

afterAll(async () => {
  resetClock();
  await app?.close();
  await dropDatabase();
});

/** Which partition holds each of these events. */
async function partitionsOf(ids: number[]): Promise<string[]> {
  const list = sql.join(
    ids.map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  return rowsOf<{ part: string }>(
    await db.execute(
      sql`SELECT DISTINCT tableoid::regclass::text AS part FROM email_events WHERE id IN (${list})`,
    ),
  ).map((r) => r.part);
}

/** The user's roll-up rows, every table. */
async function rollups() {
  const read = async (query: ReturnType<typeof sql>) =>
    rowsOf<Record<string, unknown>>(await db.execute(query)).map((r) => JSON.stringify(r));
  return {
    daily: await read(dailyRows(userId)),
    userDaily: await read(userDailyRows(userId)),
    weekly: await read(weeklyRows(userId)),
    lasts: await read(sql`SELECT subject, kind, last_day FROM analytics_lasts ORDER BY subject, kind`),
    marks: await read(sql`SELECT * FROM analytics_marks ORDER BY subject, kind, day`),
    platform: await read(sql`SELECT type, machine, sum(count)::int AS n FROM platform_hourly_events
      GROUP BY 1, 2 ORDER BY 1, 2`),
  };
}

/** Per UTC day from `from` on: the distinct counts of the events themselves against analytics_user_daily. */
async function expectDaysMatchEvents(from: Date) {
  const direct = rowsOf<Parameters<typeof toCounts>[0] & { day: string }>(
    await db.execute(sql`
      SELECT to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${COUNT_COLUMNS}
      FROM email_events e
      WHERE e.user_id = ${userId} AND e.occurred_at >= ${from.toISOString()}::timestamptz
      GROUP BY 1 ORDER BY 1`),
  );
  const rolled = rowsOf<Parameters<typeof toCounts>[0] & { day: string }>(
    await db.execute(sql`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(sent)::int AS sent, sum(opened)::int AS opened,
        sum(opened_human)::int AS opened_human, sum(clicked)::int AS clicked, sum(replied)::int AS replied,
        sum(bounced)::int AS bounced, sum(unsubscribed)::int AS unsubscribed, sum(failed)::int AS failed
      FROM analytics_user_daily
      WHERE user_id = ${userId} AND day >= ${from.toISOString().slice(0, 10)}::date
      GROUP BY day
      HAVING sum(sent + opened + opened_human + clicked + replied + bounced + unsubscribed + failed) > 0
      ORDER BY day`),
  );
  const nonZero = (rows: typeof direct) =>
    rows.map((r) => [r.day, toCounts(r)] as const).filter(([, c]) => Object.values(c).some((n) => n > 0));
  expect(direct.length).toBeGreaterThan(20);
  expect(nonZero(rolled)).toEqual(nonZero(direct));
}

/** Each analytics period (all inside the kept months): the roll-ups' totals equal the events' counts. */
async function expectPeriodsMatchEvents(keptFrom: Date) {
  for (const days of ANALYTICS_PERIODS) {
    const from = periodStart(clockNow(), days);
    if (from.getTime() < keptFrom.getTime()) continue;
    const result = await getAnalytics({ db, user: { id: userId, subscriptionPlan: 'starter' }, days });
    const [row] = rowsOf<Parameters<typeof toCounts>[0]>(
      await db.execute(sql`
        SELECT ${COUNT_COLUMNS} FROM email_events e
        WHERE e.user_id = ${userId} AND e.occurred_at >= ${from.toISOString()}::timestamptz
          AND e.occurred_at <= ${clockNow().toISOString()}::timestamptz`),
    );
    const { won: _won, revenue: _revenue, ...totals } = result.totals;
    expect(totals).toEqual(toCounts(row));
  }
}

describe('email_events partitions and retention', () => {
  it('drops whole months past retention; the roll-ups keep them and agree with the months kept', async () => {
    const at = clockNow();
    const month = startOfUtcMonth(at);
    const oldest = monthsBack(at, 5);
    const { campaign } = await seedCampaign(db, userId);

    // Two months' events arrive before their partitions exist: the default partition takes them.
    const early: EventRow[] = [0, 1].map((i) => ({
      userId,
      campaignId: campaign.id,
      outboxMessageId: randomUUID(),
      campaignContactId: randomUUID(),
      type: 'sent',
      occurredAt: new Date(monthsBack(at, 5 - i).getTime() + 3 * DAY),
    }));
    const earlyIds = (await db.insert(emailEvents).values(early).returning({ id: emailEvents.id })).map(
      (r) => r.id,
    );
    expect(await partitionsOf(earlyIds)).toEqual(['email_events_default']);
    // A far older event has no month of its own, ever: it stays in the default partition.
    const [ancient] = await db
      .insert(emailEvents)
      .values({ userId, outboxMessageId: randomUUID(), type: 'sent', occurredAt: monthsBack(at, 40) })
      .returning({ id: emailEvents.id });

    // The months from the oldest to two ahead are made; the early events move into theirs.
    const made = await ensureEventPartitions({ db, at: oldest, ahead: 7 });
    expect(made).toHaveLength(8);
    expect((await partitionsOf(earlyIds)).sort()).toEqual(
      [oldest, monthsBack(at, 4)].map(
        (m) => `email_events_p${m.getUTCFullYear()}_${String(m.getUTCMonth() + 1).padStart(2, '0')}`,
      ),
    );
    expect(await partitionsOf([ancient!.id])).toEqual(['email_events_default']);
    expect(await ensureEventPartitions({ db, at })).toEqual([]);

    // A stream of events over the six months (at least ten minutes old, so the operator's roll-up reads
    // them all), messages and contacts recurring across months, in batches as the app writes them.
    const next = seededRandom(19);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    // A message belongs to one campaign (or none) for good, as in the app.
    const messages = Array.from({ length: 60 }, () => ({
      id: randomUUID(),
      contact: randomUUID(),
      campaignId: next() < 0.1 ? null : campaign.id,
    }));
    const span = at.getTime() - oldest.getTime();
    const stream: EventRow[] = Array.from({ length: 1_200 }, () => {
      const message = pick(messages);
      const type = pick(TYPES);
      return {
        userId,
        campaignId: message.campaignId,
        outboxMessageId: message.id,
        campaignContactId: message.contact,
        type,
        machine: (type === 'opened' || type === 'clicked') && next() < 0.3,
        occurredAt: new Date(at.getTime() - 10 * 60_000 - next() * (span - 11 * 60_000)),
      };
    });
    // Most messages' one 'sent' event, somewhere among the rest.
    for (const message of messages) {
      if (next() < 0.15) continue;
      stream.splice(Math.floor(next() * stream.length), 0, {
        userId,
        campaignId: message.campaignId,
        outboxMessageId: message.id,
        campaignContactId: message.contact,
        type: 'sent',
        occurredAt: new Date(at.getTime() - 10 * 60_000 - next() * (span - 11 * 60_000)),
      });
    }
    for (let i = 0; i < stream.length; ) {
      const size = 1 + Math.floor(next() * 80);
      await db.insert(emailEvents).values(stream.slice(i, i + size));
      i += size;
    }
    const defaultRows = async () =>
      Number(
        rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM email_events_default`))[0]
          ?.n,
      );
    expect(await defaultRows()).toBe(1);

    // Before retention: rebuilt over all partitions, the roll-ups are what the triggers kept.
    await rollUpPlatformStats({ db });
    const before = await rollups();
    await rebuildAnalytics({ db });
    expect(await rollups()).toEqual(before);
    await expectDaysMatchEvents(oldest);

    // Two months kept besides the current one: the cutoff is the start of the month two back.
    const cutoff = monthsBack(at, 2);
    const nameOf = (m: Date) =>
      `email_events_p${m.getUTCFullYear()}_${String(m.getUTCMonth() + 1).padStart(2, '0')}`;

    // An event of the oldest month not yet read by the operator's roll-up: that month waits, the others go.
    await db.insert(emailEvents).values({
      userId,
      outboxMessageId: randomUUID(),
      type: 'sent',
      occurredAt: new Date(oldest.getTime() + DAY),
    });
    const unread = await rollups();
    const first = await expireEvents({ db, retentionMonths: 2 });
    expect(first.cutoff).toBe(cutoff.toISOString());
    expect(first.waiting).toEqual([nameOf(oldest)]);
    expect(first.dropped).toEqual(
      expect.arrayContaining([nameOf(monthsBack(at, 4)), nameOf(monthsBack(at, 3))]),
    );
    expect(first.dropped).not.toContain(nameOf(oldest));
    expect(first.defaultRows).toBe(1);
    expect(await rollups()).toEqual(unread);

    await rollUpPlatformStats({ db });
    const kept = await rollups();
    const result = await expireEvents({ db, retentionMonths: 2 });
    expect(result.waiting).toEqual([]);
    expect(result.dropped).toEqual([nameOf(oldest)]);
    expect(result.defaultRows).toBe(0);
    const dropped = [...first.dropped, ...result.dropped];
    // Every month partition left starts at the cutoff or later; the default partition stays.
    const left = await listEventPartitions(db);
    expect(left.filter((p) => p.from && p.from.getTime() < cutoff.getTime())).toEqual([]);
    expect(left.map((p) => p.name)).toContain('email_events_default');
    expect(left.filter((p) => p.from).map((p) => p.from!.toISOString())).toEqual(
      [2, 1, 0, -1, -2].map((n) => monthsBack(at, n).toISOString()),
    );
    const gone = rowsOf<{ n: number }>(
      await db.execute(
        sql`SELECT count(*)::int AS n FROM pg_class WHERE relname = ANY(${sql.param(dropped)}::text[])`,
      ),
    );
    expect(Number(gone[0]?.n)).toBe(0);

    // The recent events remain, none older than the cutoff.
    const [range] = rowsOf<{ n: number; oldest: string }>(
      await db.execute(
        sql`SELECT count(*)::int AS n, min(occurred_at) AS oldest FROM email_events WHERE user_id = ${userId}`,
      ),
    );
    expect(Number(range!.n)).toBe(stream.filter((e) => e.occurredAt!.getTime() >= cutoff.getTime()).length);
    expect(new Date(range!.oldest).getTime()).toBeGreaterThanOrEqual(cutoff.getTime());

    // The roll-ups keep the expired months; rebuilt, they are the same (the kept months recounted from
    // their events, the expired ones left as they were), and the kept months agree with the events.
    expect(await rollups()).toEqual(kept);
    expect(
      kept.daily.some((r) => (JSON.parse(r) as { day: string }).day < cutoff.toISOString().slice(0, 10)),
    ).toBe(true);
    await rebuildAnalytics({ db });
    expect(await rollups()).toEqual(kept);
    await expectDaysMatchEvents(cutoff);
    await expectPeriodsMatchEvents(cutoff);

    // The triggers still count new events, in this month's partition and beyond any partition.
    const fresh = randomUUID();
    const [now1] = await db
      .insert(emailEvents)
      .values({
        userId,
        campaignId: campaign.id,
        outboxMessageId: fresh,
        type: 'sent',
        occurredAt: new Date(at.getTime() - 60_000),
      })
      .returning({ id: emailEvents.id });
    expect(await partitionsOf([now1!.id])).toEqual([
      `email_events_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`,
    ]);
    const [far] = await db
      .insert(emailEvents)
      .values({
        userId,
        outboxMessageId: randomUUID(),
        type: 'sent',
        occurredAt: new Date(at.getTime() + 5 * 365 * DAY),
      })
      .returning({ id: emailEvents.id });
    expect(await partitionsOf([far!.id])).toEqual(['email_events_default']);
    // Counted without a mark (migration 0070): its day agrees with the events all the same.
    const [marked] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::int AS n FROM analytics_marks WHERE subject = ${fresh}::uuid`),
    );
    expect(Number(marked!.n)).toBe(0);
    await expectDaysMatchEvents(cutoff);

    // Run again: nothing more to drop, and the rebuild still agrees.
    const again = await expireEvents({ db, retentionMonths: 2 });
    expect(again.dropped).toEqual([]);
    const settled = await rollups();
    await rebuildAnalytics({ db });
    expect(await rollups()).toEqual(settled);
  }, 120_000);
});
