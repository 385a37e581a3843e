import { contactLists, orders } from '@server/db/schema/index';
import { findJob } from '@server/jobs/registry';
import { advanceClock, resetClock } from '@server/lib/clock';
import { costOptimizationSchema } from '@shared/cost-optimization';
import { seedCampaign, seedContact, seedEvent, seedMessage } from '@tests/factories/campaign-stats';
import { createListWithContacts, testEmails } from '@tests/factories/campaigns';
import { paidOrderRow } from '@tests/factories/payments';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollUpPlatformStats, SETTLE_MS } from '../admin-analytics/platform-rollup.service';

const DAY_MS = 86_400_000;

describe('cost optimization', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let sender: TestUser;
  let idle: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    const { db } = app.services;
    admin = await createUser(app, { role: 'super_admin' });
    const paid = {
      plan: 'professional' as const,
      status: 'active',
      periodEnd: new Date(Date.now() + 20 * DAY_MS),
    };
    sender = await createUser(app, paid);
    idle = await createUser(app, paid);
    // The sender: a list of 40 contacts, a campaign that sent 3 messages today with events.
    await createListWithContacts(
      app,
      sender.user.id,
      testEmails(40).map((email) => ({ email })),
    );
    const { campaign } = await seedCampaign(db, sender.user.id);
    for (const email of testEmails(3)) {
      const contact = await seedContact(db, campaign, { email });
      const message = await seedMessage(db, campaign, contact, { state: 'sent' });
      await seedEvent(db, message, 'opened');
    }
    await db
      .insert(orders)
      .values([
        paidOrderRow(sender.user.id, 1_500_000),
        paidOrderRow(sender.user.id, 900_000, 'refunded'),
        paidOrderRow(idle.user.id, 2_500_000),
      ]);
    // A list of the idle user's, deleted 31 days ago: the purge job's next catch.
    const old = await createListWithContacts(app, idle.user.id, [{ email: testEmails(1)[0]! }]);
    await db
      .update(contactLists)
      .set({ deletedAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(contactLists.id, old.id));
  });
  afterAll(() => app.close());

  const figures = async (user = '') => {
    const response = await as(
      app,
      admin.cookie,
    )({
      method: 'GET',
      url: `/api/admin/cost-optimization${user ? `?user=${encodeURIComponent(user)}` : ''}`,
    });
    expect(response.statusCode).toBe(200);
    return costOptimizationSchema.parse(response.json());
  };

  it('is for super admins only', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/admin/cost-optimization' })).statusCode).toBe(401);
    const dataEntry = await createUser(app, { role: 'data_entry' });
    for (const who of [sender, dataEntry]) {
      const response = await as(app, who.cookie)({ method: 'GET', url: '/api/admin/cost-optimization' });
      expect(response.statusCode).toBe(403);
    }
  });

  it('measures every table on disk, largest first', async () => {
    const data = await figures();
    expect(data.engine).toBe(app.services.database.kind);
    expect(data.databaseBytes).toBeGreaterThan(0);
    const listContacts = data.tables.find((t) => t.table === 'list_contacts');
    expect(listContacts?.totalBytes).toBeGreaterThan(0);
    expect(listContacts!.totalBytes).toBeGreaterThanOrEqual(listContacts!.tableBytes);
    const sizes = data.tables.map((t) => t.totalBytes);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it("counts each user's rows, estimates their storage and sets it against what they paid", async () => {
    // Other tests' users can be larger: narrowed to this one by address.
    const data = await figures(sender.email);
    expect(data.users).toHaveLength(1);
    const row = data.users.find((u) => u.userId === sender.user.id);
    expect(row).toMatchObject({
      email: sender.email,
      plan: 'professional',
      lists: 1,
      contacts: 40,
      outboxMessages: 3,
      events: 3,
      sent30d: 3,
      // The refunded order is not revenue.
      revenueKobo: 1_500_000,
    });
    expect(row!.estimatedBytes).toBeGreaterThan(0);
    const [adminRow] = (await figures(admin.email)).users;
    expect(row!.estimatedBytes).toBeGreaterThan(adminRow!.estimatedBytes);
    const all = await figures();
    const estimates = all.users.map((u) => u.estimatedBytes);
    expect(estimates).toEqual([...estimates].sort((a, b) => b - a));
    expect(all.usersTotal).toBeGreaterThanOrEqual(3);
  });

  it("counts a user's events the same before and after the event log is rolled up", async () => {
    const before = (await figures(sender.email)).users[0];
    // Past the roll-up's settle time, so this run folds the sender's events in.
    advanceClock(SETTLE_MS + 60_000);
    try {
      const rolled = await rollUpPlatformStats({ db: app.services.db });
      expect(rolled.events).toBeGreaterThanOrEqual(3);
    } finally {
      resetClock();
    }
    const after = (await figures(sender.email)).users[0];
    expect(after?.events).toBe(before?.events);
    expect(after?.events).toBe(3);
  });

  it('finds paid accounts that sent nothing in 30 days, and not those that did', async () => {
    const data = await figures();
    expect(data.idlePaidAccounts.find((a) => a.userId === idle.user.id)).toMatchObject({
      plan: 'professional',
      lastSentAt: null,
      revenueKobo: 2_500_000,
    });
    expect(data.idlePaidAccounts.some((a) => a.userId === sender.user.id)).toBe(false);
    expect(data.idlePaidAccounts.some((a) => a.userId === admin.user.id)).toBe(false);
  });

  it('counts stale data each purge job will remove, with its schedule', async () => {
    const data = await figures();
    const lists = data.staleData.find((s) => s.key === 'deleted-lists');
    expect(lists).toMatchObject({ job: 'purge-deleted-lists', cron: findJob('purge-deleted-lists')?.cron });
    expect(lists!.rows).toBeGreaterThanOrEqual(1);
    expect(data.staleData.map((s) => s.job)).toEqual(
      expect.arrayContaining([
        'purge-site-traffic',
        'purge-deleted-directory-contacts',
        'purge-recycle-bin',
        'purge-expired-sessions',
      ]),
    );
  });
});
