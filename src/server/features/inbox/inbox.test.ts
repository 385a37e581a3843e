import { randomUUID } from 'node:crypto';
import { campaigns, inboundMessages, senderAccounts, users } from '@server/db/schema/index';
import type { InboxCounts, InboxItem, InboxPage, InboxThread, ThreadEntry } from '@shared/inbox';
import { answerTo } from '@tests/factories/inbound';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser, type TestUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processInboundMessage } from '../inbound/inbound.service';

let app: FastifyInstance;
let sink: SmtpSink;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink({ keepRaw: true });
});
afterAll(async () => {
  await sink.close();
  await app.close();
});

/** A sent campaign message (through an account pointing at the SMTP sink) and an answer to it. */
async function conversation(owner: TestUser, fixture = 'human-reply.eml') {
  const sent = await createCampaignWithMessage(app, { userId: owner.user.id });
  await app.services.db
    .update(senderAccounts)
    .set({ smtpPort: sink.port, signature: 'Ada Okafor\nKano Foods' })
    .where(eq(senderAccounts.id, sent.account.id));
  const result = await processInboundMessage({
    db: app.services.db,
    log: app.log,
    raw: answerTo(fixture, { messageId: sent.message.messageId! }),
    senderAccountId: sent.account.id,
  });
  expect(result.matched).toBe(true);
  const [inbound] = await app.services.db
    .select()
    .from(inboundMessages)
    .where(eq(inboundMessages.outboxMessageId, sent.message.id));
  return { ...sent, inbound: inbound! };
}

function header(raw: string, name: string): string | null {
  const head = (raw.split(/\r?\n\r?\n/, 1)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(head)?.[1]?.trim() ?? null;
}

describe('the inbox list, counts and thread', () => {
  it('lists matched answers newest first with their category, counts unread, and opens the thread', async () => {
    const owner = await createUser(app);
    const first = await conversation(owner, 'human-reply.eml');
    const second = await conversation(owner, 'outlook-ooo.eml');
    const call = as(app, owner.cookie);

    const page = (await call({ method: 'GET', url: '/api/inbox' })).json<InboxPage>();
    expect(page.items.map((item) => item.id)).toEqual([second.inbound.id, first.inbound.id]);
    const reply = page.items[1]!;
    expect(reply).toMatchObject({
      category: 'meeting_request',
      categorySource: 'rule',
      readAt: null,
      canMarkWon: true,
      campaignId: first.campaign.id,
      senderAccountId: first.account.id,
    });
    expect(page.items[0]).toMatchObject({ category: 'out_of_office', canMarkWon: false });

    const counts = (await call({ method: 'GET', url: '/api/inbox/counts' })).json<InboxCounts>();
    expect(counts.unread).toBe(2);
    expect(counts.byCategory).toMatchObject({ meeting_request: 1, out_of_office: 1 });

    const thread = (await call({ method: 'GET', url: `/api/inbox/${first.inbound.id}` })).json<InboxThread>();
    expect(thread.entries.map((entry) => entry.type)).toEqual(['sent', 'received']);
    expect(thread.replyFrom?.id).toBe(first.account.id);
    expect(thread.signature).toBe('Ada Okafor\nKano Foods');
  });

  it('filters by status, category, account, campaign, date and search, and pages with a cursor', async () => {
    const owner = await createUser(app);
    const a = await conversation(owner, 'human-reply.eml');
    const b = await conversation(owner, 'french-reply.eml');
    const c = await conversation(owner, 'outlook-ooo.eml');
    const call = as(app, owner.cookie);
    const ids = async (query: string) =>
      (await call({ method: 'GET', url: `/api/inbox?${query}` })).json<InboxPage>().items.map((i) => i.id);

    expect(await ids('category=out_of_office')).toEqual([c.inbound.id]);
    expect(await ids(`accountId=${a.account.id}`)).toEqual([a.inbound.id]);
    expect(await ids(`campaignId=${b.campaign.id}`)).toEqual([b.inbound.id]);
    expect(await ids('q=Tuesday')).toEqual([a.inbound.id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids(`from=${today}&to=${today}`)).toHaveLength(3);
    expect(await ids('to=2020-01-01')).toEqual([]);

    await call({ method: 'PATCH', url: `/api/inbox/${a.inbound.id}`, payload: { read: true } });
    expect(await ids('status=unread')).toEqual([c.inbound.id, b.inbound.id]);
    expect(await ids('status=read')).toEqual([a.inbound.id]);

    const first = (await call({ method: 'GET', url: '/api/inbox?limit=2' })).json<InboxPage>();
    expect(first.items).toHaveLength(2);
    const rest = (
      await call({ method: 'GET', url: `/api/inbox?limit=2&cursor=${first.nextCursor}` })
    ).json<InboxPage>();
    expect(rest.items.map((i) => i.id)).toEqual([a.inbound.id]);
    expect(rest.nextCursor).toBeNull();
    expect((await call({ method: 'GET', url: '/api/inbox?cursor=nonsense' })).statusCode).toBe(400);
  });

  it('sets the category, a note, read state and a snooze that hides the message until it ends', async () => {
    const owner = await createUser(app);
    const { inbound } = await conversation(owner);
    const call = as(app, owner.cookie);
    const patch = (payload: object) => call({ method: 'PATCH', url: `/api/inbox/${inbound.id}`, payload });

    const changed = (
      await patch({ category: 'interested', note: 'Call back after Eid', read: true })
    ).json<InboxItem>();
    expect(changed).toMatchObject({
      category: 'interested',
      categorySource: 'user',
      note: 'Call back after Eid',
    });
    expect(changed.readAt).not.toBeNull();
    expect((await patch({ category: 'maybe' })).statusCode).toBe(400);
    expect((await patch({})).statusCode).toBe(400);

    const until = new Date(Date.now() + 86_400_000).toISOString();
    expect((await patch({ snoozedUntil: until, read: false })).statusCode).toBe(200);
    const list = (await call({ method: 'GET', url: '/api/inbox' })).json<InboxPage>();
    expect(list.items.map((i) => i.id)).not.toContain(inbound.id);
    const snoozed = (await call({ method: 'GET', url: '/api/inbox?status=snoozed' })).json<InboxPage>();
    expect(snoozed.items.map((i) => i.id)).toEqual([inbound.id]);
    const counts = (await call({ method: 'GET', url: '/api/inbox/counts' })).json<InboxCounts>();
    expect(counts).toMatchObject({ unread: 0, snoozed: 1 });
    await patch({ snoozedUntil: null });
    const back = (await call({ method: 'GET', url: '/api/inbox' })).json<InboxPage>();
    expect(back.items.map((i) => i.id)).toEqual([inbound.id]);
  });
});

/** The inbox's counts as a direct count of the user's mail (what the kept counters must always equal). */
async function countedDirectly(userId: string): Promise<InboxCounts> {
  const at = new Date().toISOString();
  const { rows } = (await app.services.db.execute(sql`
    SELECT category,
      count(*) FILTER (WHERE snoozed_until IS NULL OR snoozed_until <= ${at}::timestamptz)::int AS total,
      count(*) FILTER (WHERE read_at IS NULL AND (snoozed_until IS NULL OR snoozed_until <= ${at}::timestamptz))::int AS unread,
      count(*) FILTER (WHERE snoozed_until > ${at}::timestamptz)::int AS snoozed
    FROM inbound_messages WHERE user_id = ${userId} AND campaign_id IS NOT NULL
    GROUP BY category`)) as unknown as {
    rows: { category: string | null; total: number; unread: number; snoozed: number }[];
  };
  const byCategory: Record<string, number> = {};
  let unread = 0;
  let snoozed = 0;
  for (const row of rows) {
    byCategory[row.category ?? 'none'] = Number(row.total);
    unread += Number(row.unread);
    snoozed += Number(row.snoozed);
  }
  return { unread, snoozed, byCategory };
}

describe('the kept inbox counts', () => {
  it('equal a direct count through new mail, reads, unreads, category changes, snoozes and deletes', async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const call = as(app, owner.cookie);
    const check = async (step: string) => {
      const counts = (await call({ method: 'GET', url: '/api/inbox/counts' })).json<InboxCounts>();
      expect(counts, step).toEqual(await countedDirectly(owner.user.id));
      return counts;
    };
    const patch = (id: string, payload: object) =>
      call({ method: 'PATCH', url: `/api/inbox/${id}`, payload });

    expect(await check('nothing yet')).toEqual({ unread: 0, snoozed: 0, byCategory: {} });
    const a = await conversation(owner, 'human-reply.eml');
    const b = await conversation(owner, 'outlook-ooo.eml');
    const c = await conversation(owner, 'french-reply.eml');
    await conversation(other, 'human-reply.eml');
    expect((await check('three answers')).unread).toBe(3);

    // Many rows in one statement (as an import or the bench writes them), some without a category, some
    // read, one snoozed, and mail that matched nothing (no campaign: not in the inbox).
    const base = {
      userId: owner.user.id,
      senderAccountId: a.account.id,
      campaignId: a.campaign.id,
      kind: 'reply',
    };
    await app.services.db.insert(inboundMessages).values([
      { ...base, category: 'question', messageIdHeader: `${randomUUID()}@x.test` },
      { ...base, category: 'question', readAt: new Date(), messageIdHeader: `${randomUUID()}@x.test` },
      { ...base, category: null, messageIdHeader: `${randomUUID()}@x.test` },
      {
        ...base,
        category: 'not_now',
        snoozedUntil: new Date(Date.now() + 3_600_000),
        messageIdHeader: `${randomUUID()}@x.test`,
      },
      // A snooze that has already ended counts as an ordinary message.
      {
        ...base,
        category: 'not_now',
        snoozedUntil: new Date(Date.now() - 3_600_000),
        messageIdHeader: `${randomUUID()}@x.test`,
      },
      { ...base, campaignId: null, category: 'question', messageIdHeader: `${randomUUID()}@x.test` },
    ]);
    const mixed = await check('a bulk insert');
    expect(mixed).toMatchObject({ snoozed: 1, byCategory: { question: 2, none: 1, not_now: 1 } });

    expect((await patch(a.inbound.id, { read: true })).statusCode).toBe(200);
    await check('read');
    expect((await patch(a.inbound.id, { read: true })).statusCode).toBe(200);
    await check('read again');
    expect((await patch(a.inbound.id, { read: false })).statusCode).toBe(200);
    await check('unread');
    expect((await patch(b.inbound.id, { category: 'interested', read: true })).statusCode).toBe(200);
    await check('a new category, read at once');
    expect(
      (await patch(c.inbound.id, { snoozedUntil: new Date(Date.now() + 86_400_000).toISOString() }))
        .statusCode,
    ).toBe(200);
    expect((await check('snoozed')).snoozed).toBe(2);
    expect((await patch(c.inbound.id, { snoozedUntil: null, note: 'Call on Monday' })).statusCode).toBe(200);
    await check('unsnoozed');

    // Every message of the user at once, then one row deleted, then a whole campaign (its mail cascades).
    await app.services.db
      .update(inboundMessages)
      .set({ readAt: new Date() })
      .where(eq(inboundMessages.userId, owner.user.id));
    expect((await check('all read')).unread).toBe(0);
    await app.services.db.delete(inboundMessages).where(eq(inboundMessages.id, b.inbound.id));
    await check('one deleted');
    await app.services.db.delete(campaigns).where(eq(campaigns.id, a.campaign.id));
    await check('a campaign deleted');
    expect(await countedDirectly(other.user.id)).toMatchObject({ unread: 1 });

    // Deleting the user takes their counters with them (the cascade's delete does not bring them back).
    await app.services.db.delete(users).where(eq(users.id, owner.user.id));
    const { rows } = (await app.services.db.execute(
      sql`SELECT count(*)::int AS n FROM inbox_counts WHERE user_id = ${owner.user.id}`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(rows[0]!.n)).toBe(0);
    const others = (
      await as(app, other.cookie)({ method: 'GET', url: '/api/inbox/counts' })
    ).json<InboxCounts>();
    expect(others).toEqual(await countedDirectly(other.user.id));
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another user's message, thread, update, reply and signature, and lists none of it", async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const { inbound, account } = await conversation(owner);
    const call = as(app, other.cookie);

    expect((await call({ method: 'GET', url: `/api/inbox/${inbound.id}` })).statusCode).toBe(404);
    expect(
      (await call({ method: 'PATCH', url: `/api/inbox/${inbound.id}`, payload: { read: true } })).statusCode,
    ).toBe(404);
    expect(
      (await call({ method: 'POST', url: `/api/inbox/${inbound.id}/reply`, payload: { text: 'Hello' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call({ method: 'PUT', url: `/api/inbox/signatures/${account.id}`, payload: { signature: 'x' } }))
        .statusCode,
    ).toBe(404);
    const page = (await call({ method: 'GET', url: '/api/inbox' })).json<InboxPage>();
    expect(page.items).toEqual([]);
    const counts = (await call({ method: 'GET', url: '/api/inbox/counts' })).json<InboxCounts>();
    expect(counts.unread).toBe(0);
    expect(sink.messages.filter((m) => m.to.includes('tunde@ibadan-foods.test'))).toHaveLength(0);
    // The owner's message is untouched.
    const [row] = await app.services.db
      .select()
      .from(inboundMessages)
      .where(eq(inboundMessages.id, inbound.id));
    expect(row!.readAt).toBeNull();
  });

  it('answers 503 for an AI suggestion where no AI provider is configured', async () => {
    const owner = await createUser(app);
    const { inbound } = await conversation(owner);
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/inbox/${inbound.id}/suggest-category`,
    });
    expect(response.statusCode).toBe(503);
  });

  it('answers 401 without a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/inbox' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/inbox/counts' })).statusCode).toBe(401);
  });
});

describe('replying from the app', () => {
  it('sends through the account over SMTP, threaded, with the signature, counted, and the next answer threads under it', async () => {
    const owner = await createUser(app);
    const { inbound, account, message } = await conversation(owner);
    const call = as(app, owner.cookie);
    const before = sink.messages.length;

    const response = await call({
      method: 'POST',
      url: `/api/inbox/${inbound.id}/reply`,
      payload: { text: 'Tuesday at 10 works. I will call you.' },
    });
    expect(response.statusCode).toBe(201);
    const entry = response.json<ThreadEntry>();
    expect(entry).toMatchObject({ type: 'replied', to: 'tunde@ibadan-foods.test' });

    const arrived = sink.messages.slice(before);
    expect(arrived).toHaveLength(1);
    const raw = arrived[0]!.raw;
    expect(arrived[0]!.to).toEqual(['tunde@ibadan-foods.test']);
    expect(header(raw, 'Subject')).toBe('Re: Quick question about your deliveries');
    expect(header(raw, 'In-Reply-To')).toBe(`<${inbound.messageIdHeader}>`);
    expect(header(raw, 'References')).toBe(`<${message.messageId}> <${inbound.messageIdHeader}>`);
    const parsed = await simpleParser(raw);
    expect(parsed.text).toContain('Tuesday at 10 works. I will call you.');
    expect(parsed.text).toContain('-- \nAda Okafor\nKano Foods');
    expect(parsed.from?.value[0]?.address).toBe(account.fromEmail);

    const [counted] = await app.services.db
      .select()
      .from(senderAccounts)
      .where(eq(senderAccounts.id, account.id));
    expect(counted!.sendsToday).toBe(1);

    // The contact answers the app's reply; their client keeps only In-Reply-To.
    const replyId = extractId(header(raw, 'Message-ID')!);
    const answer = [
      'From: Tunde Adeyemi <tunde@ibadan-foods.test>',
      `To: ${account.fromEmail}`,
      'Subject: Re: Quick question about your deliveries',
      `Message-ID: <${randomUUID()}@mail.ibadan-foods.test>`,
      `In-Reply-To: <${replyId}>`,
      'Date: Wed, 25 Nov 2026 09:00:00 +0100',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Great, speak then. Please send the price list before the call.',
      '',
    ].join('\r\n');
    const result = await processInboundMessage({
      db: app.services.db,
      log: app.log,
      raw: answer,
      senderAccountId: account.id,
    });
    expect(result).toMatchObject({ kind: 'reply', matched: true });

    const thread = (await call({ method: 'GET', url: `/api/inbox/${inbound.id}` })).json<InboxThread>();
    expect(thread.entries.map((e) => e.type)).toEqual(['sent', 'received', 'replied', 'received']);
    expect(thread.entries[3]!.text).toContain('Please send the price list');
    const page = (await call({ method: 'GET', url: '/api/inbox' })).json<InboxPage>();
    expect(page.items).toHaveLength(2);
    expect(page.items[0]!.category).toBe('interested');
  });

  it("refuses at the account's daily cap and sends nothing", async () => {
    const owner = await createUser(app);
    const { inbound, account } = await conversation(owner);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: account.timeZone }).format(new Date());
    await app.services.db
      .update(senderAccounts)
      .set({ dailyCap: 1, sendsToday: 1, sendsDay: today })
      .where(eq(senderAccounts.id, account.id));
    const before = sink.messages.length;
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/inbox/${inbound.id}/reply`,
      payload: { text: 'Hello again' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json<{ message: string }>().message).toContain("today's limit");
    expect(sink.messages.length).toBe(before);
  });

  it('refuses an empty reply', async () => {
    const owner = await createUser(app);
    const { inbound } = await conversation(owner);
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/inbox/${inbound.id}/reply`,
      payload: { text: '   ' },
    });
    expect(response.statusCode).toBe(400);
  });
});

function extractId(value: string): string {
  return value.replace(/^<|>$/g, '');
}
