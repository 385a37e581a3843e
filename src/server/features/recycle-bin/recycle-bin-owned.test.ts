import { randomUUID } from 'node:crypto';
import {
  campaigns,
  campaignTestRunMessages,
  campaignTestRuns,
  emailTemplates,
  newsletters,
} from '@server/db/schema/index';
import { advanceClock, resetClock } from '@server/lib/clock';
import { type RecycleBinType, recycleBinListSchema } from '@shared/recycle-bin';
import { auditEntriesOf } from '@tests/factories/audit';
import { createCampaignViaApi } from '@tests/factories/campaigns';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredOwnedItems } from './recycle-bin.service';

/*
 * Users' campaigns (drafts), newsletters and bulk emails, and own templates: deleting moves them to the
 * admin recycle bin, where a super admin restores or purges them; the purge job clears them after 30 days.
 */

const DAY_MS = 86_400_000;

type OwnedType = Extract<RecycleBinType, 'campaign' | 'newsletter' | 'template'>;

describe('recycle bin: campaigns, newsletters and templates', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
    owner = await createUser(app);
    stranger = await createUser(app);
  });
  afterAll(() => app.close());
  afterEach(() => resetClock());

  const asAdmin = () => as(app, admin.cookie);
  const asOwner = () => as(app, owner.cookie);

  /** Each type: how its owner creates, reads, lists and deletes it, and where its row is. */
  const kinds: Record<
    OwnedType,
    {
      create: (name: string) => Promise<string>;
      url: (id: string) => string;
      listUrls: string[];
      row: (id: string) => Promise<{ deletedAt: Date | null } | undefined>;
    }
  > = {
    campaign: {
      create: async (name) => (await createCampaignViaApi(app, owner.cookie, { name })).id,
      url: (id) => `/api/campaigns/${id}`,
      listUrls: ['/api/campaigns', '/api/user/campaigns/recent'],
      row: async (id) => (await app.services.db.select().from(campaigns).where(eq(campaigns.id, id)))[0],
    },
    newsletter: {
      create: async (name) => {
        const response = await asOwner()({
          method: 'POST',
          url: '/api/newsletters',
          payload: { kind: 'bulk', name, subject: `${name} subject`, html: '<p>Hi</p>' },
        });
        expect(response.statusCode, response.body).toBe(201);
        return response.json<{ id: string }>().id;
      },
      url: (id) => `/api/newsletters/${id}`,
      listUrls: ['/api/newsletters', '/api/user/newsletters/recent'],
      row: async (id) => (await app.services.db.select().from(newsletters).where(eq(newsletters.id, id)))[0],
    },
    template: {
      create: async (name) => {
        const response = await asOwner()({
          method: 'POST',
          url: '/api/templates',
          payload: { category: 'follow-up', name, subject: 'Hello', bodyHtml: '<p>Hello</p>' },
        });
        expect(response.statusCode, response.body).toBe(201);
        return response.json<{ id: string }>().id;
      },
      url: (id) => `/api/templates/${id}`,
      listUrls: ['/api/templates?scope=mine'],
      row: async (id) =>
        (await app.services.db.select().from(emailTemplates).where(eq(emailTemplates.id, id)))[0],
    },
  };

  const binOf = async (type: OwnedType) => {
    const response = await asAdmin()({ method: 'GET', url: `/api/admin/recycle-bin?type=${type}&limit=100` });
    expect(response.statusCode).toBe(200);
    return recycleBinListSchema.parse(response.json());
  };
  const listedFor = async (user: TestUser, url: string) =>
    JSON.stringify((await as(app, user.cookie)({ method: 'GET', url })).json());

  describe.each(['campaign', 'newsletter', 'template'] as const)('a %s', (type) => {
    const kind = kinds[type];

    it('deleted by its owner is gone for them and everyone, sits in the bin, is restored, then purged', async () => {
      const name = `Bin ${type} ${randomUUID().slice(0, 8)}`;
      const id = await kind.create(name);
      expect((await asOwner()({ method: 'DELETE', url: kind.url(id) })).statusCode).toBe(204);

      // Deleted for its owner as for anyone else: 404, absent from every list, not deletable twice.
      expect((await asOwner()({ method: 'GET', url: kind.url(id) })).statusCode).toBe(404);
      expect((await as(app, stranger.cookie)({ method: 'GET', url: kind.url(id) })).statusCode).toBe(404);
      expect((await asOwner()({ method: 'DELETE', url: kind.url(id) })).statusCode).toBe(404);
      for (const url of kind.listUrls) expect(await listedFor(owner, url)).not.toContain(id);
      expect((await kind.row(id))?.deletedAt).toBeInstanceOf(Date);

      const bin = await binOf(type);
      const item = bin.items.find((i) => i.id === id);
      expect(item).toMatchObject({ type, name, ownerEmail: owner.email, size: null });
      if (type === 'campaign') expect(item!.detail).toBe('Draft · 0 steps');
      if (type === 'newsletter') expect(item!.detail).toBe(`Bulk email · draft · ${name} subject`);
      expect(new Date(item!.purgeAt).getTime() - new Date(item!.deletedAt).getTime()).toBe(30 * DAY_MS);
      expect(bin.counts[type]).toBeGreaterThanOrEqual(1);

      const restored = await asAdmin()({
        method: 'POST',
        url: `/api/admin/recycle-bin/${type}/${id}/restore`,
      });
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json().message).toContain(name);
      expect((await asOwner()({ method: 'GET', url: kind.url(id) })).statusCode).toBe(200);
      for (const url of kind.listUrls) expect(await listedFor(owner, url)).toContain(id);
      expect((await binOf(type)).items.map((i) => i.id)).not.toContain(id);
      // A live item is not in the bin: neither restored again nor purged.
      expect(
        (await asAdmin()({ method: 'POST', url: `/api/admin/recycle-bin/${type}/${id}/restore` })).statusCode,
      ).toBe(404);
      expect(
        (await asAdmin()({ method: 'DELETE', url: `/api/admin/recycle-bin/${type}/${id}` })).statusCode,
      ).toBe(404);
      expect((await kind.row(id))?.deletedAt).toBeNull();

      expect((await asOwner()({ method: 'DELETE', url: kind.url(id) })).statusCode).toBe(204);
      const purged = await asAdmin()({ method: 'DELETE', url: `/api/admin/recycle-bin/${type}/${id}` });
      expect(purged.statusCode, purged.body).toBe(200);
      expect(await kind.row(id)).toBeUndefined();
      expect((await binOf(type)).items.map((i) => i.id)).not.toContain(id);
      expect(
        (await asAdmin()({ method: 'POST', url: `/api/admin/recycle-bin/${type}/${id}/restore` })).statusCode,
      ).toBe(404);

      const entries = (await auditEntriesOf(app, admin.user.id)).filter((e) => e.targetId === id);
      expect(entries.map((e) => e.action)).toEqual(['recycle_bin.restore', 'recycle_bin.purge']);
      for (const entry of entries)
        expect(entry).toMatchObject({ targetType: type, details: { ownerId: owner.user.id, name } });
    });

    it('is purged by the job once it has been in the bin for 30 days, not before', async () => {
      const id = await kind.create(`Expiring ${type} ${randomUUID().slice(0, 8)}`);
      expect((await asOwner()({ method: 'DELETE', url: kind.url(id) })).statusCode).toBe(204);
      advanceClock(29 * DAY_MS);
      await purgeExpiredOwnedItems({ db: app.services.db });
      expect((await kind.row(id))?.deletedAt).toBeInstanceOf(Date);
      advanceClock(2 * DAY_MS);
      const result = await purgeExpiredOwnedItems({ db: app.services.db });
      expect(result[`${type}s`]).toBeGreaterThanOrEqual(1);
      expect(await kind.row(id)).toBeUndefined();
    });

    it('answers 403 to a user and 401 signed out on its bin actions, changing nothing', async () => {
      const id = await kind.create(`Guarded ${type} ${randomUUID().slice(0, 8)}`);
      expect((await asOwner()({ method: 'DELETE', url: kind.url(id) })).statusCode).toBe(204);
      const requests = [
        { method: 'GET', url: `/api/admin/recycle-bin?type=${type}` },
        { method: 'POST', url: `/api/admin/recycle-bin/${type}/${id}/restore` },
        { method: 'DELETE', url: `/api/admin/recycle-bin/${type}/${id}` },
      ] as const;
      for (const request of requests) {
        expect((await app.inject(request)).statusCode).toBe(401);
        expect((await asOwner()(request)).statusCode).toBe(403);
      }
      expect((await kind.row(id))?.deletedAt).toBeInstanceOf(Date);
    });
  });

  it('a scheduled newsletter deleted goes back to draft, so it never sends from the bin; its web version is gone', async () => {
    const id = await kinds.newsletter.create(`Scheduled ${randomUUID().slice(0, 8)}`);
    const [row] = await app.services.db
      .update(newsletters)
      .set({ status: 'scheduled', scheduledAt: new Date(Date.now() + DAY_MS) })
      .where(eq(newsletters.id, id))
      .returning();
    expect((await app.inject({ method: 'GET', url: `/n/${row!.webToken}` })).statusCode).toBe(200);
    expect((await asOwner()({ method: 'DELETE', url: `/api/newsletters/${id}` })).statusCode).toBe(204);
    const deleted = await kinds.newsletter.row(id);
    expect(deleted).toMatchObject({ status: 'draft', scheduledAt: null });
    expect(deleted?.deletedAt).toBeInstanceOf(Date);
    expect((await app.inject({ method: 'GET', url: `/n/${row!.webToken}` })).statusCode).toBe(404);
  });

  it('a deleted draft sends none of the test emails still queued for it', async () => {
    const id = await kinds.campaign.create(`Tested ${randomUUID().slice(0, 8)}`);
    const db = app.services.db;
    const [run] = await db
      .insert(campaignTestRuns)
      .values({
        userId: owner.user.id,
        campaignId: id,
        toEmail: owner.email,
        contactEmail: 'ada@example.com',
      })
      .returning();
    const later = new Date(Date.now() + 60_000);
    await db.insert(campaignTestRunMessages).values(
      [1, 2].map((position) => ({
        runId: run!.id,
        userId: owner.user.id,
        position,
        subject: `Step ${position}`,
        html: '<p>Hi</p>',
        sendAfter: later,
      })),
    );
    expect((await asOwner()({ method: 'DELETE', url: `/api/campaigns/${id}` })).statusCode).toBe(204);
    const messages = await db
      .select()
      .from(campaignTestRunMessages)
      .where(eq(campaignTestRunMessages.runId, run!.id));
    expect(messages.map((m) => m.state)).toEqual(['failed', 'failed']);
    expect(messages[0]!.error).toBe('The campaign was deleted.');
  });
});
