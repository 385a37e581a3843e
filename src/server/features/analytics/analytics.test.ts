import { randomUUID } from 'node:crypto';
import { campaigns, newsletters, pricingPlans } from '@server/db/schema/index';
import type { Analytics } from '@shared/analytics';
import {
  type CampaignRow,
  type ContactRow,
  seedCampaign,
  seedContact,
  seedEvent,
  seedMessage,
} from '@tests/factories/campaign-stats';
import { createUser, type TestUser } from '@tests/factories/users';
import { type FakeRateServer, startFakeRateServer } from '@tests/fakes/rates';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DAY = 86_400_000;
const USD_PER_NGN = 0.00065;

let app: FastifyInstance;
let rates: FakeRateServer;
let owner: TestUser;
let stranger: TestUser;
let outreach: CampaignRow;
let bulletin: CampaignRow;
let bulletinNewsletterId: string;

const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
const utcDate = (at: Date) => at.toISOString().slice(0, 10);

/** One recipient with one sent message, `sentDaysAgo` days back. */
async function sentMessage(campaign: CampaignRow, email: string, sentDaysAgo: number, extra = {}) {
  const db = app.services.db;
  const contact: ContactRow = await seedContact(db, campaign, { email, ...extra });
  const message = await seedMessage(db, campaign, contact, {});
  await seedEvent(db, message, 'sent', { at: daysAgo(sentDaysAgo) });
  return { contact, message };
}

beforeAll(async () => {
  rates = await startFakeRateServer({
    date: '2026-05-01',
    ngn: { usd: USD_PER_NGN, zar: 0.0118, kes: 0.084, ghs: 0.0101 },
  });
  app = await createTestApp({ CURRENCY_RATES_URL: rates.url });
  owner = await createUser(app, { plan: 'starter', status: 'active', periodEnd: daysAgo(-20) });
  stranger = await createUser(app);
  const { db } = app.services;

  ({ campaign: outreach } = await seedCampaign(db, owner.user.id, { name: 'Lagos fintech outreach' }));
  ({ campaign: bulletin } = await seedCampaign(db, owner.user.id, { name: 'June bulletin' }));
  await db.update(campaigns).set({ kind: 'newsletter' }).where(eq(campaigns.id, bulletin.id));
  const [newsletter] = await db
    .insert(newsletters)
    .values({
      userId: owner.user.id,
      name: 'June bulletin',
      status: 'sent',
      webToken: randomUUID(),
      campaignId: bulletin.id,
    })
    .returning();
  bulletinNewsletterId = newsletter!.id;

  // Two days ago: four messages of the outreach campaign.
  const ade = await sentMessage(outreach, 'ade@kano.example', 2, {
    wonAt: new Date(),
    dealValue: '50000.00',
    dealCurrency: 'NGN',
  });
  const bisi = await sentMessage(outreach, 'bisi@lagos.example', 2, {
    wonAt: new Date(),
    dealValue: '100.00',
    dealCurrency: 'USD',
  });
  const chika = await sentMessage(outreach, 'chika@enugu.example', 2);
  const dayo = await sentMessage(outreach, 'dayo@ibadan.example', 2);
  // A person opened Ade's message twice and clicked; Bisi's was only fetched by Apple's privacy proxy
  // and a link scanner; Chika's by the proxy and then by a person.
  await seedEvent(db, ade.message, 'opened', { at: daysAgo(2) });
  await seedEvent(db, ade.message, 'opened', { at: daysAgo(2) });
  await seedEvent(db, ade.message, 'clicked', { at: daysAgo(2) });
  await seedEvent(db, ade.message, 'replied', { at: daysAgo(1) });
  await seedEvent(db, bisi.message, 'opened', { at: daysAgo(2), machine: true });
  await seedEvent(db, bisi.message, 'clicked', { at: daysAgo(2), machine: true });
  await seedEvent(db, chika.message, 'opened', { at: daysAgo(2), machine: true });
  await seedEvent(db, chika.message, 'opened', { at: daysAgo(1) });
  await seedEvent(db, chika.message, 'unsubscribed', { at: daysAgo(1) });
  await seedEvent(db, dayo.message, 'bounced', { at: daysAgo(2) });

  // Ten days ago (inside 30 days, outside 7) and forty days ago (inside 90 only, with its own deal).
  await sentMessage(outreach, 'efe@warri.example', 10);
  const funmi = await sentMessage(outreach, 'funmi@abeokuta.example', 40, {
    wonAt: daysAgo(40),
    dealValue: '20000.00',
    dealCurrency: 'NGN',
  });
  await seedEvent(db, funmi.message, 'opened', { at: daysAgo(40) });

  // Yesterday: the newsletter, opened by a person.
  const reader = await sentMessage(bulletin, 'gbenga@oyo.example', 1);
  await seedEvent(db, reader.message, 'opened', { at: daysAgo(1) });

  // The stranger's own campaign: none of it may reach the owner's numbers, nor the owner's theirs.
  const { campaign: theirs } = await seedCampaign(db, stranger.user.id, { name: 'Stranger campaign' });
  const theirReader = await sentMessage(theirs, 'hauwa@kaduna.example', 1, {
    wonAt: new Date(),
    dealValue: '999.00',
    dealCurrency: 'NGN',
  });
  await seedEvent(db, theirReader.message, 'opened', { at: daysAgo(1) });
  await seedEvent(db, theirReader.message, 'clicked', { at: daysAgo(1) });
});

afterAll(async () => {
  await app.close();
  await rates.close();
});

const get = (user: TestUser, url: string) => as(app, user.cookie)({ method: 'GET', url });

async function analytics(user: TestUser, days?: number): Promise<Analytics> {
  const response = await get(user, `/api/analytics${days ? `?days=${days}` : ''}`);
  expect(response.statusCode).toBe(200);
  return response.json<Analytics>();
}

async function starterPrice(): Promise<number> {
  const [row] = await app.services.db
    .select({ price: pricingPlans.priceMonthly })
    .from(pricingPlans)
    .where(eq(pricingPlans.id, 'starter'));
  return row!.price;
}

describe('GET /api/analytics', () => {
  it('totals the last 30 days by default, counting only human opens and clicks', async () => {
    const body = await analytics(owner);
    expect(body.days).toBe(30);
    expect(body.totals).toEqual({
      sent: 6,
      opened: 4,
      openedHuman: 3,
      clicked: 1,
      replied: 1,
      bounced: 1,
      unsubscribed: 1,
      failed: 0,
      won: 2,
      // ₦50,000 plus $100 at 0.00065 USD per naira (₦153,846.15).
      revenue: 203_846.15,
    });
    expect(body.convertedCurrencies).toEqual(['USD']);
    expect(body.hasSentAny).toBe(true);
  });

  it('draws one point per UTC day of the period, today last', async () => {
    const body = await analytics(owner);
    expect(body.daily).toHaveLength(30);
    expect(body.daily.at(-1)!.date).toBe(utcDate(new Date()));
    expect(body.daily[0]!.date).toBe(body.from.slice(0, 10));
    const day = (n: number) => body.daily.find((d) => d.date === utcDate(daysAgo(n)));
    expect(day(2)).toMatchObject({ sent: 4, opened: 1 });
    expect(day(1)).toMatchObject({ sent: 1, opened: 2, replied: 1 });
    expect(day(10)).toMatchObject({ sent: 1, opened: 0, clicked: 0, replied: 0 });
    expect(body.daily.reduce((sum, d) => sum + d.sent, 0)).toBe(6);
  });

  it('lists each campaign and newsletter with its own numbers and revenue', async () => {
    const body = await analytics(owner);
    expect(body.campaigns).toEqual([
      expect.objectContaining({
        id: outreach.id,
        name: 'Lagos fintech outreach',
        kind: 'campaign',
        newsletterId: null,
        sent: 5,
        openedHuman: 2,
        clicked: 1,
        replied: 1,
        won: 2,
        revenue: 203_846.15,
      }),
      expect.objectContaining({
        id: bulletin.id,
        kind: 'newsletter',
        newsletterId: bulletinNewsletterId,
        sent: 1,
        openedHuman: 1,
        won: 0,
        revenue: 0,
      }),
    ]);
  });

  it('filters by period: 7 days leaves out older sends, 90 days takes in older deals', async () => {
    const week = await analytics(owner, 7);
    expect(week.daily).toHaveLength(7);
    expect(week.totals).toMatchObject({ sent: 5, openedHuman: 3, won: 2 });

    const quarter = await analytics(owner, 90);
    expect(quarter.daily).toHaveLength(90);
    expect(quarter.totals).toMatchObject({ sent: 7, opened: 5, openedHuman: 4, won: 3, revenue: 223_846.15 });
  });

  it('works out ROI from the plan price prorated to the period', async () => {
    const price = await starterPrice();
    expect(price).toBeGreaterThan(0);
    const month = await analytics(owner, 30);
    expect(month.plan).toEqual({ id: 'starter', name: expect.any(String), priceMonthly: price });
    expect(month.planCost).toBe(price);
    expect(month.roi).toBeCloseTo((20_384_615 - price) / price, 3);

    const week = await analytics(owner, 7);
    expect(week.planCost).toBe(Math.round((price * 7) / 30));
    expect(week.roi).toBeCloseTo((20_384_615 - week.planCost) / week.planCost, 3);
  });

  it("never counts another user's data, and has no ROI on the free plan", async () => {
    const body = await analytics(stranger);
    expect(body.totals).toMatchObject({ sent: 1, openedHuman: 1, clicked: 1, won: 1, revenue: 999 });
    expect(body.campaigns.map((c) => c.name)).toEqual(['Stranger campaign']);
    expect(body.convertedCurrencies).toEqual([]);
    expect(body.plan.id).toBe('free');
    expect(body.planCost).toBe(0);
    expect(body.roi).toBeNull();
  });

  it('tells a user who has sent nothing yet', async () => {
    const newcomer = await createUser(app);
    const body = await analytics(newcomer, 7);
    expect(body.hasSentAny).toBe(false);
    expect(body.campaigns).toEqual([]);
    expect(body.totals.sent).toBe(0);
    expect(body.daily.every((d) => d.sent === 0)).toBe(true);
  });

  it('refuses another period with 400 and a signed-out caller with 401', async () => {
    expect((await get(owner, '/api/analytics?days=14')).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/analytics' })).statusCode).toBe(401);
  });
});
