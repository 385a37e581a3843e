import { randomUUID } from 'node:crypto';
import type { Database } from '@server/db/client';
import {
  campaignContacts,
  emailEvents,
  newsletterReportCounts,
  newsletters,
  outboxMessages,
} from '@server/db/schema/index';
import { seededRandom } from '@server/lib/seeded-random';
import type {
  NewsletterProgress,
  NewsletterRecipientPage,
  NewsletterReport,
} from '@shared/newsletter-report';
import type { Newsletter } from '@shared/newsletters';
import { createSinkAccount } from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveFinishedOutbox } from '../sending/outbox-archive.service';
import { finishNewsletterSends } from './newsletter-send.service';

/*
 * The report's counters (kept by the email_events trigger, migration *_newsletter_report) against a
 * from-scratch aggregation of the event log, the way the report read it before: a random stream of
 * events written in random batches — single rows, multi-row inserts, concurrent writers —, with noise
 * the report must skip (another user's newsletter, an event under the wrong owner, engine-only types,
 * events before the send and past its first 48 hours, a URL too long for an index).
 */

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

async function sentNewsletter(user: TestUser, count: number) {
  const req = as(app, user.cookie);
  const account = await createSinkAccount(app, user.user.id, { fromName: 'Kano Foods' });
  const list = await req({
    method: 'POST',
    url: '/api/lists',
    payload: { name: `L ${randomUUID().slice(0, 6)}` },
  });
  const listId = list.json<{ id: string }>().id;
  const tag = randomUUID().slice(0, 6);
  for (let i = 0; i < count; i++) {
    const added = await req({
      method: 'POST',
      url: `/api/lists/${listId}/contacts`,
      payload: { email: `r${i}-${tag}@example.com` },
    });
    expect(added.statusCode).toBe(201);
  }
  const newsletter = (
    await req({
      method: 'POST',
      url: '/api/newsletters',
      payload: { kind: 'bulk', name: 'March', subject: 'Hi', html: '<p>Hello</p>' },
    })
  ).json<Newsletter>();
  const sent = await req({
    method: 'POST',
    url: `/api/newsletters/${newsletter.id}/send`,
    payload: { listIds: [listId], senderAccountIds: [account.id] },
  });
  expect(sent.statusCode).toBe(200);
  const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
  const messages = await app.services.db
    .select()
    .from(outboxMessages)
    .where(eq(outboxMessages.campaignId, row!.campaignId!));
  expect(messages).toHaveLength(count);
  return { id: newsletter.id, campaignId: row!.campaignId!, sentAt: row!.sentAt!, messages };
}

type EventRow = typeof emailEvents.$inferInsert;

function eventStream(
  rand: () => number,
  send: Awaited<ReturnType<typeof sentNewsletter>>,
  userId: string,
  count: number,
): EventRow[] {
  const longUrl = `https://kanofoods.test/${'x'.repeat(3000)}`;
  const urls = ['https://kanofoods.test/a', 'https://kanofoods.test/b', 'https://kanofoods.test/c', longUrl];
  const types = ['opened', 'opened', 'opened', 'clicked', 'clicked', 'bounced', 'unsubscribed', 'complained'];
  const noise = ['sent', 'delivered', 'deferred', 'replied'] as const;
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  return Array.from({ length: count }, () => {
    const message = pick(send.messages);
    const type = rand() < 0.1 ? pick(noise) : (pick(types) as EventRow['type']);
    // From an hour before the send to 60 hours after it, exact hour edges now and then.
    const offset =
      rand() < 0.1 ? Math.floor(rand() * 50) * 3600_000 : Math.floor((rand() * 61 - 1) * 3600_000);
    return {
      userId: rand() < 0.03 ? randomUUID() : userId,
      campaignId: send.campaignId,
      campaignContactId: rand() < 0.05 ? null : message.campaignContactId,
      outboxMessageId: message.id,
      type,
      occurredAt: new Date(send.sentAt.getTime() + offset),
      detail: type === 'clicked' ? (rand() < 0.1 ? null : pick(urls)) : null,
      machine: (type === 'opened' || type === 'clicked') && rand() < 0.3,
    };
  });
}

/** The report's event figures aggregated from every event on record (the former queries). */
async function recompute(db: Database, userId: string, campaignId: string, sentAt: Date) {
  const [summary] = rowsOf<Record<string, number>>(
    await db.execute(sql`
      select
        count(*) filter (where type = 'opened' and not machine)::int as "opens",
        count(distinct campaign_contact_id) filter (where type = 'opened' and not machine)::int as "uniqueOpens",
        count(*) filter (where type = 'opened' and machine)::int as "machineOpens",
        count(*) filter (where type = 'clicked' and not machine)::int as "clicks",
        count(distinct campaign_contact_id) filter (where type = 'clicked' and not machine)::int as "uniqueClickers",
        count(*) filter (where type = 'clicked' and machine)::int as "machineClicks",
        count(distinct campaign_contact_id) filter (where type = 'bounced')::int as "bounces",
        count(distinct campaign_contact_id) filter (where type = 'unsubscribed')::int as "unsubscribes",
        count(distinct campaign_contact_id) filter (where type = 'complained')::int as "complaints"
      from email_events where campaign_id = ${campaignId} and user_id = ${userId}`),
  );
  const links = rowsOf<{ url: string; clicks: number; unique: number }>(
    await db.execute(sql`
      select detail as url, count(*)::int as clicks, count(distinct campaign_contact_id)::int as "unique"
      from email_events
      where campaign_id = ${campaignId} and user_id = ${userId} and type = 'clicked' and not machine
        and detail is not null
      group by 1 order by 2 desc, 1`),
  );
  const hourRows = rowsOf<{ hour: number; type: string; n: number }>(
    await db.execute(sql`
      select floor(extract(epoch from (occurred_at - ${sentAt.toISOString()}::timestamptz)) / 3600)::int as hour,
        type, count(*)::int as n
      from email_events
      where campaign_id = ${campaignId} and user_id = ${userId} and type in ('opened', 'clicked') and not machine
        and occurred_at >= ${sentAt.toISOString()}::timestamptz
        and occurred_at < ${new Date(sentAt.getTime() + 48 * 3600_000).toISOString()}::timestamptz
      group by 1, 2`),
  );
  const hours = Array.from({ length: 48 }, (_, hour) => ({ hour, opens: 0, clicks: 0 }));
  for (const r of hourRows) {
    if (r.type === 'opened') hours[r.hour]!.opens = r.n;
    else hours[r.hour]!.clicks = r.n;
  }
  return { summary: summary!, links, hours };
}

/** Recipients and outbox states counted row by row (the former queries), as progress shows them. */
async function recountSend(db: Database, campaignId: string) {
  const [row] = rowsOf<Record<string, number>>(
    await db.execute(sql`
      select
        (select count(*)::int from campaign_contacts where campaign_id = ${campaignId}) as recipients,
        count(*) filter (where state not in ('sent', 'failed', 'bounced', 'suppressed', 'cancelled'))::int as queued,
        count(*) filter (where state = 'sent')::int as sent,
        count(*) filter (where state in ('failed', 'bounced', 'suppressed', 'cancelled'))::int as failed
      from outbox_messages where campaign_id = ${campaignId}`),
  );
  return row!;
}

/** Each counter of a send, its writers' slots added up. */
async function figures(db: Database, campaignId: string) {
  return db
    .select({
      metric: newsletterReportCounts.metric,
      key: newsletterReportCounts.key,
      url: sql<string | null>`max(${newsletterReportCounts.url})`,
      n: sql<number>`sum(${newsletterReportCounts.n})::int`,
    })
    .from(newsletterReportCounts)
    .where(eq(newsletterReportCounts.campaignId, campaignId))
    .groupBy(newsletterReportCounts.metric, newsletterReportCounts.key)
    .orderBy(newsletterReportCounts.metric, newsletterReportCounts.key);
}

async function progress(user: TestUser, id: string) {
  const response = await as(app, user.cookie)({ method: 'GET', url: `/api/newsletters/${id}/progress` });
  expect(response.statusCode).toBe(200);
  return response.json<NewsletterProgress>();
}

async function report(user: TestUser, id: string) {
  const response = await as(app, user.cookie)({ method: 'GET', url: `/api/newsletters/${id}/report` });
  expect(response.statusCode).toBe(200);
  return response.json<NewsletterReport>();
}

async function expectMatches(user: TestUser, send: Awaited<ReturnType<typeof sentNewsletter>>) {
  const expected = await recompute(app.services.db, user.user.id, send.campaignId, send.sentAt);
  const got = await report(user, send.id);
  expect(got.summary).toMatchObject(expected.summary);
  expect(got.links).toEqual(expected.links);
  expect(got.hours).toEqual(expected.hours);
  // The newsletter itself and the newsletters list show the same figures, from the same counters:
  // people who opened, clicked and unsubscribed as the event log says, messages sent as the outbox.
  const sent = await recountSend(app.services.db, send.campaignId);
  const figures = {
    recipientCount: sent.recipients,
    stats: {
      sent: sent.sent,
      opened: expected.summary.uniqueOpens,
      clicked: expected.summary.uniqueClickers,
      unsubscribed: expected.summary.unsubscribes,
    },
  };
  const one = await as(app, user.cookie)({ method: 'GET', url: `/api/newsletters/${send.id}` });
  expect(one.json<Newsletter>()).toMatchObject(figures);
  const list = await as(app, user.cookie)({ method: 'GET', url: '/api/newsletters?kind=bulk' });
  expect(list.json<Newsletter[]>().find((n) => n.id === send.id)).toMatchObject(figures);
  return got;
}

describe('newsletter report counters', () => {
  it('equal a from-scratch aggregation of a random event stream, however it is written', async () => {
    const rand = seededRandom(0x5eed17);
    const user = await createUser(app);
    const other = await createUser(app);
    const send = await sentNewsletter(user, 12);
    const otherSend = await sentNewsletter(other, 3);
    const stream = eventStream(rand, send, user.user.id, 1500);
    const otherStream = eventStream(rand, otherSend, other.user.id, 200);
    const db = app.services.db;

    // One at a time, then multi-row batches of random sizes (another user's events mixed in), then
    // concurrent writers.
    let at = 0;
    for (; at < 40; at++) await db.insert(emailEvents).values(stream[at]!);
    await expectMatches(user, send);
    let otherAt = 0;
    while (at < 900) {
      const size = 1 + Math.floor(rand() * 120);
      const batch = stream.slice(at, at + size);
      const extra = otherStream.slice(otherAt, otherAt + 10);
      otherAt += 10;
      at += size;
      await db.insert(emailEvents).values([...batch, ...extra].sort(() => rand() - 0.5));
    }
    await expectMatches(user, send);
    const batches: EventRow[][] = [];
    while (at < stream.length) {
      const size = 1 + Math.floor(rand() * 80);
      batches.push(stream.slice(at, at + size));
      at += size;
    }
    await Promise.all(batches.map((batch) => db.insert(emailEvents).values(batch)));
    const got = await expectMatches(user, send);
    expect(got.summary.opens).toBeGreaterThan(0);
    expect(got.summary.uniqueClickers).toBeGreaterThan(0);
    expect(got.links.some((l) => l.url.length > 3000)).toBe(true);
    expect(got.hours.some((h) => h.opens > 0)).toBe(true);

    // The other user's newsletter kept only its own.
    await expectMatches(other, otherSend);

    // Built again from scratch (migration backfill, repair), the counters come out the same.
    const before = await figures(db, send.campaignId);
    await db.execute(sql`select newsletter_report_rebuild()`);
    expect(await figures(db, send.campaignId)).toEqual(before);
    await expectMatches(user, send);
  });

  it('follow the outbox and the recipients as messages move, one by one or in bulk, and go', async () => {
    const rand = seededRandom(0xba5e);
    const user = await createUser(app);
    const send = await sentNewsletter(user, 10);
    const db = app.services.db;
    const expectProgress = async () => {
      const expected = await recountSend(db, send.campaignId);
      expect(await progress(user, send.id)).toMatchObject(expected);
      const got = await report(user, send.id);
      expect(got.summary.recipients).toBe(expected.recipients);
      expect(got.summary.failed).toBe(expected.failed);
      const page = await as(
        app,
        user.cookie,
      )({
        method: 'GET',
        url: `/api/newsletters/${send.id}/report/recipients?page=1&pageSize=5`,
      });
      expect(page.json<{ total: number }>().total).toBe(expected.recipients);
      const one = await as(app, user.cookie)({ method: 'GET', url: `/api/newsletters/${send.id}` });
      expect(one.json<Newsletter>()).toMatchObject({
        recipientCount: expected.recipients,
        stats: { sent: expected.sent },
      });
    };
    await expectProgress();
    const states = ['queued', 'sending', 'sent', 'failed', 'bounced', 'suppressed', 'cancelled'] as const;
    for (let round = 0; round < 30; round++) {
      const message = send.messages[Math.floor(rand() * send.messages.length)]!;
      const state = states[Math.floor(rand() * states.length)]!;
      if (round % 5 === 4) {
        // A bulk move, some rows already in that state, and an update that leaves the state alone.
        await db.update(outboxMessages).set({ state }).where(eq(outboxMessages.campaignId, send.campaignId));
        await db
          .update(outboxMessages)
          .set({ attempts: sql`${outboxMessages.attempts} + 1` })
          .where(eq(outboxMessages.campaignId, send.campaignId));
      } else {
        await db.update(outboxMessages).set({ state }).where(eq(outboxMessages.id, message.id));
      }
    }
    await expectProgress();
    // The dispatcher's 'delivering' marks change only the phase; a statement where one row moves among rows
    // that keep their state must still count that row, and two rows swapping their states move no figure
    // (a shortcut for phase-only updates would have to keep all three right).
    const ids = send.messages.map((m) => m.id);
    await db.execute(
      sql`UPDATE outbox_messages SET phase = 'delivering' WHERE id = ANY(${sql.param(ids)}::uuid[])`,
    );
    await expectProgress();
    await db.execute(sql`
      UPDATE outbox_messages SET phase = 'allocated',
        state = CASE WHEN id = ${ids[ids.length - 1]!}::uuid THEN 'failed' ELSE state END
      WHERE id = ANY(${sql.param(ids)}::uuid[])`);
    await expectProgress();
    await db.execute(sql`UPDATE outbox_messages SET state = 'sent' WHERE id = ${ids[1]!}::uuid`);
    await db.execute(sql`UPDATE outbox_messages SET state = 'queued' WHERE id = ${ids[2]!}::uuid`);
    await db.execute(sql`
      UPDATE outbox_messages SET state = CASE WHEN id = ${ids[1]!}::uuid THEN 'queued' ELSE 'sent' END
      WHERE id IN (${ids[1]!}::uuid, ${ids[2]!}::uuid)`);
    await expectProgress();
    // A recipient erased: their message goes with them (cascade).
    await db.delete(campaignContacts).where(eq(campaignContacts.id, send.messages[0]!.campaignContactId!));
    await expectProgress();
    const rebuilt = await recountSend(db, send.campaignId);
    await db.execute(sql`select newsletter_report_rebuild()`);
    expect(await progress(user, send.id)).toMatchObject(rebuilt);
  });

  // Two workers moving messages of the same send (a claim and a record, a batch queued meanwhile) must
  // not wait for each other's commit on one shared counter row. PGlite has one connection: nothing to race.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'let two writers move the same send at once, neither waiting for the other',
    async () => {
      const user = await createUser(app);
      const send = await sentNewsletter(user, 2);
      const db = app.services.db;
      const [first, second] = send.messages;
      await db.transaction(async (holder) => {
        await holder.update(outboxMessages).set({ state: 'sending' }).where(eq(outboxMessages.id, first!.id));
        // A second connection while the first transaction is still open.
        await db.transaction(async (other) => {
          await other.execute(sql`set local lock_timeout = '3s'`);
          await other.update(outboxMessages).set({ state: 'sent' }).where(eq(outboxMessages.id, second!.id));
        });
      });
      expect(await progress(user, send.id)).toMatchObject(await recountSend(db, send.campaignId));
    },
  );

  it('fold the slots of every writer into one row per figure when the send is finished', async () => {
    const user = await createUser(app);
    const send = await sentNewsletter(user, 3);
    const db = app.services.db;
    // Another writer's share: one recipient counted in a slot of its own.
    await db.execute(sql`
      update newsletter_report_counts set n = n - 1
      where campaign_id = ${send.campaignId} and metric = 'recipients'
        and slot = (select min(slot) from newsletter_report_counts
                    where campaign_id = ${send.campaignId} and metric = 'recipients')`);
    await db.insert(newsletterReportCounts).values({
      campaignId: send.campaignId,
      metric: 'recipients',
      key: '',
      slot: -4242,
      n: 1,
    });
    await db
      .update(outboxMessages)
      .set({ state: 'sent' })
      .where(eq(outboxMessages.campaignId, send.campaignId));
    const expected = await figures(db, send.campaignId);
    expect(await finishNewsletterSends({ db })).toBeGreaterThanOrEqual(1);
    const rows = await db
      .select()
      .from(newsletterReportCounts)
      .where(eq(newsletterReportCounts.campaignId, send.campaignId));
    expect(rows.every((r) => r.slot === 0)).toBe(true);
    expect(await figures(db, send.campaignId)).toEqual(expected);
    expect(await progress(user, send.id)).toMatchObject({ recipients: 3, sent: 3 });
  });

  // A week after the send its finished messages move to the archive (sending/outbox-archive.service.ts):
  // a move is no deletion, the send's figures stay as they were.
  it("keep a send's figures when its finished messages move to the archive", async () => {
    const user = await createUser(app);
    const send = await sentNewsletter(user, 3);
    const db = app.services.db;
    await db
      .update(outboxMessages)
      .set({ state: 'sent', updatedAt: new Date(Date.now() - 8 * 24 * 3600_000) })
      .where(eq(outboxMessages.campaignId, send.campaignId));
    const before = await progress(user, send.id);
    expect(before).toMatchObject({ recipients: 3, sent: 3 });
    const one = async () =>
      (await as(app, user.cookie)({ method: 'GET', url: `/api/newsletters/${send.id}` })).json<Newsletter>();
    const listed = await one();
    expect(listed.stats?.sent).toBe(3);
    await archiveFinishedOutbox({ db });
    const live = await db.select().from(outboxMessages).where(eq(outboxMessages.campaignId, send.campaignId));
    expect(live).toHaveLength(0);
    expect(await progress(user, send.id)).toEqual(before);
    expect(await one()).toMatchObject({ stats: listed.stats, recipientCount: listed.recipientCount });
    // Built from scratch, the figures count the archived messages too.
    await db.execute(sql`select newsletter_report_rebuild()`);
    expect(await progress(user, send.id)).toEqual(before);
  });

  it('pages recipients by keyset exactly as by page number, with a search too', async () => {
    const user = await createUser(app);
    const send = await sentNewsletter(user, 11);
    const get = async (query: string) => {
      const response = await as(
        app,
        user.cookie,
      )({
        method: 'GET',
        url: `/api/newsletters/${send.id}/report/recipients?${query}`,
      });
      expect(response.statusCode).toBe(200);
      return response.json<NewsletterRecipientPage>();
    };
    for (const q of ['', '&q=r1']) {
      const byNumber: string[][] = [];
      for (let page = 1; page <= 4; page++) {
        byNumber.push((await get(`page=${page}&pageSize=3${q}`)).items.map((r) => r.email));
      }
      const byKeyset: string[][] = [];
      let after: string | null = null;
      for (let page = 1; page <= 4; page++) {
        const cursor: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
        const result = await get(`page=${page}&pageSize=3${q}${cursor}`);
        byKeyset.push(result.items.map((r) => r.email));
        after = result.next;
        if (after === null) break;
      }
      expect(byKeyset).toEqual(byNumber.filter((items) => items.length > 0));
      expect(byKeyset.flat()).toEqual([...byKeyset.flat()].sort());
    }
    expect((await get('page=1&pageSize=3')).total).toBe(11);
    expect((await get('page=4&pageSize=3')).next).toBeNull();
  });
});
