import { randomBytes } from 'node:crypto';
import { campaignContacts, campaigns, newsletters, outboxMessages } from '@server/db/schema/index';
import type {
  AdminCampaignDetail,
  AdminCampaignListItem,
  AdminNewsletterDetail,
  AdminNewsletterListItem,
} from '@shared/admin-campaigns';
import type { CampaignContactPage, CampaignReply, TimelineEntry } from '@shared/campaign-stats';
import { auditEntriesOf } from '@tests/factories/audit';
import {
  type CampaignRow,
  type ContactRow,
  seedCampaign,
  seedContact,
  seedEvent,
  seedInbound,
  seedMessage,
} from '@tests/factories/campaign-stats';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: FastifyInstance;
let admin: TestUser;
let owner: TestUser;
let subscriber: TestUser;
let campaign: CampaignRow;
let contact: ContactRow;

type Page<T> = { items: T[]; nextCursor: string | null };

beforeAll(async () => {
  app = await createTestApp();
  admin = await createUser(app, { role: 'super_admin' });
  owner = await createUser(app);
  subscriber = await createUser(app);
  const { db } = app.services;
  ({ campaign } = await seedCampaign(db, owner.user.id, {
    name: 'Harmattan outreach',
    steps: [['A'], ['A']],
  }));
  contact = await seedContact(db, campaign, {
    email: 'ngozi@onitsha.example',
    firstName: 'Ngozi',
    currentStep: 1,
  });
  const message = await seedMessage(db, campaign, contact, { variantKey: 'A' });
  await seedEvent(db, message, 'sent');
  await seedEvent(db, message, 'opened');
  await seedInbound(db, message, { kind: 'reply', text: 'Interested, call me.' });
  await seedMessage(db, campaign, contact, { variantKey: 'A', state: 'queued' });
  await seedCampaign(db, owner.user.id, { name: 'Second campaign', status: 'draft', startedAt: null });
});

afterAll(async () => {
  await app.close();
});

const asAdmin = () => as(app, admin.cookie);

describe('admin campaigns', () => {
  it("lists every user's campaigns with their owner, searchable by owner email", async () => {
    const response = await asAdmin()({
      method: 'GET',
      url: `/api/admin/campaigns?q=${encodeURIComponent(owner.email)}`,
    });
    expect(response.statusCode).toBe(200);
    const page = response.json<Page<AdminCampaignListItem>>();
    expect(page.items.map((i) => i.name).sort()).toEqual(['Harmattan outreach', 'Second campaign']);
    const item = page.items.find((i) => i.id === campaign.id)!;
    expect(item).toMatchObject({
      owner: { id: owner.user.id, email: owner.email },
      contactCount: 1,
      stepCount: 2,
      sent: 1,
      opened: 1,
      status: 'active',
    });
  });

  it('filters by owner and status and pages with a cursor', async () => {
    const first = (
      await asAdmin()({ method: 'GET', url: `/api/admin/campaigns?userId=${owner.user.id}&limit=1` })
    ).json<Page<AdminCampaignListItem>>();
    expect(first.items).toHaveLength(1);
    expect(first.nextCursor).not.toBeNull();
    const second = (
      await asAdmin()({
        method: 'GET',
        url: `/api/admin/campaigns?userId=${owner.user.id}&limit=1&cursor=${first.nextCursor}`,
      })
    ).json<Page<AdminCampaignListItem>>();
    expect(second.items).toHaveLength(1);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(second.nextCursor).toBeNull();

    const drafts = (
      await asAdmin()({ method: 'GET', url: `/api/admin/campaigns?userId=${owner.user.id}&status=draft` })
    ).json<Page<AdminCampaignListItem>>();
    expect(drafts.items.map((i) => i.name)).toEqual(['Second campaign']);
  });

  it('shows one campaign with its owner, steps and stats, and its contacts, timeline and replies', async () => {
    const response = await asAdmin()({ method: 'GET', url: `/api/admin/campaigns/${campaign.id}` });
    expect(response.statusCode).toBe(200);
    const detail = response.json<AdminCampaignDetail>();
    expect(detail).toMatchObject({
      id: campaign.id,
      name: 'Harmattan outreach',
      owner: { email: owner.email },
    });
    expect(detail.steps).toHaveLength(2);
    expect(detail.stats.totals).toMatchObject({ sent: 1, opened: 1 });
    expect(detail.stats.queued).toBe(1);

    const contacts = (
      await asAdmin()({ method: 'GET', url: `/api/admin/campaigns/${campaign.id}/contacts` })
    ).json<CampaignContactPage>();
    expect(contacts.items.map((i) => i.email)).toEqual(['ngozi@onitsha.example']);
    const timeline = (
      await asAdmin()({
        method: 'GET',
        url: `/api/admin/campaigns/${campaign.id}/contacts/${contact.id}/timeline`,
      })
    ).json<TimelineEntry[]>();
    expect(timeline.map((e) => e.type)).toEqual(['sent', 'opened', 'queued']);
    const replies = (
      await asAdmin()({ method: 'GET', url: `/api/admin/campaigns/${campaign.id}/replies` })
    ).json<CampaignReply[]>();
    expect(replies.map((r) => r.text)).toEqual(['Interested, call me.']);

    const missing = await asAdmin()({
      method: 'GET',
      url: '/api/admin/campaigns/00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('pauses and stops any campaign, with audit entries', async () => {
    const paused = await asAdmin()({ method: 'POST', url: `/api/admin/campaigns/${campaign.id}/pause` });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().status).toBe('paused');
    const again = await asAdmin()({ method: 'POST', url: `/api/admin/campaigns/${campaign.id}/pause` });
    expect(again.statusCode).toBe(409);

    const stopped = await asAdmin()({ method: 'POST', url: `/api/admin/campaigns/${campaign.id}/stop` });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().status).toBe('stopped');
    const { db } = app.services;
    const queued = await db.select().from(outboxMessages).where(eq(outboxMessages.campaignId, campaign.id));
    expect(queued.filter((r) => r.state === 'queued')).toHaveLength(0);
    const [row] = await db.select().from(campaignContacts).where(eq(campaignContacts.id, contact.id));
    expect(row!.status).toBe('stopped');

    const entries = await auditEntriesOf(app, admin.user.id);
    const mine = entries.filter((e) => e.targetId === campaign.id).map((e) => e.action);
    expect(mine).toEqual(['campaign.pause', 'campaign.stop']);
  });

  it('is for super admins only', async () => {
    const send = as(app, subscriber.cookie);
    expect((await send({ method: 'GET', url: '/api/admin/campaigns' })).statusCode).toBe(403);
    expect((await send({ method: 'GET', url: `/api/admin/campaigns/${campaign.id}` })).statusCode).toBe(403);
    expect(
      (await send({ method: 'GET', url: `/api/admin/campaigns/${campaign.id}/contacts` })).statusCode,
    ).toBe(403);
    const { campaign: active } = await seedCampaign(app.services.db, owner.user.id);
    expect((await send({ method: 'POST', url: `/api/admin/campaigns/${active.id}/pause` })).statusCode).toBe(
      403,
    );
    const [row] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, active.id));
    expect(row!.status).toBe('active');
    // The owner's own routes do not open another user's campaign either.
    expect((await send({ method: 'GET', url: `/api/campaigns/${active.id}/stats` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/admin/campaigns' })).statusCode).toBe(401);
  });
});

describe('admin newsletters', () => {
  async function seedNewsletter(values: Partial<typeof newsletters.$inferInsert>) {
    const [row] = await app.services.db
      .insert(newsletters)
      .values({
        userId: owner.user.id,
        name: 'Monthly digest',
        subject: 'What is new in Lagos',
        html: '<p>News</p>',
        webToken: randomBytes(12).toString('base64url'),
        ...values,
      })
      .returning();
    return row!;
  }

  it('lists and shows newsletters with their owner', async () => {
    const news = await seedNewsletter({ name: `Digest ${randomBytes(3).toString('hex')}` });
    const page = (
      await asAdmin()({
        method: 'GET',
        url: `/api/admin/newsletters?userId=${owner.user.id}&kind=newsletter`,
      })
    ).json<Page<AdminNewsletterListItem>>();
    expect(page.items.find((i) => i.id === news.id)).toMatchObject({
      name: news.name,
      status: 'draft',
      owner: { email: owner.email },
    });
    const detail = await asAdmin()({ method: 'GET', url: `/api/admin/newsletters/${news.id}` });
    expect(detail.statusCode).toBe(200);
    expect(detail.json<AdminNewsletterDetail>()).toMatchObject({
      id: news.id,
      html: '<p>News</p>',
      owner: { id: owner.user.id },
    });
    expect(detail.json<AdminNewsletterDetail>().webUrl).toMatch(/\/n\//);
  });

  it('cancels a scheduled newsletter back to draft, once, with an audit entry', async () => {
    const scheduled = await seedNewsletter({
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 86_400_000),
    });
    const cancel = await asAdmin()({ method: 'POST', url: `/api/admin/newsletters/${scheduled.id}/cancel` });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json<AdminNewsletterDetail>()).toMatchObject({ status: 'draft', scheduledAt: null });
    const twice = await asAdmin()({ method: 'POST', url: `/api/admin/newsletters/${scheduled.id}/cancel` });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Only a scheduled newsletter can be cancelled');
    const entries = await auditEntriesOf(app, admin.user.id);
    expect(entries.filter((e) => e.targetId === scheduled.id).map((e) => e.action)).toEqual([
      'newsletter.cancel_schedule',
    ]);
  });

  it('is for super admins only', async () => {
    const scheduled = await seedNewsletter({
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 86_400_000),
    });
    const send = as(app, subscriber.cookie);
    expect((await send({ method: 'GET', url: '/api/admin/newsletters' })).statusCode).toBe(403);
    expect(
      (await send({ method: 'POST', url: `/api/admin/newsletters/${scheduled.id}/cancel` })).statusCode,
    ).toBe(403);
    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, scheduled.id));
    expect(row!.status).toBe('scheduled');
  });
});
