import { randomUUID } from 'node:crypto';
import { emailEvents } from '@server/db/schema/index';
import { advanceClock, now as clockNow, resetClock } from '@server/lib/clock';
import { seededRandom } from '@server/lib/seeded-random';
import { ANALYTICS_PERIODS, type Analytics } from '@shared/analytics';
import { seedCampaign } from '@tests/factories/campaign-stats';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { dailyRows, userDailyRows, weeklyRows } from '@tests/support/analytics-rollups';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COUNT_COLUMNS,
  COUNTED_TYPE_LIST,
  countsByCampaign,
  toCounts,
} from '../campaign-stats/campaign-stats.service';
import { getAnalytics, periodStart, rebuildAnalytics } from './analytics.service';

/*
 * The roll-ups (migration 0044) against the log they summarise: random event streams — every event type,
 * machine and human, out of order across days, events without a campaign or message, batches of any
 * size, deletions — must give the same numbers three ways: the roll-ups kept by the triggers, the same
 * roll-ups rebuilt from email_events, and the grouped read of email_events analytics did before them.
 */

const DAY = 86_400_000;
// Everything a message may get any number of times. 'sent' is not among them: the dispatcher writes one
// per message at most (delivery-outcomes.ts), and the streams add it that way.
const TYPES = [
  'delivered',
  'opened',
  'opened',
  'opened',
  'clicked',
  'clicked',
  'replied',
  'bounced',
  'unsubscribed',
  'complained',
  'failed',
  'suppressed',
] as const;

type EventRow = typeof emailEvents.$inferInsert;
type Db = FastifyInstance['services']['db'];

let app: FastifyInstance;
let owner: TestUser;
let stranger: TestUser;
const streamUsers: TestUser['user'][] = [];

beforeAll(async () => {
  // This file's events live 400 days back (the app's clock moves with them): other files read platform-wide
  // figures of the last 30 days at the same time (admin-analytics.test.ts), and 4,500 random events of
  // ours there would be taken for theirs.
  advanceClock(-400 * DAY);
  app = await createTestApp();
  owner = await createUser(app, {
    plan: 'starter',
    status: 'active',
    periodEnd: new Date(Date.now() + 20 * DAY),
  });
  stranger = await createUser(app);
  // The streams' users are made up front: admin-analytics.test.ts counts sign-ups platform-wide, and
  // accounts made while it counts would be taken for its own.
  for (let i = 0; i < 4; i++) streamUsers.push((await createUser(app)).user);
});

afterAll(async () => {
  resetClock();
  await app?.close();
});

/**
 * A stream of events over a few campaigns' messages and contacts, in the last 120 days, shuffled: most
 * messages have their one 'sent' event, and a newsletter's messages were all sent within a few minutes
 * (maybe across midnight), a few of them opened.
 */
async function randomStream(db: Db, userId: string, seed: number, count: number): Promise<EventRow[]> {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const campaignIds: (string | null)[] = [];
  for (let i = 0; i < 3; i++) campaignIds.push((await seedCampaign(db, userId)).campaign.id);
  campaignIds.push(null);
  // Each message belongs to one campaign and one contact; a contact may have several messages.
  const messages = Array.from({ length: 40 }, () => {
    const campaignId = pick(campaignIds);
    return { id: randomUUID(), campaignId, contactId: randomUUID() };
  });
  for (let i = 0; i < 10; i++) {
    const other = messages.find((m, j) => j > i && m.campaignId === messages[i]!.campaignId);
    if (other) other.contactId = messages[i]!.contactId;
  }
  const now = clockNow().getTime();
  const sentAt = () => (next() < 0.1 ? 0.2 * next() * DAY : next() * 120 * DAY);
  const sends: EventRow[] = messages
    .filter(() => next() < 0.85)
    .map((m) => ({
      userId,
      campaignId: m.campaignId,
      campaignContactId: m.contactId,
      outboxMessageId: m.id,
      type: 'sent',
      occurredAt: new Date(now - 60_000 - sentAt()),
    }));
  const newsletterAge = sentAt();
  const newsletter = campaignIds[0]!;
  for (let i = 0; i < 60; i++) {
    const id = randomUUID();
    const at = now - 60_000 - newsletterAge + (next() - 0.5) * 20 * 60_000;
    const base = { userId, campaignId: newsletter, campaignContactId: randomUUID(), outboxMessageId: id };
    sends.push({ ...base, type: 'sent', occurredAt: new Date(at) });
    if (next() < 0.3) {
      const opened = Math.min(now - 60_000, at + next() * 3 * DAY);
      sends.push({ ...base, type: 'opened', machine: next() < 0.3, occurredAt: new Date(opened) });
    }
  }
  // A few events say 'sent' without a message (no writer of the app does): they count for nothing.
  for (let i = 0; i < 3; i++)
    sends.push({ userId, campaignId: pick(campaignIds), type: 'sent', occurredAt: new Date(now - sentAt()) });
  const others = Array.from({ length: count }, (): EventRow => {
    const message = pick(messages);
    const type = pick(TYPES);
    // Mostly the last weeks, some before the longest period, some today; a few without message or contact.
    const age = next() < 0.1 ? 0.2 * next() * DAY : next() * 120 * DAY;
    return {
      userId,
      campaignId: message.campaignId,
      campaignContactId: next() < 0.05 ? null : message.contactId,
      outboxMessageId: next() < 0.05 ? null : message.id,
      type,
      machine: (type === 'opened' || type === 'clicked') && next() < 0.3,
      occurredAt: new Date(now - 60_000 - age),
    };
  });
  // Shuffled together, so a batch may hold sends and other events of any days.
  const all = [...sends, ...others];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

/** Writes the stream as the app does: batches of 1 to 60 rows, each its own statement. */
async function insertInBatches(db: Db, rows: EventRow[], seed: number) {
  const next = seededRandom(seed);
  for (let i = 0; i < rows.length; ) {
    const size = 1 + Math.floor(next() * 60);
    await db.insert(emailEvents).values(rows.slice(i, i + size));
    i += size;
  }
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * One user's roll-up rows (and the marks of their stream's subjects). On PostgreSQL other test files write
 * events at the same time, so a snapshot of whole tables would see their rows come and go.
 */
async function snapshot(db: Db, userId: string, subjects: readonly string[]) {
  const subjectList = sql.join(
    [...new Set(subjects)].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const daily = rowsOf(await db.execute(dailyRows(userId))).map((r) => JSON.stringify(r));
  const marks = rowsOf(
    await db.execute(
      sql`SELECT * FROM analytics_marks WHERE subject IN (${subjectList}) ORDER BY subject, kind, day`,
    ),
  ).map((r) => JSON.stringify(r));
  const lasts = rowsOf(
    await db.execute(
      sql`SELECT subject, kind, last_day FROM analytics_lasts WHERE subject IN (${subjectList}) ORDER BY subject, kind`,
    ),
  ).map((r) => JSON.stringify(r));
  const userDaily = rowsOf(await db.execute(userDailyRows(userId))).map((r) => JSON.stringify(r));
  // A week whose subjects all moved on keeps a row of zeros; the rebuild writes none.
  const weekly = rowsOf(await db.execute(weeklyRows(userId))).map((r) => JSON.stringify(r));
  return { daily, marks, lasts, userDaily, weekly };
}

/** The grouped read of email_events analytics made before the roll-ups (its figures are the reference). */
async function direct(db: Db, userId: string, days: number, campaignId?: string) {
  const to = clockNow();
  const from = periodStart(to, days);
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
  type Row = Parameters<typeof toCounts>[0] & { g: number; campaign_id: string | null; day: string | null };
  const rows = rowsOf<Row>(result);
  return {
    totals: toCounts(rows.find((r) => Number(r.g) === 3)),
    byCampaign: new Map(
      rows.filter((r) => Number(r.g) === 1 && r.campaign_id).map((r) => [r.campaign_id!, toCounts(r)]),
    ),
    byDay: new Map(rows.filter((r) => Number(r.g) === 2).map((r) => [r.day!, toCounts(r)])),
  };
}

/** The roll-up's answer equals the direct read's, for every period and for each campaign alone. */
async function expectSameAsDirect(db: Db, userId: string) {
  const user = { id: userId, subscriptionPlan: 'starter' };
  for (const days of ANALYTICS_PERIODS) {
    const rolled: Analytics = await getAnalytics({ db, user, days });
    const reference = await direct(db, userId, days);
    const { won: _won, revenue: _revenue, ...totals } = rolled.totals;
    expect(totals).toEqual(reference.totals);
    for (const day of rolled.daily) {
      const counts = toCounts(undefined);
      const ref = reference.byDay.get(day.date) ?? counts;
      expect(day).toEqual({
        date: day.date,
        sent: ref.sent,
        opened: ref.openedHuman,
        clicked: ref.clicked,
        replied: ref.replied,
      });
    }
    expect(rolled.campaigns.length).toBe(reference.byCampaign.size);
    for (const row of rolled.campaigns) {
      const { id, name: _n, kind: _k, newsletterId: _nl, won: _w, revenue: _r, ...counts } = row;
      expect(counts).toEqual(reference.byCampaign.get(id));
      // One campaign alone: its row, totals and days.
      const alone = await getAnalytics({ db, user, days, campaignId: id });
      const refAlone = await direct(db, userId, days, id);
      const { won: _w2, revenue: _r2, ...aloneTotals } = alone.totals;
      expect(aloneTotals).toEqual(refAlone.totals);
      expect(alone.daily.map((d) => d.sent)).toEqual(
        alone.daily.map((d) => refAlone.byDay.get(d.date)?.sent ?? 0),
      );
    }
  }
  // All-time counts of the campaign lists and the dashboard.
  const ids = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id::text AS id FROM campaigns WHERE user_id = ${userId}`),
  ).map((r) => r.id);
  const listed = await countsByCampaign({ db, campaignIds: ids });
  const allTime = rowsOf<Parameters<typeof toCounts>[0] & { campaign_id: string }>(
    await db.execute(sql`
      SELECT e.campaign_id::text AS campaign_id, ${COUNT_COLUMNS}
      FROM email_events e
      WHERE e.user_id = ${userId} AND e.campaign_id IS NOT NULL AND e.type IN (${COUNTED_TYPE_LIST})
      GROUP BY e.campaign_id`),
  );
  for (const row of allTime)
    expect(listed.get(row.campaign_id) ?? toCounts(undefined)).toEqual(toCounts(row));
}

describe('analytics roll-ups', () => {
  it.each([1, 2, 3])(
    'equal the direct read and their rebuild on random event stream %i, also after deletions',
    async (seed) => {
      const db = app.services.db;
      const user = streamUsers[seed - 1]!;
      const stream = await randomStream(db, user.id, seed, 1_500);
      await insertInBatches(db, stream, seed * 7);
      await expectSameAsDirect(db, user.id);
      const subjects = stream.flatMap((e) =>
        [e.outboxMessageId, e.campaignContactId].filter((id) => id != null),
      );
      const mine = () => snapshot(db, user.id, subjects as string[]);

      const kept = await mine();
      expect(kept.daily.length).toBeGreaterThan(0);
      await rebuildAnalytics({ db });
      expect(await mine()).toEqual(kept);

      // Some events go (a purge, an erasure): the user is recounted and still matches both ways.
      await db.execute(sql`
        DELETE FROM email_events WHERE user_id = ${user.id} AND id % 5 = ${seed % 5}`);
      await expectSameAsDirect(db, user.id);
      const afterDelete = await mine();
      await rebuildAnalytics({ db });
      expect(await mine()).toEqual(afterDelete);

      // An update that changes nothing counted (erasure clears details) leaves the roll-ups alone.
      await db.execute(sql`UPDATE email_events SET detail = NULL WHERE user_id = ${user.id}`);
      expect(await mine()).toEqual(afterDelete);
      // One that changes the type is recounted.
      await db.execute(sql`
        UPDATE email_events SET type = 'opened', machine = false WHERE user_id = ${user.id} AND type = 'clicked'`);
      await expectSameAsDirect(db, user.id);
      // So is a 'sent' event that becomes something else (no code does it); sends after a recount add to
      // the recounted rows, on days that have some already.
      await db.execute(sql`
        UPDATE email_events SET type = 'failed' WHERE user_id = ${user.id} AND type = 'sent' AND id % 3 = 0`);
      await expectSameAsDirect(db, user.id);
      const later = stream
        .filter((e) => e.type === 'sent' && e.outboxMessageId)
        .slice(0, 40)
        .map((e) => ({ ...e, outboxMessageId: randomUUID() }));
      await insertInBatches(db, later, seed * 11);
      await expectSameAsDirect(db, user.id);
      const afterSends = await mine();
      await rebuildAnalytics({ db });
      expect(await mine()).toEqual(afterSends);
    },
    240_000,
  );

  // The dispatcher's two workers record their batches' 'sent' events for one user and campaign on the same
  // day: neither may wait for the other's commit on those roll-up rows (one slot per backend). PGlite has
  // one connection: nothing to race.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "let two writers count one campaign's sends on the same day, neither waiting for the other",
    async () => {
      const db = app.services.db;
      const user = await createUser(app);
      const { campaign } = await seedCampaign(db, user.user.id);
      const sent = () => ({
        userId: user.user.id,
        campaignId: campaign.id,
        outboxMessageId: randomUUID(),
        type: 'sent' as const,
        occurredAt: clockNow(),
      });
      await db.transaction(async (holder) => {
        await holder.insert(emailEvents).values([sent(), sent()]);
        // A second connection while the first transaction is still open.
        await db.transaction(async (other) => {
          await other.execute(sql`set local lock_timeout = '3s'`);
          await other.insert(emailEvents).values(sent());
        });
      });
      await expectSameAsDirect(db, user.user.id);
      const kept = {
        daily: rowsOf(await db.execute(dailyRows(user.user.id))),
        userDaily: rowsOf(await db.execute(userDailyRows(user.user.id))),
        weekly: rowsOf(await db.execute(weeklyRows(user.user.id))),
      };
      expect(kept.userDaily).toMatchObject([{ sent: 3, sent_last: 3 }]);
      // Folded as a newsletter's finish does: one row a key, the same figures.
      await db.execute(sql`SELECT analytics_fold(${user.user.id})`);
      const [spread] = rowsOf<{ n: number }>(
        await db.execute(sql`SELECT (SELECT count(*) FROM analytics_daily WHERE user_id = ${user.user.id} AND slot <> 0)
          + (SELECT count(*) FROM analytics_user_daily WHERE user_id = ${user.user.id} AND slot <> 0)
          + (SELECT count(*) FROM analytics_weekly WHERE user_id = ${user.user.id} AND slot <> 0) AS n`),
      );
      expect(Number(spread?.n)).toBe(0);
      expect({
        daily: rowsOf(await db.execute(dailyRows(user.user.id))),
        userDaily: rowsOf(await db.execute(userDailyRows(user.user.id))),
        weekly: rowsOf(await db.execute(weeklyRows(user.user.id))),
      }).toEqual(kept);
      await rebuildAnalytics({ db });
      expect(rowsOf(await db.execute(dailyRows(user.user.id)))).toEqual(kept.daily);
    },
  );

  it('counts one batch holding several days of the same message once per day and once per period', async () => {
    const db = app.services.db;
    const user = streamUsers[3]!;
    const { campaign } = await seedCampaign(db, user.id);
    const message = randomUUID();
    const base = {
      userId: user.id,
      campaignId: campaign.id,
      outboxMessageId: message,
      type: 'opened' as const,
    };
    await db.insert(emailEvents).values([
      { ...base, occurredAt: new Date(clockNow().getTime() - 3 * DAY) },
      { ...base, occurredAt: new Date(clockNow().getTime() - 3 * DAY - 60_000) },
      { ...base, occurredAt: new Date(clockNow().getTime() - 1 * DAY) },
    ]);
    // Then an older one arrives late: a new day, not a new period subject.
    await db.insert(emailEvents).values({ ...base, occurredAt: new Date(clockNow().getTime() - 5 * DAY) });
    const result = await getAnalytics({ db, user: { id: user.id }, days: 7 });
    expect(result.totals.openedHuman).toBe(1);
    expect(result.daily.filter((d) => d.opened > 0)).toHaveLength(3);
    await expectSameAsDirect(db, user.id);
  });

  it("answers one campaign's numbers through the API, and 404 for another user's campaign", async () => {
    const db = app.services.db;
    const { campaign } = await seedCampaign(db, owner.user.id);
    await db.insert(emailEvents).values({
      userId: owner.user.id,
      campaignId: campaign.id,
      outboxMessageId: randomUUID(),
      type: 'sent',
      occurredAt: new Date(clockNow().getTime() - DAY),
    });
    const mine = await as(
      app,
      owner.cookie,
    )({ method: 'GET', url: `/api/analytics?days=7&campaignId=${campaign.id}` });
    expect(mine.statusCode).toBe(200);
    const body = mine.json() as Analytics;
    expect(body.totals.sent).toBe(1);
    expect(body.campaigns.map((c) => c.id)).toEqual([campaign.id]);

    const theirs = await as(
      app,
      stranger.cookie,
    )({ method: 'GET', url: `/api/analytics?days=7&campaignId=${campaign.id}` });
    expect(theirs.statusCode).toBe(404);
    const bad = await as(app, owner.cookie)({ method: 'GET', url: '/api/analytics?days=7&campaignId=nope' });
    expect(bad.statusCode).toBe(400);
  });
});
