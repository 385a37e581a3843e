import { randomUUID } from 'node:crypto';
import {
  emailEvents,
  orders,
  outboxMessages,
  pricingPlans,
  subscriptions,
  users,
} from '@server/db/schema/index';
import { advanceClock, resetClock } from '@server/lib/clock';
import {
  type BusinessAnalytics,
  businessAnalyticsSchema,
  databaseMonitorSchema,
  type SystemAnalytics,
  systemAnalyticsSchema,
} from '@shared/admin-analytics';
import { createSendingCampaign, createSinkAccount, queueForContacts } from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollUpPlatformStats, SETTLE_MS } from './platform-rollup.service';

const MINUTE = 60_000;

describe('admin analytics API', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let owner: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
    owner = await createUser(app);
  });
  afterAll(() => app.close());

  const asAdmin = () => as(app, admin.cookie);
  const system = async (range = '24h'): Promise<SystemAnalytics> => {
    const response = await asAdmin()({ method: 'GET', url: `/api/admin/system-analytics?range=${range}` });
    expect(response.statusCode, response.body).toBe(200);
    return systemAnalyticsSchema.parse(response.json());
  };
  const business = async (range = '30d'): Promise<BusinessAnalytics> => {
    const response = await asAdmin()({ method: 'GET', url: `/api/admin/analytics?range=${range}` });
    expect(response.statusCode, response.body).toBe(200);
    return businessAnalyticsSchema.parse(response.json());
  };

  it('answers 401 signed out and 403 to a user and a data entry officer', async () => {
    const dataEntry = await createUser(app, { role: 'data_entry' });
    for (const url of [
      '/api/admin/system-analytics',
      '/api/admin/analytics',
      '/api/admin/database-monitor',
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      for (const who of [owner, dataEntry]) {
        expect(
          (await as(app, who.cookie)({ method: 'GET', url })).statusCode,
          `${who.user.role} ${url}`,
        ).toBe(403);
      }
    }
  });

  it('refuses an unknown range with a clear message', async () => {
    const response = await asAdmin()({ method: 'GET', url: '/api/admin/system-analytics?range=1y' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('range');
  });

  describe('System Analytics', () => {
    it('counts sends, errors, deferrals and tracking hits live, and the same after the roll-up', async () => {
      const account = await createSinkAccount(app, owner.user.id);
      const campaign = await createSendingCampaign(app, owner.user.id, [account]);
      const { messageIds } = await queueForContacts(app, campaign, 3);
      const { db } = app.services;
      const sentAt = new Date(Date.now() - 90 * MINUTE);
      // Queued 30 minutes before they went: a wait of 1,800 s.
      await db
        .update(outboxMessages)
        .set({ createdAt: new Date(sentAt.getTime() - 30 * MINUTE) })
        .where(inArray(outboxMessages.id, messageIds));
      const before = await system();

      const base = {
        userId: owner.user.id,
        campaignId: campaign.id,
        senderAccountId: account.id,
        occurredAt: sentAt,
      };
      await db.insert(emailEvents).values([
        { ...base, type: 'sent', outboxMessageId: messageIds[0] },
        { ...base, type: 'sent', outboxMessageId: messageIds[1] },
        { ...base, type: 'failed', outboxMessageId: messageIds[2], detail: '550 refused' },
        { ...base, type: 'deferred', outboxMessageId: messageIds[2], detail: '421 try later' },
        { ...base, type: 'deferred', outboxMessageId: messageIds[2], detail: '421 try later' },
        { ...base, type: 'opened', outboxMessageId: messageIds[0] },
        {
          ...base,
          type: 'opened',
          outboxMessageId: messageIds[1],
          machine: true,
          machineReason: 'apple_mpp',
        },
        { ...base, type: 'clicked', outboxMessageId: messageIds[0] },
      ]);

      const live = await system();
      const delta = (after: SystemAnalytics) => ({
        sent: after.totals.sent - before.totals.sent,
        failed: after.totals.failed - before.totals.failed,
        deferred: after.totals.deferred - before.totals.deferred,
        opened: after.totals.opened - before.totals.opened,
        openedMachine: after.totals.openedMachine - before.totals.openedMachine,
        clicked: after.totals.clicked - before.totals.clicked,
      });
      const expected = { sent: 2, failed: 1, deferred: 2, opened: 2, openedMachine: 1, clicked: 1 };
      expect(delta(live)).toEqual(expected);
      expect(live.series).toHaveLength(24);
      const hour = live.series.find(
        (b) => new Date(b.at).getTime() === Math.floor(sentAt.getTime() / 3_600_000) * 3_600_000,
      );
      expect(hour?.sent).toBeGreaterThanOrEqual(2);
      expect(hour?.latencyP50).not.toBeNull();

      await rollUpPlatformStats({ db });
      const rolled = await system();
      expect(delta(rolled)).toEqual(expected);
      const [maxId] = await db.select({ id: sql<number>`max(${emailEvents.id})` }).from(emailEvents);
      expect(rolled.rolledUpThrough).toBeGreaterThan(before.rolledUpThrough);
      expect(rolled.rolledUpThrough).toBeLessThanOrEqual(Number(maxId?.id));
      expect(rolled.rolledUpAt).not.toBeNull();

      // A second run folds nothing twice.
      await rollUpPlatformStats({ db });
      expect(delta(await system())).toEqual(expected);
    });

    it('puts the wait from queued to sent in the right latency bucket', async () => {
      const account = await createSinkAccount(app, owner.user.id);
      const campaign = await createSendingCampaign(app, owner.user.id, [account]);
      const { messageIds } = await queueForContacts(app, campaign, 1);
      const { db } = app.services;
      // Far back in the 30-day range, on a day no other test writes to: this day holds only this send.
      const sentAt = new Date(Date.now() - 20 * 86_400_000);
      await db
        .update(outboxMessages)
        .set({ createdAt: new Date(sentAt.getTime() - 600_000) })
        .where(eq(outboxMessages.id, messageIds[0]!));
      await db.insert(emailEvents).values({
        userId: owner.user.id,
        campaignId: campaign.id,
        outboxMessageId: messageIds[0],
        type: 'sent',
        occurredAt: sentAt,
      });
      await rollUpPlatformStats({ db });
      const month = await system('30d');
      expect(month.series).toHaveLength(30);
      const day = month.series.find((b) => b.at.slice(0, 10) === sentAt.toISOString().slice(0, 10));
      expect(day?.sent).toBe(1);
      // 600 s, read from a histogram whose buckets are within ±9 %.
      expect(day?.latencyP50).toBeGreaterThan(540);
      expect(day?.latencyP50).toBeLessThan(660);
    });

    it('leaves events younger than the settle time to the next run and still counts them', async () => {
      const { db } = app.services;
      await rollUpPlatformStats({ db });
      const before = await system();
      await db.insert(emailEvents).values({ userId: owner.user.id, type: 'sent', occurredAt: new Date() });
      const result = await rollUpPlatformStats({ db });
      const [fresh] = await db
        .select({ id: sql<number>`max(${emailEvents.id})` })
        .from(emailEvents)
        .where(eq(emailEvents.userId, owner.user.id));
      expect(result.lastEventId).toBeLessThan(Number(fresh?.id));
      const after = await system();
      expect(after.totals.sent - before.totals.sent).toBe(1);
      expect(SETTLE_MS).toBeGreaterThan(0);
    });

    it('shows sessions, the due queue and six-hour buckets over a week', async () => {
      const week = await system('7d');
      expect(week.series).toHaveLength(28);
      expect(week.bucketSeconds).toBe(6 * 3600);
      expect(week.activity.activeSessions).toBeGreaterThanOrEqual(2);
      expect(week.activity.activeUsers).toBeGreaterThanOrEqual(2);
      expect(week.queue.outboxDue).toBeGreaterThanOrEqual(0);
    });
  });

  describe('Analytics', () => {
    it('counts a sign-up, its activation, a paid conversion, MRR and churn by plan, and top senders', async () => {
      const before = await business();
      const heavy = await createUser(app, { plan: 'professional', status: 'active' });
      await app.services.db
        .update(users)
        .set({ subscriptionInterval: 'monthly' })
        .where(eq(users.id, heavy.user.id));
      const churner = await createUser(app);
      const { db } = app.services;
      const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
      await db.insert(emailEvents).values([
        ...Array.from({ length: 400 }, () => ({
          userId: heavy.user.id,
          type: 'sent' as const,
          occurredAt: twoHoursAgo,
        })),
        { userId: heavy.user.id, type: 'replied' as const, occurredAt: twoHoursAgo },
      ]);
      await db.insert(orders).values([
        {
          userId: heavy.user.id,
          reference: `t-${randomUUID()}`,
          planId: 'professional',
          interval: 'monthly',
          amount: 2_500_000,
          status: 'success',
          paidAt: new Date(),
        },
        {
          userId: churner.user.id,
          reference: `t-${randomUUID()}`,
          planId: 'starter',
          interval: 'monthly',
          amount: 1_000_000,
          status: 'success',
          paidAt: new Date(),
        },
      ]);
      await db.insert(subscriptions).values({ userId: churner.user.id, endedAt: new Date() });
      const [plan] = await db
        .select({ price: pricingPlans.priceMonthly })
        .from(pricingPlans)
        .where(eq(pricingPlans.id, 'professional'));

      const after = await business();
      expect(after.days).toHaveLength(30);
      expect(after.totals.signups - before.totals.signups).toBe(2);
      expect(after.totals.activations - before.totals.activations).toBe(1);
      expect(after.totals.signupsActivated - before.totals.signupsActivated).toBe(1);
      expect(after.totals.conversions - before.totals.conversions).toBe(2);
      expect(after.totals.revenue - before.totals.revenue).toBe(3_500_000);
      expect(after.totals.sent - before.totals.sent).toBe(400);
      expect(after.totals.replied - before.totals.replied).toBe(1);
      const planOf = (result: BusinessAnalytics, id: string) => result.plans.find((p) => p.planId === id);
      expect(planOf(after, 'professional')!.mrr - planOf(before, 'professional')!.mrr).toBe(plan!.price);
      expect(planOf(after, 'professional')!.subscribers - planOf(before, 'professional')!.subscribers).toBe(
        1,
      );
      expect(planOf(after, 'starter')!.churned - planOf(before, 'starter')!.churned).toBe(1);
      expect(after.topUsers[0]).toMatchObject({
        userId: heavy.user.id,
        email: heavy.email,
        sent: 400,
        replied: 1,
      });

      // The same figures once the events are rolled up.
      await rollUpPlatformStats({ db });
      const rolled = await business();
      expect(rolled.totals.sent).toBe(after.totals.sent);
      expect(rolled.totals.activations).toBe(after.totals.activations);
      expect(rolled.topUsers[0]?.sent).toBe(400);
    });

    it("keeps each user's events of all time and first day sent as a rebuild from the event log finds them", async () => {
      const { db } = app.services;
      const [early, late] = [await createUser(app), await createUser(app)];
      const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
      const event = (userId: string, type: 'sent' | 'opened' | 'clicked', at: Date) => ({
        userId,
        type,
        occurredAt: at,
      });
      await db
        .insert(emailEvents)
        .values([
          event(early.user.id, 'sent', daysAgo(3)),
          event(early.user.id, 'opened', daysAgo(2)),
          event(late.user.id, 'opened', daysAgo(2)),
        ]);
      // Past the settle time: events other tests wrote just now would hold these back otherwise.
      const rollUp = async () => {
        advanceClock(SETTLE_MS + MINUTE);
        try {
          await rollUpPlatformStats({ db });
        } finally {
          resetClock();
        }
      };
      await rollUp();
      // A later batch with an earlier send (a late event) and a first send for the other user.
      await db
        .insert(emailEvents)
        .values([
          event(early.user.id, 'sent', daysAgo(5)),
          event(early.user.id, 'clicked', daysAgo(1)),
          event(late.user.id, 'sent', daysAgo(1)),
        ]);
      await rollUp();

      const ids = [early.user.id, late.user.id];
      const read = async (query: ReturnType<typeof sql>) =>
        (
          (await db.execute(query)) as unknown as {
            rows: { user_id: string; events: string | number; first_sent_day: string | Date | null }[];
          }
        ).rows
          .map((r) => ({
            userId: r.user_id,
            events: Number(r.events),
            firstSentDay: r.first_sent_day ? new Date(r.first_sent_day).toISOString().slice(0, 10) : null,
          }))
          .sort((a, b) => a.userId.localeCompare(b.userId));
      const rolled = await read(sql`
        SELECT user_id, events, first_sent_day FROM platform_user_totals WHERE user_id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`);
      const rebuilt = await read(sql`
        SELECT user_id, count(*) AS events,
          min((occurred_at AT TIME ZONE 'UTC')::date) FILTER (WHERE type = 'sent') AS first_sent_day
        FROM email_events WHERE user_id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) GROUP BY user_id`);
      expect(rolled).toEqual(rebuilt);
      expect(rolled.find((r) => r.userId === early.user.id)).toEqual({
        userId: early.user.id,
        events: 4,
        firstSentDay: daysAgo(5).toISOString().slice(0, 10),
      });
    });

    it('answers every range with one point a day', async () => {
      expect((await business('7d')).days).toHaveLength(7);
      expect((await business('365d')).days).toHaveLength(365);
    });
  });

  describe('Database Monitor', () => {
    it('lists table and index sizes and says what the engine cannot show', async () => {
      const response = await asAdmin()({ method: 'GET', url: '/api/admin/database-monitor' });
      expect(response.statusCode).toBe(200);
      const monitor = databaseMonitorSchema.parse(response.json());
      expect(monitor.engine).toBe(app.services.database.kind);
      expect(monitor.databaseBytes).toBeGreaterThan(0);
      expect(monitor.tables.map((t) => t.name)).toContain('public.email_events');
      expect(monitor.indexes.length).toBeGreaterThan(0);
      if (monitor.engine === 'pglite') {
        expect(monitor.connections).toBeNull();
        expect(monitor.longRunning).toBeNull();
        expect(monitor.notes.some((n) => n.includes('PGlite'))).toBe(true);
      } else {
        expect(monitor.connections?.total).toBeGreaterThanOrEqual(1);
        expect(monitor.longRunning).not.toBeNull();
        expect(
          monitor.slowStatements !== null || monitor.notes.some((n) => n.includes('pg_stat_statements')),
        ).toBe(true);
      }
    });
  });
});
