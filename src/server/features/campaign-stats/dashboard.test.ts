import { randomBytes } from 'node:crypto';
import { campaigns, leadScopes, newsletters } from '@server/db/schema/index';
import { now, startOfUtcMonth } from '@server/lib/clock';
import {
  percentString,
  type RecentCampaign,
  type RecentNewsletter,
  type UserStats,
} from '@shared/campaign-stats';
import { seedCampaign, seedContact, seedEvent, seedMessage } from '@tests/factories/campaign-stats';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});

afterAll(async () => {
  await app.close();
});

const lastMonth = () => new Date(startOfUtcMonth(now()).getTime() - 86_400_000);

async function seedNewsletter(
  userId: string,
  values: Partial<typeof newsletters.$inferInsert> = {},
): Promise<typeof newsletters.$inferSelect> {
  const [row] = await app.services.db
    .insert(newsletters)
    .values({
      userId,
      name: `Newsletter ${randomBytes(3).toString('hex')}`,
      subject: 'Our June news',
      webToken: randomBytes(12).toString('base64url'),
      ...values,
    })
    .returning();
  return row!;
}

describe('percentString', () => {
  it('reads like "42.5%": one decimal at most, 0% when nothing was sent', () => {
    expect(percentString(0, 0)).toBe('0%');
    expect(percentString(1, 2)).toBe('50%');
    expect(percentString(17, 40)).toBe('42.5%');
    expect(percentString(1, 3)).toBe('33.3%');
    expect(percentString(5, 4)).toBe('100%');
  });
});

describe('GET /api/user/stats', () => {
  it('counts only this month: campaigns launched and newsletters sent', async () => {
    const user = await createUser(app);
    const { db } = app.services;
    await seedCampaign(db, user.user.id, { startedAt: now() });
    await seedCampaign(db, user.user.id, { startedAt: now(), status: 'completed' });
    await seedCampaign(db, user.user.id, { startedAt: lastMonth() });
    await seedCampaign(db, user.user.id, { startedAt: null, status: 'draft' });
    // A newsletter's engine row is not a campaign.
    await db
      .insert(campaigns)
      .values({ userId: user.user.id, name: 'News engine', kind: 'newsletter', startedAt: now() });
    await seedNewsletter(user.user.id, { status: 'sent', sentAt: now() });
    await seedNewsletter(user.user.id, { status: 'sent', sentAt: now(), kind: 'bulk' });
    await seedNewsletter(user.user.id, { status: 'sent', sentAt: lastMonth() });
    await seedNewsletter(user.user.id, { status: 'draft' });
    await seedNewsletter(user.user.id, {
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 86_400_000),
    });
    // Someone else's sends never count.
    const other = await createUser(app);
    await seedCampaign(db, other.user.id, { startedAt: now() });
    await seedNewsletter(other.user.id, { status: 'sent', sentAt: now() });

    const response = await as(app, user.cookie)({ method: 'GET', url: '/api/user/stats' });
    expect(response.statusCode).toBe(200);
    const stats = response.json<UserStats>();
    expect(stats).toMatchObject({ campaignsSent: 2, newslettersSent: 2, listContacts: 0 });
    expect(stats.monthStart).toBe(startOfUtcMonth(now()).toISOString());
  });

  it("counts a free user's chosen country and category as available contacts", async () => {
    const tag = uniqueTag();
    const category = tag.toLowerCase();
    await insertDirectoryContacts(app, tag, [{ category }, { category }, { category }]);
    const free = await createUser(app, { plan: 'free' });
    const before = (await as(app, free.cookie)({ method: 'GET', url: '/api/user/stats' })).json<UserStats>();
    expect(before.availableContactsScope).toBe('choose_scope');
    // The whole directory is not what a free user can use: nothing until they choose.
    expect(before.availableContacts).toBe(0);

    await app.services.db
      .insert(leadScopes)
      .values({ userId: free.user.id, countryCodes: ['NG'], categories: [category] });
    const after = (await as(app, free.cookie)({ method: 'GET', url: '/api/user/stats' })).json<UserStats>();
    expect(after).toMatchObject({
      availableContacts: 3,
      availableContactsScope: 'plan_scope',
      availableContactsIn: { countryCodes: ['NG'], categories: [category] },
    });

    const paid = await createUser(app, {
      plan: 'starter',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    const all = (await as(app, paid.cookie)({ method: 'GET', url: '/api/user/stats' })).json<UserStats>();
    expect(all.availableContactsScope).toBe('all');
    expect(all.availableContacts).toBeGreaterThanOrEqual(3);
  });

  it('needs a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/user/stats' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/user/campaigns/recent' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/user/newsletters/recent' })).statusCode).toBe(401);
  });
});

describe('GET /api/user/campaigns/recent', () => {
  it('lists the five newest campaigns with recipients and rates, archived ones left out', async () => {
    const user = await createUser(app);
    const { db } = app.services;
    const made = [];
    for (let i = 0; i < 6; i += 1) {
      const { campaign } = await seedCampaign(db, user.user.id, { name: `Campaign ${i}` });
      await db
        .update(campaigns)
        .set({ createdAt: new Date(Date.now() - (10 - i) * 60_000) })
        .where(eq(campaigns.id, campaign.id));
      made.push(campaign);
    }
    const archived = await seedCampaign(db, user.user.id, { name: 'Archived' });
    await db.update(campaigns).set({ archivedAt: now() }).where(eq(campaigns.id, archived.campaign.id));

    // The newest: 4 sent, 2 opened by people (one only by a privacy proxy), 1 clicked.
    const newest = made[5]!;
    for (let i = 0; i < 4; i += 1) {
      const contact = await seedContact(db, newest, { email: `lead${i}@rates.example` });
      const message = await seedMessage(db, newest, contact, {});
      await seedEvent(db, message, 'sent');
      if (i < 2) await seedEvent(db, message, 'opened');
      if (i === 2) await seedEvent(db, message, 'opened', { machine: true });
      if (i === 0) await seedEvent(db, message, 'clicked');
    }

    const response = await as(app, user.cookie)({ method: 'GET', url: '/api/user/campaigns/recent' });
    expect(response.statusCode).toBe(200);
    const recent = response.json<RecentCampaign[]>();
    expect(recent.map((r) => r.name)).toEqual([
      'Campaign 5',
      'Campaign 4',
      'Campaign 3',
      'Campaign 2',
      'Campaign 1',
    ]);
    expect(recent[0]).toMatchObject({
      recipientCount: 4,
      openRate: '50%',
      clickRate: '25%',
      status: 'active',
    });
    expect(recent[1]).toMatchObject({ recipientCount: 0, openRate: '0%', clickRate: '0%' });
  });
});

describe('GET /api/user/newsletters/recent', () => {
  it('lists the five newest newsletters with the recipients of those sent', async () => {
    const user = await createUser(app);
    const { db } = app.services;
    for (let i = 0; i < 5; i += 1) {
      await seedNewsletter(user.user.id, {
        name: `Old ${i}`,
        createdAt: new Date(Date.now() - 3_600_000 + i),
      });
    }
    const { campaign } = await seedCampaign(db, user.user.id);
    for (const email of ['a@news.example', 'b@news.example', 'c@news.example']) {
      await seedContact(db, campaign, { email });
    }
    const sent = await seedNewsletter(user.user.id, {
      name: 'June news',
      status: 'sent',
      sentAt: now(),
      campaignId: campaign.id,
    });
    const recent = (await as(app, user.cookie)({ method: 'GET', url: '/api/user/newsletters/recent' })).json<
      RecentNewsletter[]
    >();
    expect(recent).toHaveLength(5);
    expect(recent[0]).toMatchObject({
      id: sent.id,
      status: 'sent',
      recipientCount: 3,
      subject: 'Our June news',
    });
    expect(recent.slice(1).every((n) => n.recipientCount === 0 && n.status === 'draft')).toBe(true);
    expect(recent.map((n) => n.name)).not.toContain('Old 0');
  });
});
