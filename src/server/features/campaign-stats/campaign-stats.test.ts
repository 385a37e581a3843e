import { inboundMessages } from '@server/db/schema/index';
import type {
  CampaignContactItem,
  CampaignContactPage,
  CampaignReply,
  CampaignStats,
  TimelineEntry,
} from '@shared/campaign-stats';
import {
  type CampaignRow,
  type ContactRow,
  type MessageRow,
  seedCampaign,
  seedContact,
  seedEvent,
  seedInbound,
  seedMessage,
} from '@tests/factories/campaign-stats';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: FastifyInstance;
let owner: TestUser;
let stranger: TestUser;
let campaign: CampaignRow;
let steps: { id: string; position: number }[];
const c: Record<string, ContactRow> = {};
const m: Record<string, MessageRow> = {};

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

beforeAll(async () => {
  app = await createTestApp();
  owner = await createUser(app);
  stranger = await createUser(app);
  const { db } = app.services;
  ({ campaign, steps } = await seedCampaign(db, owner.user.id, { steps: [['A', 'B'], ['A']] }));
  const s1 = steps[0]!;
  const s2 = steps[1]!;

  // Four contacts: Ade finished step 2 and unsubscribed, Bisi replied to step 1 (B), Chika waits for
  // step 2, Dayo bounced on step 1 (B).
  c.ade = await seedContact(db, campaign, {
    email: 'ade@kano.example',
    firstName: 'Ade',
    lastName: 'Bello',
    company: 'Kano Foods',
    status: 'unsubscribed',
    currentStep: 2,
  });
  c.bisi = await seedContact(db, campaign, {
    email: 'Bisi@lagos.example',
    firstName: 'Bisi',
    company: 'Lagos Logistics',
    status: 'replied',
    currentStep: 1,
  });
  c.chika = await seedContact(db, campaign, {
    email: 'chika@enugu.example',
    firstName: 'Chika',
    company: 'Enugu Agro',
    status: 'active',
    currentStep: 2,
  });
  c.dayo = await seedContact(db, campaign, {
    email: 'dayo@ibadan.example',
    firstName: 'Dayo',
    status: 'bounced',
    currentStep: 1,
  });

  m.ade1 = await seedMessage(db, campaign, c.ade, { stepId: s1.id, variantKey: 'A' });
  m.bisi1 = await seedMessage(db, campaign, c.bisi, { stepId: s1.id, variantKey: 'B' });
  m.chika1 = await seedMessage(db, campaign, c.chika, { stepId: s1.id, variantKey: 'A' });
  m.dayo1 = await seedMessage(db, campaign, c.dayo, { stepId: s1.id, variantKey: 'B', state: 'bounced' });
  m.ade2 = await seedMessage(db, campaign, c.ade, { stepId: s2.id, variantKey: 'A' });
  m.chika2 = await seedMessage(db, campaign, c.chika, {
    stepId: s2.id,
    variantKey: 'A',
    state: 'queued',
    sendAfter: new Date(Date.now() + 86_400_000),
  });

  // Written out of order on purpose: the timeline sorts by when things happened.
  await seedEvent(db, m.ade2, 'unsubscribed', { at: minutesAgo(10) });
  await seedEvent(db, m.ade1, 'sent', { at: minutesAgo(100) });
  await seedEvent(db, m.ade1, 'opened', { at: minutesAgo(90) });
  await seedEvent(db, m.ade1, 'opened', { at: minutesAgo(80) });
  await seedEvent(db, m.ade1, 'clicked', { at: minutesAgo(79), detail: 'https://kano.example/offer' });
  await seedEvent(db, m.ade2, 'sent', { at: minutesAgo(20) });
  await seedEvent(db, m.bisi1, 'sent', { at: minutesAgo(100) });
  await seedEvent(db, m.bisi1, 'opened', { at: minutesAgo(99), machine: true });
  await seedEvent(db, m.bisi1, 'replied', { at: minutesAgo(50), detail: 'Re: Hello' });
  await seedEvent(db, m.chika1, 'sent', { at: minutesAgo(100) });
  await seedEvent(db, m.chika1, 'clicked', { at: minutesAgo(99), machine: true });
  await seedEvent(db, m.dayo1, 'sent', { at: minutesAgo(100) });
  await seedEvent(db, m.dayo1, 'bounced', { at: minutesAgo(98), detail: '550 5.1.1 no such user' });

  // Another campaign of the same owner: none of its events may leak into the first one's numbers.
  const other = await seedCampaign(db, owner.user.id, { steps: [['A']] });
  const otherContact = await seedContact(db, other.campaign, { email: 'eze@abuja.example' });
  const otherMessage = await seedMessage(db, other.campaign, otherContact, {
    stepId: other.steps[0]!.id,
    variantKey: 'A',
  });
  await seedEvent(db, otherMessage, 'sent');
  await seedEvent(db, otherMessage, 'opened');
  await seedEvent(db, otherMessage, 'replied');
});

afterAll(async () => {
  await app.close();
});

const get = (user: TestUser, url: string) => as(app, user.cookie)({ method: 'GET', url });

describe('GET /api/campaigns/:id/stats', () => {
  it('counts messages and contacts from the events, per step and per variant', async () => {
    const response = await get(owner, `/api/campaigns/${campaign.id}/stats`);
    expect(response.statusCode).toBe(200);
    const stats = response.json<CampaignStats>();
    expect(stats.totals).toEqual({
      sent: 5,
      opened: 2,
      openedHuman: 1,
      clicked: 1,
      replied: 1,
      bounced: 1,
      unsubscribed: 1,
      failed: 0,
    });
    expect(stats.steps.map((s) => s.position)).toEqual([1, 2]);
    const [step1, step2] = stats.steps;
    expect(step1!.variants).toEqual([
      {
        key: 'A',
        sent: 2,
        opened: 1,
        openedHuman: 1,
        clicked: 1,
        replied: 0,
        bounced: 0,
        unsubscribed: 0,
        failed: 0,
      },
      {
        key: 'B',
        sent: 2,
        opened: 1,
        openedHuman: 0,
        clicked: 0,
        replied: 1,
        bounced: 1,
        unsubscribed: 0,
        failed: 0,
      },
    ]);
    expect(step1!.totals.sent).toBe(4);
    expect(step2!.variants).toEqual([
      {
        key: 'A',
        sent: 1,
        opened: 0,
        openedHuman: 0,
        clicked: 0,
        replied: 0,
        bounced: 0,
        unsubscribed: 1,
        failed: 0,
      },
    ]);
    expect(stats.contacts).toEqual({
      total: 4,
      active: 1,
      paused: 0,
      replied: 1,
      bounced: 1,
      unsubscribed: 1,
      completed: 0,
      stopped: 0,
    });
    expect(stats.queued).toBe(1);
    // Three sequences ended, Chika is half-way (step 1 sent, step 2 waiting): (3 + 1/2) / 4.
    expect(stats.progressPercent).toBe(87.5);
  });

  it('answers 404 for another user and 401 when signed out', async () => {
    expect((await get(stranger, `/api/campaigns/${campaign.id}/stats`)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/campaigns/${campaign.id}/stats` })).statusCode).toBe(
      401,
    );
  });

  it('gives zeros for a draft without contacts', async () => {
    const draft = await seedCampaign(app.services.db, owner.user.id, {
      status: 'draft',
      steps: [['A']],
      startedAt: null,
    });
    const stats = (await get(owner, `/api/campaigns/${draft.campaign.id}/stats`)).json<CampaignStats>();
    expect(stats.totals.sent).toBe(0);
    expect(stats.contacts.total).toBe(0);
    expect(stats.progressPercent).toBe(0);
    expect(stats.steps[0]!.variants).toEqual([expect.objectContaining({ key: 'A', sent: 0 })]);
  });
});

describe('GET /api/campaigns/:id/contacts', () => {
  it('pages through the contacts in address order with a keyset cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/campaigns/${campaign.id}/contacts?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page: CampaignContactPage = (await get(owner, url)).json();
      seen.push(...page.items.map((i) => i.email));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(seen).toEqual([
      'ade@kano.example',
      'Bisi@lagos.example',
      'chika@enugu.example',
      'dayo@ibadan.example',
    ]);
  });

  it('filters by status and by a search and shows the latest event', async () => {
    const replied = (
      await get(owner, `/api/campaigns/${campaign.id}/contacts?status=replied`)
    ).json<CampaignContactPage>();
    expect(replied.items.map((i) => i.email)).toEqual(['Bisi@lagos.example']);
    expect(new Date(replied.items[0]!.lastEventAt!).getTime()).toBeGreaterThan(Date.now() - 51 * 60_000);
    expect(new Date(replied.items[0]!.lastEventAt!).getTime()).toBeLessThan(Date.now() - 49 * 60_000);

    const search = (
      await get(owner, `/api/campaigns/${campaign.id}/contacts?q=enugu%20agro`)
    ).json<CampaignContactPage>();
    expect(search.items.map((i) => i.firstName)).toEqual(['Chika']);
    const byName = (
      await get(owner, `/api/campaigns/${campaign.id}/contacts?q=ade%20bello`)
    ).json<CampaignContactPage>();
    expect(byName.items.map((i) => i.email)).toEqual(['ade@kano.example']);
    // A LIKE wildcard in the search is a literal character, not "anything".
    const wildcard = (
      await get(owner, `/api/campaigns/${campaign.id}/contacts?q=%25`)
    ).json<CampaignContactPage>();
    expect(wildcard.items).toEqual([]);
  });

  it('refuses a tampered cursor and another user', async () => {
    expect((await get(owner, `/api/campaigns/${campaign.id}/contacts?cursor=nonsense`)).statusCode).toBe(400);
    expect((await get(stranger, `/api/campaigns/${campaign.id}/contacts`)).statusCode).toBe(404);
  });
});

describe('GET /api/campaigns/:id/contacts/:contactId/timeline', () => {
  it('lists the events oldest first with their step and variant', async () => {
    const response = await get(owner, `/api/campaigns/${campaign.id}/contacts/${c.ade!.id}/timeline`);
    expect(response.statusCode).toBe(200);
    const timeline = response.json<TimelineEntry[]>();
    expect(timeline.map((e) => [e.type, e.stepPosition, e.variantKey])).toEqual([
      ['sent', 1, 'A'],
      ['opened', 1, 'A'],
      ['opened', 1, 'A'],
      ['clicked', 1, 'A'],
      ['sent', 2, 'A'],
      ['unsubscribed', 2, 'A'],
    ]);
    expect(timeline[3]!.detail).toBe('https://kano.example/offer');
    const times = timeline.map((e) => new Date(e.occurredAt).getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('ends with the messages still waiting, and marks machine hits', async () => {
    const timeline = (
      await get(owner, `/api/campaigns/${campaign.id}/contacts/${c.chika!.id}/timeline`)
    ).json<TimelineEntry[]>();
    expect(timeline.map((e) => [e.type, e.stepPosition, e.machine])).toEqual([
      ['sent', 1, false],
      ['clicked', 1, true],
      ['queued', 2, false],
    ]);
  });

  it('answers 404 for a contact of another campaign or another user', async () => {
    const other = await seedCampaign(app.services.db, owner.user.id);
    const elsewhere = await seedContact(app.services.db, other.campaign, { email: 'femi@jos.example' });
    expect(
      (await get(owner, `/api/campaigns/${campaign.id}/contacts/${elsewhere.id}/timeline`)).statusCode,
    ).toBe(404);
    expect(
      (await get(stranger, `/api/campaigns/${campaign.id}/contacts/${c.ade!.id}/timeline`)).statusCode,
    ).toBe(404);
  });
});

describe('replies and won deals', () => {
  let reply: Awaited<ReturnType<typeof seedInbound>>;

  beforeAll(async () => {
    const { db } = app.services;
    reply = await seedInbound(db, m.bisi1!, { kind: 'reply', text: 'Yes, send me the price list.' });
    await seedInbound(db, m.dayo1!, {
      kind: 'bounce_hard',
      subject: 'Undeliverable',
      from: 'mailer-daemon@x.test',
    });
  });

  it('lists replies with their text, without bounces', async () => {
    const replies = (await get(owner, `/api/campaigns/${campaign.id}/replies`)).json<CampaignReply[]>();
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      id: reply.id,
      campaignContactId: c.bisi!.id,
      email: 'Bisi@lagos.example',
      name: 'Bisi',
      text: 'Yes, send me the price list.',
      kind: 'reply',
      wonAt: null,
    });
    expect((await get(stranger, `/api/campaigns/${campaign.id}/replies`)).statusCode).toBe(404);
  });

  it('lists an out-of-office and an unsubscribe request with their categories, offering "won" only for the reply', async () => {
    const { db } = app.services;
    const ooo = await seedInbound(db, m.bisi1!, {
      kind: 'out_of_office',
      subject: 'Automatic reply: Hello',
      category: 'out_of_office',
      at: new Date(reply.receivedAt.getTime() - 60_000),
    });
    const unsubscribe = await seedInbound(db, m.bisi1!, {
      kind: 'unsubscribe_request',
      subject: 'Re: Hello',
      text: 'Please remove me from your list.',
      category: 'unsubscribe_request',
      at: new Date(reply.receivedAt.getTime() - 120_000),
    });
    try {
      const replies = (await get(owner, `/api/campaigns/${campaign.id}/replies`)).json<CampaignReply[]>();
      expect(replies.map((r) => [r.id, r.category, r.canMarkWon])).toEqual([
        [reply.id, null, true],
        [ooo.id, 'out_of_office', false],
        [unsubscribe.id, 'unsubscribe_request', false],
      ]);
    } finally {
      await db.delete(inboundMessages).where(inArray(inboundMessages.id, [ooo.id, unsubscribe.id]));
    }
  });

  it('marks a contact won with a deal value, changes it, and unmarks it', async () => {
    const url = `/api/campaigns/${campaign.id}/contacts/${c.bisi!.id}/won`;
    const send = as(app, owner.cookie);
    const first = await send({ method: 'POST', url, payload: { dealValue: 250000, currency: 'NGN' } });
    expect(first.statusCode).toBe(200);
    const won = first.json<CampaignContactItem>();
    expect(won).toMatchObject({ id: c.bisi!.id, dealValue: '250000.00', dealCurrency: 'NGN' });
    expect(won.wonAt).not.toBeNull();

    const replies = (await get(owner, `/api/campaigns/${campaign.id}/replies`)).json<CampaignReply[]>();
    expect(replies[0]).toMatchObject({ dealValue: '250000.00', dealCurrency: 'NGN', wonAt: won.wonAt });

    const changed = (
      await send({ method: 'POST', url, payload: { dealValue: 1200.5, currency: 'USD' } })
    ).json<CampaignContactItem>();
    expect(changed).toMatchObject({ dealValue: '1200.50', dealCurrency: 'USD', wonAt: won.wonAt });

    const unmarked = await send({ method: 'DELETE', url });
    expect(unmarked.statusCode).toBe(200);
    expect(unmarked.json<CampaignContactItem>()).toMatchObject({
      wonAt: null,
      dealValue: null,
      dealCurrency: null,
    });
  });

  it('refuses bad values with a clear message', async () => {
    const url = `/api/campaigns/${campaign.id}/contacts/${c.bisi!.id}/won`;
    const send = as(app, owner.cookie);
    const negative = await send({ method: 'POST', url, payload: { dealValue: -5, currency: 'NGN' } });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().message).toMatch(/cannot be negative/);
    const currency = await send({ method: 'POST', url, payload: { dealValue: 5, currency: 'EUR' } });
    expect(currency.statusCode).toBe(400);
    expect(currency.json().message).toMatch(/currency/i);
    const decimals = await send({ method: 'POST', url, payload: { dealValue: 1.005, currency: 'NGN' } });
    expect(decimals.statusCode).toBe(400);
  });

  it("answers 404 for another user's contact and leaves it untouched", async () => {
    const url = `/api/campaigns/${campaign.id}/contacts/${c.chika!.id}/won`;
    const attempt = await as(
      app,
      stranger.cookie,
    )({ method: 'POST', url, payload: { dealValue: 9, currency: 'NGN' } });
    expect(attempt.statusCode).toBe(404);
    expect((await as(app, stranger.cookie)({ method: 'DELETE', url })).statusCode).toBe(404);
    const page = (
      await get(owner, `/api/campaigns/${campaign.id}/contacts?q=chika`)
    ).json<CampaignContactPage>();
    expect(page.items[0]!.wonAt).toBeNull();
  });
});

describe('an out-of-office pause shows when the contact resumes', () => {
  it('gives pausedUntil on the contact and on its out-of-office reply, and nothing once it is over', async () => {
    const { db } = app.services;
    const own = await seedCampaign(db, owner.user.id, { steps: [['A']] });
    const resumesAt = new Date('2026-12-01T07:00:00.000Z');
    const away = await seedContact(db, own.campaign, {
      email: 'away@lagos.example',
      status: 'paused',
      pausedUntil: resumesAt,
    });
    // A contact paused once and since replied: the old date no longer means anything.
    const back = await seedContact(db, own.campaign, {
      email: 'back@lagos.example',
      status: 'replied',
      pausedUntil: resumesAt,
    });
    const awayMessage = await seedMessage(db, own.campaign, away, {
      stepId: own.steps[0]!.id,
      variantKey: 'A',
    });
    await seedInbound(db, awayMessage, { kind: 'out_of_office', subject: 'Automatic reply: away' });

    const page = (await get(owner, `/api/campaigns/${own.campaign.id}/contacts`)).json<CampaignContactPage>();
    const byEmail = new Map(page.items.map((item) => [item.email, item]));
    expect(byEmail.get('away@lagos.example')).toMatchObject({
      status: 'paused',
      pausedUntil: resumesAt.toISOString(),
    });
    expect(byEmail.get('back@lagos.example')).toMatchObject({ status: 'replied', pausedUntil: null });

    const replies = (await get(owner, `/api/campaigns/${own.campaign.id}/replies`)).json<CampaignReply[]>();
    expect(replies).toEqual([
      expect.objectContaining({ kind: 'out_of_office', pausedUntil: resumesAt.toISOString() }),
    ]);
    expect(back.id).toBeTruthy();
  });
});
