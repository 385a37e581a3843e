import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  campaignContacts,
  campaigns,
  devMailMessages,
  newsletters,
  outboxAll,
  outboxMessages,
} from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { advanceClock, resetClock } from '@server/lib/clock';
import type { Newsletter } from '@shared/newsletters';
import { createListWithContacts } from '@tests/factories/campaigns';
import { createSinkAccount, dispatchContext } from '@tests/factories/dispatch';
import { multipartBody } from '@tests/factories/imports';
import { createUser, type TestUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { drainOutbox } from '../sending/sending.service';
import { addSuppression } from '../suppression/suppression.service';
import {
  finishNewsletterSends,
  QUEUE_NEWSLETTER_AUDIENCE_JOB,
  queueAudience,
  runNewsletterSchedule,
  sendNewsletter,
} from './newsletter-send.service';

let app: FastifyInstance;
let sink: SmtpSink;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-newsletters-'));

beforeAll(async () => {
  app = await createTestApp({ DATA_DIR: dataDir });
  sink = await startSmtpSink({ keepRaw: true });
});
afterAll(async () => {
  await sink.close();
  await app.close();
});
afterEach(() => resetClock());

async function create(user: TestUser, body: Record<string, unknown>) {
  return as(app, user.cookie)({ method: 'POST', url: '/api/newsletters', payload: body });
}

async function makeList(user: TestUser, contacts: { email: string; firstName?: string }[]) {
  const req = as(app, user.cookie);
  const list = await req({
    method: 'POST',
    url: '/api/lists',
    payload: { name: `Customers ${randomUUID().slice(0, 6)}` },
  });
  expect(list.statusCode).toBe(201);
  const listId = list.json<{ id: string }>().id;
  for (const contact of contacts) {
    const added = await req({ method: 'POST', url: `/api/lists/${listId}/contacts`, payload: contact });
    expect(added.statusCode).toBe(201);
  }
  return listId;
}

const blocks = [
  { id: 'h', type: 'heading', text: 'Hello {{ firstName | default: "friend" }} <b>&</b>', level: 1 },
  {
    id: 't',
    type: 'text',
    text: 'Our **new** menu is out. See [the menu](https://kanofoods.test/menu).',
  },
  { id: 'b', type: 'button', label: 'Order now', href: 'https://kanofoods.test/order' },
];

describe('newsletters: documents', () => {
  it('creates a newsletter from a starter layout, renders its blocks, lists it by kind and edits it', async () => {
    const user = await createUser(app, {
      plan: 'professional',
      status: 'active',
      periodEnd: new Date(Date.now() + 864e5 * 30),
    });
    const req = as(app, user.cookie);
    const created = await create(user, { kind: 'newsletter', name: 'March news' });
    expect(created.statusCode).toBe(201);
    const newsletter = created.json<Newsletter>();
    expect(newsletter.status).toBe('draft');
    expect(newsletter.blocks?.length).toBeGreaterThan(0);
    expect(newsletter.html).toContain('<table role="presentation"');
    expect(newsletter.webUrl).toMatch(/^http:\/\/localhost:3000\/n\/[A-Za-z0-9_-]+$/);

    const patched = await req({
      method: 'PATCH',
      url: `/api/newsletters/${newsletter.id}`,
      payload: { subject: 'Kano Foods — March', preheader: 'New menu inside', blocks },
    });
    expect(patched.statusCode).toBe(200);
    const after = patched.json<Newsletter>();
    expect(after.html).toContain('Order now');
    expect(after.html).toContain('&#60;b&#62;&#38;&#60;/b&#62;');
    expect(after.html).toContain('New menu inside');
    expect(after.text).toContain('the menu (https://kanofoods.test/menu)');

    const bulk = await create(user, {
      kind: 'bulk',
      name: 'Price change',
      subject: 'Prices',
      html: '<p>Hi</p>',
    });
    expect(bulk.statusCode).toBe(201);
    const onlyBulk = await req({ method: 'GET', url: '/api/newsletters?kind=bulk' });
    expect(onlyBulk.json<Newsletter[]>().map((n) => n.id)).toEqual([bulk.json<Newsletter>().id]);
    const all = await req({ method: 'GET', url: '/api/newsletters' });
    expect(all.json<Newsletter[]>()).toHaveLength(2);

    const copy = await req({ method: 'POST', url: `/api/newsletters/${newsletter.id}/duplicate` });
    expect(copy.statusCode).toBe(201);
    expect(copy.json<Newsletter>().name).toBe('March news (copy)');
    expect(copy.json<Newsletter>().html).toBe(after.html);

    const removed = await req({ method: 'DELETE', url: `/api/newsletters/${newsletter.id}` });
    expect(removed.statusCode).toBe(204);
    expect((await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}` })).statusCode).toBe(404);
  });

  it('cleans a bulk email of scripts, handlers and javascript: links', async () => {
    const user = await createUser(app);
    const res = await create(user, {
      kind: 'bulk',
      name: 'Bulk',
      subject: 'Hello',
      html: '<p onclick="steal()">Hi {{ firstName | default: "there" }}</p><script>alert(1)</script><a href="javascript:alert(1)">x</a><iframe src="https://evil.example"></iframe><img src="https://cdn.kanofoods.test/a.png" onerror="x()">',
    });
    expect(res.statusCode).toBe(201);
    const html = res.json<Newsletter>().html;
    expect(html).not.toMatch(/script|onclick|onerror|javascript:|iframe/i);
    expect(html).toContain('{{ firstName | default: "there" }}');
    expect(html).toContain('<img src="https://cdn.kanofoods.test/a.png"');
  });

  it('refuses blocks with unsafe links, and unknown block types', async () => {
    const user = await createUser(app);
    const bad = await create(user, {
      kind: 'newsletter',
      name: 'Bad',
      blocks: [{ id: 'b', type: 'button', label: 'Click', href: 'javascript:alert(1)' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('https://');
    const unknown = await create(user, {
      kind: 'newsletter',
      name: 'Bad',
      blocks: [{ id: 'x', type: 'video' }],
    });
    expect(unknown.statusCode).toBe(400);
  });

  it("answers 404 for another user's newsletter, whatever the action", async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const id = (await create(owner, { kind: 'newsletter', name: 'Mine' })).json<Newsletter>().id;
    const req = as(app, other.cookie);
    for (const [method, url, payload] of [
      ['GET', `/api/newsletters/${id}`, undefined],
      ['PATCH', `/api/newsletters/${id}`, { name: 'Stolen' }],
      ['DELETE', `/api/newsletters/${id}`, undefined],
      ['POST', `/api/newsletters/${id}/duplicate`, undefined],
      ['POST', `/api/newsletters/${id}/send`, { listIds: [randomUUID()], senderAccountIds: [randomUUID()] }],
      ['POST', `/api/newsletters/${id}/unschedule`, undefined],
      ['POST', `/api/newsletters/${id}/test-send`, { senderAccountId: randomUUID() }],
    ] as const) {
      const res = await req({ method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await req({ method: 'GET', url: '/api/newsletters' })).json()).toEqual([]);
    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, id));
    expect(row!.name).toBe('Mine');
  });

  it('allows 5 newsletters a month on the free plan, then asks to upgrade', async () => {
    const user = await createUser(app);
    for (let i = 0; i < 5; i++) {
      const res = await create(user, { kind: i % 2 ? 'bulk' : 'newsletter', name: `N${i}` });
      expect(res.statusCode).toBe(201);
    }
    const refused = await create(user, { kind: 'newsletter', name: 'Sixth' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/Free plan allows 5 newsletters a month\. Upgrade to/);
    const firstId = (await as(app, user.cookie)({ method: 'GET', url: '/api/newsletters' })).json<
      Newsletter[]
    >()[0]!.id;
    const copy = await as(app, user.cookie)({ method: 'POST', url: `/api/newsletters/${firstId}/duplicate` });
    expect(copy.statusCode).toBe(403);
    // Next month the allowance is new again.
    advanceClock(32 * 24 * 3600 * 1000);
    expect((await create(user, { kind: 'newsletter', name: 'April' })).statusCode).toBe(201);
  });
});

describe('newsletters: sending', () => {
  async function readyToSend(user: TestUser) {
    const account = await createSinkAccount(app, user.user.id, { fromName: 'Kano Foods' });
    const listId = await makeList(user, [
      { email: `ada-${randomUUID().slice(0, 6)}@example.com`, firstName: 'Ada' },
      { email: `bayo-${randomUUID().slice(0, 6)}@example.com` },
      { email: `gone-${randomUUID().slice(0, 6)}@example.com`, firstName: 'Gone' },
    ]);
    const newsletter = (
      await create(user, {
        kind: 'newsletter',
        name: 'March',
        subject: 'Hello {{ firstName | default: "friend" }}',
        blocks,
      })
    ).json<Newsletter>();
    return { account, listId, newsletter };
  }

  it('sends to a list through the engine: one personalised message per mailable contact, then sent', async () => {
    const user = await createUser(app);
    const { account, listId, newsletter } = await readyToSend(user);
    const contacts = await as(app, user.cookie)({ method: 'GET', url: `/api/lists/${listId}/contacts` });
    const gone = contacts.body.match(/gone-[a-z0-9-]+@example\.com/)![0];
    await addSuppression({ db: app.services.db, userId: user.user.id, email: gone, reason: 'unsubscribed' });

    const sent = await as(
      app,
      user.cookie,
    )({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/send`,
      payload: { listIds: [listId], senderAccountIds: [account.id] },
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json<Newsletter>().status).toBe('sending');
    expect(sent.json<Newsletter>().recipientCount).toBe(2);

    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
    const [campaign] = await app.services.db
      .select()
      .from(campaigns)
      .where(eq(campaigns.id, row!.campaignId!));
    expect(campaign).toMatchObject({
      kind: 'newsletter',
      status: 'active',
      gapMinSeconds: 0,
      windowStartMinute: 0,
      windowEndMinute: 1440,
      // A newsletter keeps open tracking (the cold-campaign default of off is not its own).
      trackOpens: true,
    });
    const queued = await app.services.db
      .select()
      .from(outboxAll)
      .where(eq(outboxAll.campaignId, campaign!.id));
    expect(queued).toHaveLength(2);
    expect(queued.map((m) => m.subject).sort()).toEqual(['Hello Ada', 'Hello friend']);
    expect(queued.some((m) => m.toEmail === gone)).toBe(false);
    expect(queued.find((m) => m.subject === 'Hello Ada')!.html).toContain('Hello Ada');
    expect(queued.every((m) => m.html.includes('/t/o/'))).toBe(true);

    // Editing or sending again is refused once it has gone.
    const edit = await as(
      app,
      user.cookie,
    )({ method: 'PATCH', url: `/api/newsletters/${newsletter.id}`, payload: { name: 'x' } });
    expect(edit.statusCode).toBe(409);
    const again = await as(
      app,
      user.cookie,
    )({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/send`,
      payload: { listIds: [listId], senderAccountIds: [account.id] },
    });
    expect(again.statusCode).toBe(409);

    // Not 'sent' while messages wait; 'sent' once the engine delivered them.
    expect(await finishNewsletterSends({ db: app.services.db })).toBeGreaterThanOrEqual(0);
    const [stillSending] = await app.services.db
      .select()
      .from(newsletters)
      .where(eq(newsletters.id, newsletter.id));
    expect(stillSending!.status).toBe('sending');
    await drainOutbox(dispatchContext(app, sink.port, user.user.id));
    const mail = sink.messages.filter((m) =>
      m.to.some((to) => to.includes('@example.com') && queued.some((q) => q.toEmail === to)),
    );
    expect(mail).toHaveLength(2);
    expect(mail[0]!.raw).toMatch(/List-Unsubscribe:/i);
    await finishNewsletterSends({ db: app.services.db });
    const done = await as(app, user.cookie)({ method: 'GET', url: `/api/newsletters/${newsletter.id}` });
    expect(done.json<Newsletter>().status).toBe('sent');
    expect(done.json<Newsletter>().stats?.sent).toBe(2);
    const contactsAfter = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, campaign!.id));
    expect(contactsAfter.every((c) => c.status === 'completed')).toBe(true);
  });

  it('sends a bulk email larger than the SMTP socket buffer (64 KiB) to every recipient', async () => {
    // 200 kB (the JSON body limit is 256 KiB). A message past the socket's buffer waited for a drain a corked socket never gives: every send of
    // it timed out (smtp-dot-stuffing.ts, writeAsOne).
    const user = await createUser(app);
    const account = await createSinkAccount(app, user.user.id, { fromName: 'Kano Foods' });
    const tag = randomUUID().slice(0, 6);
    const listId = await makeList(user, [
      { email: `big-a-${tag}@example.com`, firstName: 'Ada' },
      { email: `big-b-${tag}@example.com` },
    ]);
    const paragraph = `<p>Harvest report ${tag}: yields, prices and the routes to market, in full detail.</p>`;
    const html = paragraph.repeat(Math.ceil(200_000 / paragraph.length));
    const created = await create(user, { kind: 'bulk', name: 'Big', subject: 'Report', html });
    expect(created.statusCode, created.body).toBe(201);
    const bulk = created.json<Newsletter>();
    const sent = await as(
      app,
      user.cookie,
    )({
      method: 'POST',
      url: `/api/newsletters/${bulk.id}/send`,
      payload: { listIds: [listId], senderAccountIds: [account.id] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await drainOutbox(dispatchContext(app, sink.port, user.user.id));
    const mail = sink.messages.filter((m) => m.to.some((to) => to.includes(`-${tag}@example.com`)));
    expect(mail).toHaveLength(2);
    for (const message of mail) {
      expect(message.raw.length).toBeGreaterThan(200_000);
      // Quoted-printable may fold a paragraph; its last one arrives whole all the same.
      expect(message.raw.replace(/=\r?\n/g, '')).toContain(`Harvest report ${tag}`);
    }
    await finishNewsletterSends({ db: app.services.db });
    const done = await as(app, user.cookie)({ method: 'GET', url: `/api/newsletters/${bulk.id}` });
    expect(done.json<Newsletter>()).toMatchObject({ status: 'sent', stats: { sent: 2 } });
  }, 60_000);

  it('refuses to send without a subject, to an empty list, or through only paused accounts', async () => {
    const user = await createUser(app);
    const req = as(app, user.cookie);
    const account = await createSinkAccount(app, user.user.id);
    const paused = await createSinkAccount(app, user.user.id, { status: 'paused' });
    const listId = await makeList(user, [{ email: `x-${randomUUID().slice(0, 6)}@example.com` }]);
    const emptyList = await makeList(user, []);
    const noSubject = (await create(user, { kind: 'newsletter', name: 'A' })).json<Newsletter>();
    const res1 = await req({
      method: 'POST',
      url: `/api/newsletters/${noSubject.id}/send`,
      payload: { listIds: [listId], senderAccountIds: [account.id] },
    });
    expect(res1.statusCode).toBe(400);
    expect(res1.json().message).toBe('Add a subject before sending.');
    await req({ method: 'PATCH', url: `/api/newsletters/${noSubject.id}`, payload: { subject: 'News' } });
    const res2 = await req({
      method: 'POST',
      url: `/api/newsletters/${noSubject.id}/send`,
      payload: { listIds: [emptyList], senderAccountIds: [account.id] },
    });
    expect(res2.statusCode).toBe(400);
    expect(res2.json().message).toMatch(/no contacts that can be mailed/);
    const res3 = await req({
      method: 'POST',
      url: `/api/newsletters/${noSubject.id}/send`,
      payload: { listIds: [listId], senderAccountIds: [paused.id] },
    });
    expect(res3.statusCode).toBe(409);
    const res4 = await req({
      method: 'POST',
      url: `/api/newsletters/${noSubject.id}/send`,
      payload: { listIds: [], senderAccountIds: [account.id] },
    });
    expect(res4.statusCode).toBe(400);
    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, noSubject.id));
    expect(row!.status).toBe('draft');
    expect(row!.campaignId).toBeNull();
  });

  it('schedules, unschedules, and the job sends it when the time comes', async () => {
    const user = await createUser(app);
    const req = as(app, user.cookie);
    const { account, listId, newsletter } = await readyToSend(user);
    const past = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/schedule`,
      payload: {
        listIds: [listId],
        senderAccountIds: [account.id],
        scheduledAt: new Date(Date.now() - 60_000).toISOString(),
      },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('Choose a time in the future.');

    const when = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/schedule`,
      payload: { listIds: [listId], senderAccountIds: [account.id], scheduledAt: when },
    });
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.json<Newsletter>()).toMatchObject({
      status: 'scheduled',
      scheduledAt: when,
      listIds: [listId],
    });
    // Still editable while scheduled.
    expect(
      (
        await req({
          method: 'PATCH',
          url: `/api/newsletters/${newsletter.id}`,
          payload: { name: 'March (final)' },
        })
      ).statusCode,
    ).toBe(200);

    const un = await req({ method: 'POST', url: `/api/newsletters/${newsletter.id}/unschedule` });
    expect(un.json<Newsletter>()).toMatchObject({ status: 'draft', scheduledAt: null });
    expect(
      (await req({ method: 'POST', url: `/api/newsletters/${newsletter.id}/unschedule` })).statusCode,
    ).toBe(409);

    await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/schedule`,
      payload: { listIds: [listId], senderAccountIds: [account.id], scheduledAt: when },
    });
    const ctx = { db: app.services.db, queue: null, appUrl: app.services.env.APP_URL };
    await runNewsletterSchedule(ctx);
    expect(
      (await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}` })).json<Newsletter>().status,
    ).toBe('scheduled');
    advanceClock(3_700_000);
    await runNewsletterSchedule(ctx);
    const started = (
      await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}` })
    ).json<Newsletter>();
    expect(started.status).toBe('sending');
    expect(started.recipientCount).toBe(3);
    // Running the job again sends nothing twice.
    await runNewsletterSchedule(ctx);
    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
    expect(
      await app.services.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.campaignId, row!.campaignId!)),
    ).toHaveLength(3);
  });

  it('sends a test that is the real message: personalised as an audience contact, footer, text part, unsubscribe headers', async () => {
    const user = await createUser(app, { firstName: 'Ngozi' });
    const { account, listId, newsletter } = await readyToSend(user);
    const req = as(app, user.cookie);
    const caught = async (subject: string) =>
      vi.waitFor(async () => {
        const rows = await app.services.db
          .select()
          .from(devMailMessages)
          .where(eq(devMailMessages.toAddress, user.email));
        const row = rows.find((r) => r.subject === subject);
        if (!row) throw new Error('not caught yet');
        return row;
      });

    // No lists yet: a reader we know nothing about, never the sender ("Hello Ngozi").
    const plain = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/test-send`,
      payload: { senderAccountId: account.id },
    });
    expect(plain.statusCode, plain.body).toBe(200);
    await caught('[Test] Hello friend');

    const contacts = await req({ method: 'GET', url: `/api/lists/${listId}/contacts` });
    const ada = contacts.body.match(/ada-[a-z0-9-]+@example\.com/)![0];
    await req({ method: 'PATCH', url: `/api/newsletters/${newsletter.id}`, payload: { listIds: [listId] } });
    const res = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/test-send`,
      payload: { senderAccountId: account.id, asContact: ada.toUpperCase() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await caught('[Test] Hello Ada');
    expect(mail.html).toContain('Order now');
    // What recipients get: the footer with the postal address and unsubscribe link, a text part, headers.
    expect(mail.html).toContain(account.postalAddress);
    expect(mail.html).toMatch(/\/u\/test-/);
    expect(mail.text).toContain('Order now');
    expect(mail.text).toContain(account.postalAddress);
    const header = (name: string) =>
      mail.headers.find((h) => h.key.toLowerCase() === name.toLowerCase())?.value ?? '';
    expect(header('List-Unsubscribe')).toMatch(/<https?:\/\/[^>]+\/u\/test-[^>]+>/);
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    const stranger = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/test-send`,
      payload: { senderAccountId: account.id, asContact: 'nobody@example.com' },
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().errors).toEqual([{ path: 'asContact', message: expect.any(String) }]);

    // Sent to a segment, the test stands for the segment's first contact, not the list's.
    const segment = await req({
      method: 'POST',
      url: '/api/segments',
      payload: {
        listId,
        name: 'Gone only',
        rules: [{ type: 'field', field: 'firstName', operator: 'equals', value: 'Gone' }],
      },
    });
    expect(segment.statusCode, segment.body).toBe(201);
    const narrowed = await req({
      method: 'PATCH',
      url: `/api/newsletters/${newsletter.id}`,
      payload: { segmentIds: [segment.json<{ id: string }>().id] },
    });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    const segmented = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/test-send`,
      payload: { senderAccountId: account.id },
    });
    expect(segmented.statusCode, segmented.body).toBe(200);
    await caught('[Test] Hello Gone');
  });
});

describe('newsletters: a large audience', () => {
  it('queues the first recipients in the request and hands the rest to a job that finishes the send', async () => {
    const user = await createUser(app, {
      plan: 'starter',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    const account = await createSinkAccount(app, user.user.id, { fromName: 'Kano Foods' });
    const total = 1_234;
    const list = await createListWithContacts(
      app,
      user.user.id,
      Array.from({ length: total }, (_, i) => ({
        email: `reader-${i}-${randomUUID().slice(0, 6)}@example.com`,
      })),
    );
    const newsletter = (
      await create(user, {
        kind: 'newsletter',
        name: 'Big',
        subject: 'Hello {{ firstName | default: "friend" }}',
        blocks,
      })
    ).json<Newsletter>();
    const sent: { name: string; data: unknown; options: unknown }[] = [];
    const queue = {
      send: async (name: string, data: unknown, options?: unknown) => {
        sent.push({ name, data, options });
        return null;
      },
    } as unknown as Queue;
    const ctx = { db: app.services.db, queue, appUrl: 'http://tambari.test' };

    const started = await sendNewsletter({
      ...ctx,
      userId: user.user.id,
      id: newsletter.id,
      input: { listIds: [list.id], senderAccountIds: [account.id] },
    });
    expect(started.status).toBe('sending');
    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, newsletter.id));
    const campaignId = row!.campaignId!;
    const queuedNow = await app.services.db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(eq(outboxMessages.campaignId, campaignId));
    expect(queuedNow).toHaveLength(1_000);
    const handOff = sent.filter((job) => job.name === QUEUE_NEWSLETTER_AUDIENCE_JOB);
    expect(handOff).toEqual([
      { name: QUEUE_NEWSLETTER_AUDIENCE_JOB, data: { campaignId }, options: { singletonKey: campaignId } },
    ]);
    const [notYet] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(notYet!.startedAt).toBeNull();

    // The job: the rest of the audience, nobody twice; then the send is fully queued.
    expect(await queueAudience(ctx, campaignId)).toEqual({ queued: total - 1_000, done: true });
    const all = await app.services.db
      .select({ email: outboxMessages.toEmail })
      .from(outboxMessages)
      .where(eq(outboxMessages.campaignId, campaignId));
    expect(new Set(all.map((m) => m.email)).size).toBe(total);
    expect(all).toHaveLength(total);
    const [done] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(done!.startedAt).not.toBeNull();
  });
});

describe('newsletters: public web version and images', () => {
  it('shows the web version without a session, merge tags with their fallbacks, text escaped', async () => {
    const user = await createUser(app);
    const newsletter = (
      await create(user, {
        kind: 'newsletter',
        name: 'Web',
        subject: 'Web',
        blocks: [
          {
            id: 'h',
            type: 'heading',
            text: 'Hello {{ firstName | default: "friend" }}, <script>alert(1)</script>',
          },
          { id: 'i', type: 'image', src: 'https://cdn.kanofoods.test/x.png', alt: 'x" onerror="alert(1)' },
        ],
      })
    ).json<Newsletter>();
    const res = await app.inject({ method: 'GET', url: new URL(newsletter.webUrl).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Hello friend, &#60;script&#62;');
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('alt="x&#34; onerror=&#34;alert(1)"');
    expect(res.body).not.toContain('/t/o/'); // no tracking pixel
    const missing = await app.inject({ method: 'GET', url: '/n/not-a-real-token-123' });
    expect(missing.statusCode).toBe(404);
  });

  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );

  it('stores an uploaded image under a random name and serves it with its real type', async () => {
    const user = await createUser(app);
    const body = multipartBody({}, { name: 'logo.png', content: PNG, type: 'image/png' });
    const res = await as(
      app,
      user.cookie,
    )({ method: 'POST', url: '/api/newsletters/images', payload: body.payload, headers: body.headers });
    expect(res.statusCode, res.body).toBe(201);
    const url = res.json<{ url: string }>().url;
    expect(url).toMatch(/^http:\/\/localhost:3000\/media\/[a-f0-9]{32}\.png$/);
    const served = await app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    // Mail clients and the sandboxed preview load it from other origins.
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/media/../../etc/passwd' })).statusCode).toBe(404);
  });

  it('refuses files that are not images whatever their name, oversize images, and anonymous uploads', async () => {
    const user = await createUser(app);
    const fake = multipartBody(
      {},
      { name: 'logo.png', content: '<svg onload="alert(1)"></svg>', type: 'image/png' },
    );
    const res = await as(
      app,
      user.cookie,
    )({ method: 'POST', url: '/api/newsletters/images', payload: fake.payload, headers: fake.headers });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Upload a PNG, JPEG, GIF or WebP image.');
    const big = multipartBody(
      {},
      { name: 'big.png', content: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), type: 'image/png' },
    );
    const tooBig = await as(
      app,
      user.cookie,
    )({ method: 'POST', url: '/api/newsletters/images', payload: big.payload, headers: big.headers });
    expect(tooBig.statusCode).toBe(413);
    const anon = multipartBody({}, { name: 'logo.png', content: PNG, type: 'image/png' });
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/newsletters/images',
          payload: anon.payload,
          headers: anon.headers,
        })
      ).statusCode,
    ).toBe(401);
  });
});
