import { randomUUID } from 'node:crypto';
import { buildApp } from '@server/app';
import { openDatabase } from '@server/db/client';
import { emailEvents } from '@server/db/schema/index';
import { parseEnv } from '@server/env';
import { ephemeralSecrets } from '@server/lib/secrets';
import { TRACKING_PATHS } from '@shared/sending';
import { createCampaignWithMessage, newTestToken } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp, pgliteSnapshot } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertTrackingHits, type TrackingHit } from './tracking-hits';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

// A long flush interval: the tests decide when the buffer is written (flush() or close), not a timer.
const QUIET_BUFFER = { TRACKING_FLUSH_MS: '60000' };

async function eventsOf(db: FastifyInstance['services']['db'], outboxMessageId: string) {
  return db
    .select()
    .from(emailEvents)
    .where(eq(emailEvents.outboxMessageId, outboxMessageId))
    .orderBy(emailEvents.id);
}

describe('open pixel and click redirect', () => {
  let app: FastifyInstance;
  let userId: string;
  beforeAll(async () => {
    app = await createTestApp(QUIET_BUFFER);
    userId = (await createUser(app)).user.id;
  });
  afterAll(() => app.close());

  const flush = () => app.services.trackingBuffer.flush();
  const events = (messageId: string) => eventsOf(app.services.db, messageId);

  it('answers the pixel with a 43-byte transparent GIF that is never cached, and records an open', async () => {
    const { message, token, campaign, contact, account } = await createCampaignWithMessage(app, { userId });
    const response = await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.open(token),
      headers: { 'user-agent': CHROME },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/gif');
    expect(response.headers['cache-control']).toBe('no-store, no-cache, must-revalidate, private');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.rawPayload.length).toBe(43);
    expect(response.rawPayload.subarray(0, 6).toString('latin1')).toBe('GIF89a');

    expect(await events(message.id)).toEqual([]);
    await flush();
    const [opened, ...rest] = await events(message.id);
    expect(rest).toEqual([]);
    expect(opened).toMatchObject({
      userId,
      campaignId: campaign.id,
      stepId: message.stepId,
      campaignContactId: contact.id,
      outboxMessageId: message.id,
      senderAccountId: account.id,
      type: 'opened',
      detail: null,
      machine: false,
      machineReason: null,
      userAgent: CHROME,
      metadata: null,
    });
    expect(opened!.occurredAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers the same GIF for unknown and malformed tokens and records nothing', async () => {
    const before = app.services.trackingBuffer.size;
    for (const url of [
      TRACKING_PATHS.open(newTestToken()),
      '/t/o/nothing',
      '/t/o/short.gif',
      `/t/o/${'%27%22'.repeat(10)}.gif`,
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: { 'user-agent': CHROME } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('image/gif');
      expect(response.rawPayload.length).toBe(43);
    }
    expect(app.services.trackingBuffer.size).toBe(before);
  });

  it("redirects a click to the message's stored link and records it with the URL", async () => {
    const links = ['https://kanofoods.example.com/offer?ref=mail&x=1', 'https://kanofoods.example.com/about'];
    const { message, token } = await createCampaignWithMessage(app, { userId, links });
    const response = await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.click(token, 1),
      headers: { 'user-agent': CHROME },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(links[1]);
    expect(response.headers['cache-control']).toContain('no-store');

    await flush();
    const recorded = await events(message.id);
    const clicked = recorded.filter((e) => e.type === 'clicked');
    expect(clicked).toHaveLength(1);
    expect(clicked[0]).toMatchObject({ detail: links[1], machine: false, userAgent: CHROME });
  });

  it('counts a click with no open on record as an open too, once', async () => {
    const { message, token } = await createCampaignWithMessage(app, { userId });
    for (const index of [0, 1, 0]) {
      const response = await app.inject({
        method: 'GET',
        url: TRACKING_PATHS.click(token, index),
        headers: { 'user-agent': CHROME },
      });
      expect(response.statusCode).toBe(302);
    }
    await flush();
    const recorded = await events(message.id);
    expect(recorded.filter((e) => e.type === 'clicked')).toHaveLength(3);
    const opened = recorded.filter((e) => e.type === 'opened');
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ machine: false, metadata: { inferred: true } });
  });

  it('infers no open when the person already opened it, nor from a machine click', async () => {
    const opened = await createCampaignWithMessage(app, { userId });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.open(opened.token),
      headers: { 'user-agent': CHROME },
    });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.click(opened.token, 0),
      headers: { 'user-agent': CHROME },
    });

    const scanned = await createCampaignWithMessage(app, { userId });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.click(scanned.token, 0),
      headers: { 'user-agent': 'Mimecast-URL-Protect/1.0' },
    });
    await flush();
    expect((await events(opened.message.id)).map((e) => [e.type, e.metadata])).toEqual([
      ['opened', null],
      ['clicked', null],
    ]);
    expect((await events(scanned.message.id)).map((e) => e.type)).toEqual(['clicked']);
  });

  it('infers no open when a person open is already in the database (a fresh process)', async () => {
    const { message, token } = await createCampaignWithMessage(app, { userId });
    await app.services.db.insert(emailEvents).values({
      userId,
      campaignId: message.campaignId,
      campaignContactId: message.campaignContactId,
      outboxMessageId: message.id,
      type: 'opened',
    });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.click(token, 0),
      headers: { 'user-agent': CHROME },
    });
    await flush();
    expect((await events(message.id)).map((e) => e.type)).toEqual(['opened', 'clicked']);
  });

  it('answers 404 with a plain page for an unknown token or a link index out of range, recording nothing', async () => {
    const { message, token } = await createCampaignWithMessage(app, {
      userId,
      links: ['https://example.com/a'],
    });
    const before = app.services.trackingBuffer.size;
    for (const url of [
      TRACKING_PATHS.click(token, 1),
      TRACKING_PATHS.click(token, 99),
      `/t/c/${token}/-1`,
      `/t/c/${token}/abc`,
      `/t/c/${token}/99999999999999999999`,
      TRACKING_PATHS.click(newTestToken(), 0),
      '/t/c/not-a-token/0',
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: { 'user-agent': CHROME } });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('This link is no longer valid');
    }
    expect(app.services.trackingBuffer.size).toBe(before);
    await flush();
    expect(await events(message.id)).toEqual([]);
  });

  it('never takes the target from the request: a URL in the query string is ignored', async () => {
    const { token } = await createCampaignWithMessage(app, {
      userId,
      links: ['https://kanofoods.example.com/'],
    });
    for (const query of ['?url=https://evil.example/', '?next=//evil.example', '?0=https://evil.example']) {
      const response = await app.inject({
        method: 'GET',
        url: `${TRACKING_PATHS.click(token, 0)}${query}`,
        headers: { 'user-agent': CHROME },
      });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('https://kanofoods.example.com/');
    }
  });

  it('does not redirect to a stored link that is not a web, mail or phone address', async () => {
    const { token } = await createCampaignWithMessage(app, {
      userId,
      links: ['javascript:alert(1)', 'data:text/html,hi', 'not a url', 'mailto:sales@kanofoods.example.com'],
    });
    for (const index of [0, 1, 2]) {
      const response = await app.inject({ method: 'GET', url: TRACKING_PATHS.click(token, index) });
      expect(response.statusCode, String(index)).toBe(404);
    }
    const mail = await app.inject({ method: 'GET', url: TRACKING_PATHS.click(token, 3) });
    expect(mail.statusCode).toBe(302);
    expect(mail.headers.location).toBe('mailto:sales@kanofoods.example.com');
  });

  it('flags machine hits: Apple Mail Privacy Protection, scanners, prefetches and too-fast clicks', async () => {
    const apple = await createCampaignWithMessage(app, { userId });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.open(apple.token),
      headers: { 'user-agent': 'Mozilla/5.0' },
    });
    const scanner = await createCampaignWithMessage(app, { userId });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.click(scanner.token, 0),
      headers: { 'user-agent': 'python-requests/2.32.3' },
    });
    const prefetched = await createCampaignWithMessage(app, { userId });
    const head = await app.inject({
      method: 'HEAD',
      url: TRACKING_PATHS.open(prefetched.token),
      headers: { 'user-agent': CHROME },
    });
    expect(head.statusCode).toBe(200);
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.click(prefetched.token, 0),
      headers: { 'user-agent': CHROME, 'sec-purpose': 'prefetch' },
    });
    const fresh = await createCampaignWithMessage(app, { userId, sentAt: new Date() });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.click(fresh.token, 0),
      headers: { 'user-agent': CHROME },
    });
    const proxied = await createCampaignWithMessage(app, { userId });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.open(proxied.token),
      headers: {
        'user-agent':
          'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
      },
    });
    await flush();

    const verdicts = async (messageId: string) =>
      (await events(messageId)).map((e) => ({
        type: e.type,
        machine: e.machine,
        machineReason: e.machineReason,
      }));
    expect(await verdicts(apple.message.id)).toEqual([
      { type: 'opened', machine: true, machineReason: 'apple_mpp' },
    ]);
    expect(await verdicts(scanner.message.id)).toEqual([
      { type: 'clicked', machine: true, machineReason: 'scanner' },
    ]);
    expect(await verdicts(prefetched.message.id)).toEqual([
      { type: 'opened', machine: true, machineReason: 'prefetch' },
      { type: 'clicked', machine: true, machineReason: 'prefetch' },
    ]);
    expect(await verdicts(fresh.message.id)).toEqual([
      { type: 'clicked', machine: true, machineReason: 'too_fast' },
    ]);
    expect(await verdicts(proxied.message.id)).toEqual([
      { type: 'opened', machine: false, machineReason: 'google_proxy' },
    ]);
  });

  it('does not believe a forged X-Forwarded-For when no proxy is trusted', async () => {
    const { message, token } = await createCampaignWithMessage(app, { userId });
    await app.inject({
      method: 'GET',
      url: TRACKING_PATHS.open(token),
      headers: { 'user-agent': CHROME, 'x-forwarded-for': '17.58.101.4' },
    });
    await flush();
    expect((await events(message.id)).map((e) => e.machine)).toEqual([false]);
  });

  it('keeps at most 512 characters of the user agent', async () => {
    const { message, token } = await createCampaignWithMessage(app, { userId });
    const long = `${CHROME} ${'x'.repeat(2_000)}`;
    await app.inject({ method: 'GET', url: TRACKING_PATHS.open(token), headers: { 'user-agent': long } });
    await flush();
    const [opened] = await events(message.id);
    expect(opened!.userAgent).toBe(long.slice(0, 512));
  });

  it('does not lose a batch over the hit of a message deleted meanwhile', async () => {
    const { message } = await createCampaignWithMessage(app, { userId });
    const base = {
      owner: {
        userId: message.userId,
        campaignId: message.campaignId,
        stepId: message.stepId,
        campaignContactId: message.campaignContactId,
        senderAccountId: message.senderAccountId,
      },
      occurredAt: new Date(),
      detail: null,
      machine: false,
      machineReason: null,
      userAgent: CHROME,
      metadata: null,
    };
    app.services.trackingBuffer.push({ ...base, outboxMessageId: randomUUID(), type: 'opened' });
    app.services.trackingBuffer.push({ ...base, outboxMessageId: message.id, type: 'opened' });
    const result = await flush();
    expect(result.failed).toBe(false);
    expect(result.remaining).toBe(0);
    expect((await events(message.id)).map((e) => e.type)).toEqual(['opened']);
  });

  it('writes a batch through the INSERT path intact (PGlite, and PostgreSQL when COPY fails)', async () => {
    const first = await createCampaignWithMessage(app, { userId });
    const second = await createCampaignWithMessage(app, { userId });
    const step = randomUUID();
    const owner = (message: typeof first.message, stepId: string | null) => ({
      userId: message.userId,
      campaignId: message.campaignId,
      stepId,
      campaignContactId: message.campaignContactId,
      senderAccountId: message.senderAccountId,
    });
    const odd = 'https://example.com/a"b\\c,{d} e?x=ü€😀 NULL';
    const at = Date.UTC(2026, 10, 25, 9, 0, 0, 123);
    const hits: TrackingHit[] = [
      {
        outboxMessageId: second.message.id,
        owner: owner(second.message, step),
        type: 'clicked',
        occurredAt: new Date(at + 5),
        detail: odd,
        machine: true,
        machineReason: 'scanner',
        userAgent: 'NULL',
        metadata: null,
      },
      {
        outboxMessageId: first.message.id,
        owner: owner(first.message, null),
        type: 'opened',
        occurredAt: new Date(at),
        detail: null,
        machine: false,
        machineReason: null,
        userAgent: null,
        metadata: { inferred: true },
      },
      // Empty strings where the hit before has nulls: a different combination of values, not the same one.
      {
        outboxMessageId: first.message.id,
        owner: owner(first.message, null),
        type: 'opened',
        occurredAt: new Date(at + 1),
        detail: '',
        machine: false,
        machineReason: '',
        userAgent: '',
        metadata: null,
      },
      {
        outboxMessageId: second.message.id,
        owner: owner(second.message, step),
        type: 'opened',
        occurredAt: new Date(at + 86_400_000),
        detail: null,
        machine: false,
        machineReason: null,
        userAgent: CHROME,
        metadata: null,
      },
    ];
    expect(await insertTrackingHits({ db: app.services.db, hits })).toBe(4);
    const pick = (e: typeof emailEvents.$inferSelect) => ({
      userId: e.userId,
      campaignId: e.campaignId,
      stepId: e.stepId,
      campaignContactId: e.campaignContactId,
      senderAccountId: e.senderAccountId,
      type: e.type,
      at: e.occurredAt.getTime(),
      detail: e.detail,
      machine: e.machine,
      machineReason: e.machineReason,
      userAgent: e.userAgent,
      metadata: e.metadata,
    });
    expect((await events(first.message.id)).map(pick)).toEqual([
      {
        ...owner(first.message, null),
        type: 'opened',
        at,
        detail: null,
        machine: false,
        machineReason: null,
        userAgent: null,
        metadata: { inferred: true },
      },
      {
        ...owner(first.message, null),
        type: 'opened',
        at: at + 1,
        detail: '',
        machine: false,
        machineReason: '',
        userAgent: '',
        metadata: null,
      },
    ]);
    const rows = await events(second.message.id);
    expect(rows.map(pick)).toEqual([
      {
        ...owner(second.message, step),
        type: 'clicked',
        at: at + 5,
        detail: odd,
        machine: true,
        machineReason: 'scanner',
        userAgent: 'NULL',
        metadata: null,
      },
      {
        ...owner(second.message, step),
        type: 'opened',
        at: at + 86_400_000,
        detail: null,
        machine: false,
        machineReason: null,
        userAgent: CHROME,
        metadata: null,
      },
    ]);
  });

  it('writes every hit of a large batch intact: escaped text, and each message its own id', async () => {
    const first = await createCampaignWithMessage(app, { userId });
    const second = await createCampaignWithMessage(app, { userId });
    const ownerOf = (message: typeof first.message) => ({
      userId: message.userId,
      campaignId: message.campaignId,
      stepId: message.stepId,
      campaignContactId: message.campaignContactId,
      senderAccountId: message.senderAccountId,
    });
    const owners = [ownerOf(first.message), ownerOf(second.message)];
    // More rows than one encoding slice (200), text that COPY must escape, and owner objects reused
    // across hits as the token cache does.
    const detail = 'https://example.com/a\\b\tc\nd\re?x=ü€😀';
    const agent = `${CHROME}\t\\`;
    // Three hits to the millisecond, as under load (the writer formats each distinct time once).
    const timeOf = (i: number) => Date.UTC(2026, 10, 25, 9, 0, 0, Math.floor(i / 3));
    const expectedTimes: [number[], number[]] = [[], []];
    for (let i = 0; i < 450; i++) {
      const message = i % 2 === 0 ? first.message : second.message;
      expectedTimes[i % 2]!.push(timeOf(i));
      app.services.trackingBuffer.push({
        owner: owners[i % 2]!,
        outboxMessageId: message.id,
        type: 'clicked',
        occurredAt: new Date(timeOf(i)),
        detail,
        machine: false,
        machineReason: null,
        userAgent: agent,
        metadata: null,
      });
    }
    const result = await flush();
    expect(result).toMatchObject({ failed: false, remaining: 0 });
    for (const [index, { message }] of [first, second].entries()) {
      const rows = await events(message.id);
      expect(rows).toHaveLength(225);
      const times = rows.map((e) => e.occurredAt.getTime()).sort((a, b) => a - b);
      expect(times).toEqual(expectedTimes[index]);
      expect(new Set(rows.map((e) => `${e.campaignId} ${e.detail} ${e.userAgent}`))).toEqual(
        new Set([`${message.campaignId} ${detail} ${agent}`]),
      );
    }
  });

  it('documents the public routes in the OpenAPI description under public-tracking', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = response.json<{ paths: Record<string, Record<string, { tags?: string[] }>> }>().paths;
    for (const [path, method] of [
      ['/t/o/{file}', 'get'],
      ['/t/c/{token}/{index}', 'get'],
      ['/u/{token}', 'get'],
      ['/u/{token}', 'post'],
    ] as const) {
      expect(paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['public-tracking']);
    }
  });

  it('writes many hits in batches without losing one', async () => {
    const { message, token } = await createCampaignWithMessage(app, { userId });
    const hits = 2_500;
    for (let i = 0; i < hits; i++) {
      await app.inject({ method: 'GET', url: TRACKING_PATHS.open(token), headers: { 'user-agent': CHROME } });
    }
    await flush();
    const opened = await app.services.db
      .select({ id: emailEvents.id })
      .from(emailEvents)
      .where(and(eq(emailEvents.outboxMessageId, message.id), eq(emailEvents.type, 'opened')));
    expect(opened).toHaveLength(hits);
  });
});

describe('graceful shutdown', () => {
  it('writes buffered hits before the database closes', async () => {
    // The test owns the database handle, so it can count rows after the app has closed.
    const databaseUrl = inject('databaseUrl');
    const database = await openDatabase({
      url: databaseUrl ?? undefined,
      poolSize: 2,
      snapshot: pgliteSnapshot(),
    });
    try {
      const app = await buildApp({
        env: parseEnv({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DEV_MAILBOX_PORT: '0',
          AUTH_RATE_LIMIT_MAX: '10000',
          APP_URL: 'http://localhost:3000',
          WEB_DIST_DIR: '/nonexistent',
          ...QUIET_BUFFER,
        }),
        secrets: ephemeralSecrets(),
        database,
        runsWorkers: false,
      });
      const { user } = await createUser(app);
      const { message, token } = await createCampaignWithMessage(app, { userId: user.id });
      for (let i = 0; i < 5; i++) {
        await app.inject({
          method: 'GET',
          url: TRACKING_PATHS.open(token),
          headers: { 'user-agent': CHROME },
        });
      }
      await app.inject({
        method: 'GET',
        url: TRACKING_PATHS.click(token, 0),
        headers: { 'user-agent': CHROME },
      });
      expect(app.services.trackingBuffer.size).toBe(6);
      expect(await eventsOf(database.db, message.id)).toEqual([]);

      await app.close();

      const types = (await eventsOf(database.db, message.id)).map((e) => e.type);
      expect(types.filter((t) => t === 'opened')).toHaveLength(5);
      expect(types.filter((t) => t === 'clicked')).toHaveLength(1);
    } finally {
      await database.close();
    }
  });
});
