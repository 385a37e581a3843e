import { randomUUID } from 'node:crypto';
import { campaignContacts, outboxAll, outboxArchive, outboxMessages } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { failedMessageListSchema } from '@shared/admin-monitors';
import { TRACKING_PATHS } from '@shared/sending';
import { seedCampaign, seedContact, seedEvent, seedMessage } from '@tests/factories/campaign-stats';
import { answerTo, eventsOf } from '@tests/factories/inbound';
import { addOutboxMessage, createCampaignWithMessage } from '@tests/factories/sending';
import { createUser, type TestUser } from '@tests/factories/users';
import { ownDatabase } from '@tests/setup/own-database';
import { as, createTestApp } from '@tests/setup/test-app';
import { dailyRows } from '@tests/support/analytics-rollups';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAnalytics } from '../analytics/analytics.service';
import { processInboundMessage } from '../inbound/inbound.service';
import { queueMessages } from './outbox.service';
import {
  archiveFinishedOutbox,
  ensureOutboxArchivePartitions,
  expireOutboxArchive,
} from './outbox-archive.service';

/*
 * Finished messages moved to outbox_archive keep working: reply matching, opens and clicks, the
 * unsubscribe link, the owner's timeline and the admin's failed messages; the move is all-or-nothing per
 * batch; retention drops a whole archived month and the figures kept elsewhere do not move.
 *
 * Moves every account's old messages and drops whole months, so on PostgreSQL it runs in a database of
 * its own.
 */

const DAY = 86_400_000;
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let app: FastifyInstance;
let dropDatabase: () => Promise<void> = async () => {};
const db = () => app.services.db;

beforeAll(async () => {
  const own = await ownDatabase('outbox_archive');
  dropDatabase = own.drop;
  app = await createTestApp({ ...own.env, TRACKING_FLUSH_MS: '60000' });
});
afterAll(async () => {
  await app?.close();
  await dropDatabase();
});

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Makes these messages look finished `days` ago. */
async function age(ids: string[], days: number) {
  const at = new Date(now().getTime() - days * DAY);
  await db().update(outboxMessages).set({ updatedAt: at }).where(inArray(outboxMessages.id, ids));
}

/** Where each message is: 'live', 'archived', or both/neither as a count per table. */
async function placesOf(ids: string[]) {
  const live = await db()
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(inArray(outboxMessages.id, ids));
  const archived = await db()
    .select({ id: outboxArchive.id })
    .from(outboxArchive)
    .where(inArray(outboxArchive.id, ids));
  return ids.map((id) => {
    const l = live.filter((r) => r.id === id).length;
    const a = archived.filter((r) => r.id === id).length;
    return l === 1 && a === 0 ? 'live' : l === 0 && a === 1 ? 'archived' : `live ${l} archived ${a}`;
  });
}

describe('an archived message', () => {
  let owner: TestUser;
  let sent: Awaited<ReturnType<typeof createCampaignWithMessage>>;

  beforeAll(async () => {
    owner = await createUser(app);
    sent = await createCampaignWithMessage(app, { userId: owner.user.id });
    await age([sent.message.id], 10);
    const run = await archiveFinishedOutbox({ db: db() });
    expect(run.moved).toBeGreaterThanOrEqual(1);
    expect(await placesOf([sent.message.id])).toEqual(['archived']);
  });

  it('records its opens and clicks and redirects to its link', async () => {
    const open = await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.open(sent.token),
      headers: { 'user-agent': CHROME },
    });
    expect(open.statusCode).toBe(200);
    const click = await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.click(sent.token, 1),
      headers: { 'user-agent': CHROME },
    });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe(sent.message.links![1]);
    await app.services.trackingBuffer.flush();
    const types = (await eventsOf(app, sent.message.id)).map((e) => e.type).sort();
    expect(types).toEqual(expect.arrayContaining(['clicked', 'opened']));
  });

  it('has its reply matched by Message-ID, which stops the contact', async () => {
    const raw = answerTo('human-reply.eml', { messageId: sent.message.messageId! });
    const result = await processInboundMessage({
      db: db(),
      log: app.log,
      raw,
      senderAccountId: sent.account.id,
    });
    expect(result).toMatchObject({ kind: 'reply', matched: true });
    const replied = (await eventsOf(app, sent.message.id)).filter((e) => e.type === 'replied');
    expect(replied).toHaveLength(1);
  });

  it("shows in its owner's timeline and is a 404 to another user", async () => {
    const url = `/api/campaigns/${sent.campaign.id}/contacts/${sent.contact.id}/timeline`;
    const mine = await as(app, owner.cookie)({ method: 'GET', url });
    expect(mine.statusCode).toBe(200);
    expect(mine.json<{ type: string }[]>().map((e) => e.type)).toContain('opened');
    const stranger = await createUser(app);
    expect((await as(app, stranger.cookie)({ method: 'GET', url })).statusCode).toBe(404);
    const unsubscribe = await as(
      app,
      stranger.cookie,
    )({
      method: 'GET',
      url: `/api/campaigns/${sent.campaign.id}/contacts/${sent.contact.id}/timeline`,
    });
    expect(unsubscribe.statusCode).toBe(404);
  });

  it('honours its unsubscribe link, one-click and page', async () => {
    const other = await createCampaignWithMessage(app, { userId: owner.user.id });
    const followUp = await addOutboxMessage(app, {
      campaign: other.campaign,
      contactId: other.contact.id,
      email: other.contact.email,
    });
    await age([other.message.id], 9);
    await archiveFinishedOutbox({ db: db() });
    expect(await placesOf([other.message.id, followUp.id])).toEqual(['archived', 'live']);

    const page = await app.inject({ method: 'GET', url: TRACKING_PATHS.unsubscribe(other.token) });
    expect(page.statusCode).toBe(200);
    const oneClick = await app.inject({
      method: 'POST',
      url: TRACKING_PATHS.unsubscribe(other.token),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'One-Click' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('You are unsubscribed');
    const [contact] = await db()
      .select({ status: campaignContacts.status })
      .from(campaignContacts)
      .where(eq(campaignContacts.id, other.contact.id));
    expect(contact?.status).toBe('unsubscribed');
    const [queued] = await db()
      .select({ state: outboxMessages.state })
      .from(outboxMessages)
      .where(eq(outboxMessages.id, followUp.id));
    expect(queued?.state).toBe('cancelled');
  });

  it("stays in the admin's failed messages", async () => {
    const failed = await createCampaignWithMessage(app, {
      userId: owner.user.id,
      state: 'failed',
      sentAt: null,
    });
    await age([failed.message.id], 12);
    await archiveFinishedOutbox({ db: db() });
    expect(await placesOf([failed.message.id])).toEqual(['archived']);
    const admin = await createUser(app, { role: 'super_admin' });
    const list = failedMessageListSchema.parse(
      (
        await as(
          app,
          admin.cookie,
        )({ method: 'GET', url: '/api/admin/email-queue/failed-messages?limit=100' })
      ).json(),
    );
    const ours = list.messages.find((m) => m.id === failed.message.id);
    // Listed as archived, so the screen offers neither retry nor cancel (both answer 409 for it).
    expect(ours).toMatchObject({ userId: owner.user.id, canRetry: false, archived: true });
  });
});

describe("an account's archived messages", () => {
  it('are in its export, and go with the account', async () => {
    const owner = await createUser(app);
    const sent = await createCampaignWithMessage(app, { userId: owner.user.id });
    await age([sent.message.id], 10);
    await archiveFinishedOutbox({ db: db() });
    expect(await placesOf([sent.message.id])).toEqual(['archived']);

    const exported = await as(app, owner.cookie)({ method: 'GET', url: '/api/user/export' });
    expect(exported.statusCode).toBe(200);
    const messages = exported.body
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as { type: string; row?: { id?: string } })
      .filter((l) => l.type === 'outbox_messages');
    expect(messages.map((l) => l.row?.id)).toEqual([sent.message.id]);

    const gone = await as(
      app,
      owner.cookie,
    )({
      method: 'DELETE',
      url: '/api/user',
      payload: { password: owner.password },
    });
    expect(gone.statusCode).toBeLessThan(300);
    expect(await placesOf([sent.message.id])).toEqual(['live 0 archived 0']);
  });
});

describe('the move', () => {
  it('leaves every message in exactly one table when it dies midway, and counts each once', async () => {
    const owner = await createUser(app);
    const { campaign } = await seedCampaign(db(), owner.user.id);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const contact = await seedContact(db(), campaign, {
        email: `m${i}-${randomUUID().slice(0, 6)}@example.com`,
      });
      ids.push((await seedMessage(db(), campaign, contact, { state: i % 2 ? 'sent' : 'failed' })).id);
    }
    const queued = await seedContact(db(), campaign, { email: `q-${randomUUID().slice(0, 6)}@example.com` });
    const waiting = await seedMessage(db(), campaign, queued, { state: 'queued' });
    await age([...ids, waiting.id], 8);
    const figures = async () =>
      rowsOf<{ messages: string }>(
        await db().execute(
          sql`SELECT messages::text FROM outbox_user_totals WHERE user_id = ${owner.user.id}`,
        ),
      );
    const before = await figures();
    expect(before).toEqual([{ messages: '8' }]);

    let batches = 0;
    await expect(
      archiveFinishedOutbox({
        db: db(),
        batchSize: 3,
        onBatch: () => {
          batches += 1;
          if (batches === 2) throw new Error('worker died');
        },
      }),
    ).rejects.toThrow('worker died');
    const places = await placesOf(ids);
    expect(places.filter((p) => p === 'archived')).toHaveLength(3);
    expect(places.filter((p) => p === 'live')).toHaveLength(4);
    expect(await figures()).toEqual(before);

    await archiveFinishedOutbox({ db: db(), batchSize: 3 });
    expect(await placesOf(ids)).toEqual(ids.map(() => 'archived'));
    expect(await placesOf([waiting.id])).toEqual(['live']);
    expect(await figures()).toEqual(before);
  });
});

describe('retention', () => {
  it("drops a whole archived month; analytics, the report counters and the user's figures keep it", async () => {
    const owner = await createUser(app);
    const userId = owner.user.id;
    const month = new Date(Date.UTC(now().getUTCFullYear(), now().getUTCMonth() - 5, 10, 12));
    await ensureOutboxArchivePartitions({ db: db(), at: month, ahead: 6 });
    const { campaign } = await seedCampaign(db(), userId);
    const oldIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const contact = await seedContact(db(), campaign, {
        email: `old${i}-${randomUUID().slice(0, 6)}@example.com`,
      });
      const message = await seedMessage(db(), campaign, contact, { state: 'sent' });
      await seedEvent(db(), message, 'sent', { at: month });
      await seedEvent(db(), message, 'opened', { at: new Date(month.getTime() + DAY) });
      await db()
        .update(outboxMessages)
        .set({ updatedAt: month, sentAt: month })
        .where(eq(outboxMessages.id, message.id));
      oldIds.push(message.id);
    }
    const recent = await seedContact(db(), campaign, {
      email: `new-${randomUUID().slice(0, 6)}@example.com`,
    });
    const kept = await seedMessage(db(), campaign, recent, { state: 'sent' });
    await age([kept.id], 8);
    await archiveFinishedOutbox({ db: db() });
    expect(await placesOf([...oldIds, kept.id])).toEqual(['archived', 'archived', 'archived', 'archived']);

    const partition = `outbox_archive_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
    const [holds] = rowsOf<{ n: number }>(
      await db().execute(sql`SELECT count(*)::int AS n FROM ${sql.identifier(partition)}`),
    );
    expect(holds?.n).toBe(3);

    const snapshot = async () => ({
      // The period's end is the moment of reading; everything else must not move.
      analytics: {
        ...(await getAnalytics({ db: db(), user: { id: userId, subscriptionPlan: 'starter' }, days: 90 })),
        to: '',
      },
      daily: rowsOf(await db().execute(dailyRows(userId))),
      report: rowsOf(
        await db().execute(
          sql`SELECT * FROM newsletter_report_counts WHERE campaign_id = ${campaign.id} ORDER BY 1, 2`,
        ),
      ),
      figures: rowsOf(
        // A day is the sum of its writers' slots (migration *_outbox_user_daily_slots).
        await db().execute(sql`SELECT d.day::text, sum(d.sent)::text AS sent, max(d.last_sent_at) AS last,
          t.messages::text FROM outbox_user_daily d JOIN outbox_user_totals t USING (user_id)
          WHERE d.user_id = ${userId} GROUP BY d.day, t.messages ORDER BY d.day`),
      ),
    });
    const before = await snapshot();
    expect(before.figures).toHaveLength(2);

    const result = await expireOutboxArchive({ db: db(), retentionMonths: 2 });
    expect(result.dropped).toContain(partition);
    const [exists] = rowsOf<{ found: string | null }>(
      await db().execute(sql`SELECT to_regclass(${partition})::text AS found`),
    );
    expect(exists?.found).toBeNull();
    expect(await placesOf(oldIds)).toEqual(oldIds.map(() => 'live 0 archived 0'));
    expect(await placesOf([kept.id])).toEqual(['archived']);
    expect(await snapshot()).toEqual(before);

    const again = await expireOutboxArchive({ db: db(), retentionMonths: 2 });
    expect(again.dropped).toEqual([]);
  });
});

describe('messages queued from a shared body', () => {
  it('read the same once archived, and their body goes when the last of them expires', async () => {
    const owner = await createUser(app);
    const { campaign } = await seedCampaign(db(), owner.user.id);
    const contacts = [];
    for (let i = 0; i < 3; i++) {
      contacts.push(
        await seedContact(db(), campaign, { email: `copy${i}-${randomUUID().slice(0, 6)}@example.com` }),
      );
    }
    const html = `<p>${'Fresh produce for restaurants. '.repeat(40)}<a href="https://kanofoods.test/menu">Menu</a></p>`;
    const { ids } = await queueMessages({
      db: db(),
      queue: null,
      appUrl: 'http://tambari.test',
      campaign,
      messages: contacts.map((c) => ({ campaignContactId: c.id, toEmail: c.email, subject: 'News', html })),
    });
    const bodyOf = async () =>
      rowsOf<{ id: string }>(
        await db().execute(sql`SELECT id FROM outbox_bodies WHERE campaign_id = ${campaign.id}::uuid`),
      );
    expect(await bodyOf()).toHaveLength(1);
    const read = async () =>
      (await db().select().from(outboxAll).where(inArray(outboxAll.id, ids)))
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((m) => ({ id: m.id, html: m.html, text: m.text, links: m.links, bodyId: m.bodyId }));
    const live = await read();
    expect(live.every((m) => m.bodyId !== null && m.html.includes('/t/c/'))).toBe(true);

    // Sent four months ago, and archived: the same bytes through the view.
    const month = new Date(Date.UTC(now().getUTCFullYear(), now().getUTCMonth() - 4, 10, 12));
    await db()
      .update(outboxMessages)
      .set({ state: 'sent', sentAt: month, updatedAt: month })
      .where(inArray(outboxMessages.id, ids));
    await db().execute(sql`UPDATE outbox_bodies SET created_at = ${month.toISOString()}::timestamptz
      WHERE campaign_id = ${campaign.id}::uuid`);
    await archiveFinishedOutbox({ db: db() });
    expect(await placesOf(ids)).toEqual(['archived', 'archived', 'archived']);
    expect(await read()).toEqual(live);

    // Retention drops them, and the body no message names any more.
    const expiry = await expireOutboxArchive({ db: db(), retentionMonths: 2 });
    expect(await placesOf(ids)).toEqual(ids.map(() => 'live 0 archived 0'));
    expect(expiry.sharedBodies).toBeGreaterThanOrEqual(1);
    expect(await bodyOf()).toEqual([]);
  });
});

describe('the view over both tables', () => {
  it('has every column of the outbox', async () => {
    const columns = async (table: string) =>
      rowsOf<{ column_name: string }>(
        await db().execute(sql`SELECT column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = ${table} ORDER BY ordinal_position`),
      ).map((r) => r.column_name);
    const live = (await columns('outbox_messages')).sort();
    expect((await columns('outbox_all')).sort()).toEqual(live);
    expect((await columns('outbox_archive')).sort()).toEqual(live);
  });
});
