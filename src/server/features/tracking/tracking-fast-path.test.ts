import type { AddressInfo } from 'node:net';
import { emailEvents } from '@server/db/schema/index';
import { TRACKING_PATHS } from '@shared/sending';
import { createCampaignWithMessage, newTestToken } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIXEL_GIF } from './tracking-pages';

/*
 * The pixel and click over a real socket, where most hits are answered before Fastify (inject() in
 * tracking.test.ts goes through the routes only). Each request here is also checked against the routes'
 * answer, and a Fastify hook counts which requests reached Fastify at all.
 */

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** Headers that differ per response whatever served it. */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function comparableHeaders(headers: Record<string, string | string[] | number | undefined>) {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !PER_RESPONSE.has(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), String(value)])
      .sort(([a], [b]) => a!.localeCompare(b!)),
  );
}

describe('tracking fast path (real HTTP)', () => {
  let app: FastifyInstance;
  let base: string;
  let userId: string;
  /** Paths of the requests that reached Fastify. */
  const reachedFastify: string[] = [];

  beforeAll(async () => {
    // One trusted proxy hop, so X-Forwarded-For is believed, as behind a load balancer.
    app = await createTestApp({ TRACKING_FLUSH_MS: '60000', TRUST_PROXY: '1' });
    app.addHook('onRequest', async (request) => {
      reachedFastify.push(request.url);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    userId = (await createUser(app)).user.id;
  });
  afterAll(() => app.close());

  async function get(path: string, init: RequestInit = {}) {
    const response = await fetch(`${base}${path}`, {
      redirect: 'manual',
      ...init,
      headers: { 'user-agent': CHROME, ...(init.headers ?? {}) },
    });
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: Object.fromEntries(response.headers), body };
  }

  async function events(messageId: string) {
    await app.services.trackingBuffer.flush();
    return app.services.db
      .select()
      .from(emailEvents)
      .where(eq(emailEvents.outboxMessageId, messageId))
      .orderBy(emailEvents.id);
  }

  /** The routes' answer to the same request, through inject() (which never sees the fast path). */
  async function routeAnswer(path: string) {
    const response = await app.inject({ method: 'GET', url: path, headers: { 'user-agent': CHROME } });
    return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
  }

  it('answers a message’s pixel and clicks before Fastify once its message is known, recording each hit', async () => {
    const links = ['https://kanofoods.example.com/offer?ref=mail', 'https://kanofoods.example.com/about'];
    const { message, token } = await createCampaignWithMessage(app, { userId, links });
    reachedFastify.length = 0;

    const first = await get(TRACKING_PATHS.open(token));
    const second = await get(TRACKING_PATHS.open(token));
    const click = await get(TRACKING_PATHS.click(token, 1));
    const again = await get(`${TRACKING_PATHS.click(token, 0)}?utm=ignored`);

    for (const pixel of [first, second]) {
      expect(pixel.status).toBe(200);
      expect(pixel.headers['content-type']).toBe('image/gif');
      expect(pixel.headers['cache-control']).toBe('no-store, no-cache, must-revalidate, private');
      expect(pixel.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(pixel.headers['x-content-type-options']).toBe('nosniff');
      expect(pixel.headers.pragma).toBeUndefined();
      // Byte for byte: the fast path sends the GIF as a latin1 string with its headers.
      expect(pixel.body.equals(PIXEL_GIF)).toBe(true);
    }
    expect(click.status).toBe(302);
    expect(click.headers.location).toBe(links[1]);
    // The token must not reach the destination in a Referer.
    expect(click.headers['referrer-policy']).toBe('no-referrer');
    expect(click.headers['cache-control']).toBe('no-store, no-cache, must-revalidate, private');
    expect(again.headers.location).toBe(links[0]);
    expect(reachedFastify).toEqual([]);

    const recorded = await events(message.id);
    expect(recorded.map((e) => [e.type, e.detail, e.machine])).toEqual([
      ['opened', null, false],
      ['opened', null, false],
      ['clicked', links[1], false],
      ['clicked', links[0], false],
    ]);
    expect(recorded[0]).toMatchObject({ userAgent: CHROME, userId, outboxMessageId: message.id });
  });

  it('answers exactly what the Fastify routes answer', async () => {
    const { token } = await createCampaignWithMessage(app, { userId });
    for (const path of [
      TRACKING_PATHS.open(token),
      TRACKING_PATHS.click(token, 0),
      TRACKING_PATHS.click(token, 7),
      TRACKING_PATHS.click(newTestToken(), 0),
      TRACKING_PATHS.open(newTestToken()),
      '/t/c/short/0',
      `/t/c/${token}/99999`,
    ]) {
      const fast = await get(path);
      const routed = await routeAnswer(path);
      expect(fast.status, path).toBe(routed.status);
      expect(comparableHeaders(fast.headers), path).toEqual(comparableHeaders(routed.headers));
      expect(fast.body.equals(routed.body), path).toBe(true);
    }
  });

  it('shows the link page for an unknown token or link number, recording nothing', async () => {
    const { message, token } = await createCampaignWithMessage(app, { userId });
    for (const path of [TRACKING_PATHS.click(newTestToken(), 0), TRACKING_PATHS.click(token, 5)]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toContain("default-src 'none'");
      expect(response.body.toString()).toContain('This link is no longer valid');
    }
    expect(await events(message.id)).toEqual([]);
  });

  it('takes the client address through the trusted proxy (Apple Mail Privacy Protection) and flags HEAD', async () => {
    const apple = await createCampaignWithMessage(app, { userId });
    await get(TRACKING_PATHS.open(apple.token), {
      headers: { 'user-agent': 'Mozilla/5.0', 'x-forwarded-for': '17.58.101.4' },
    });
    const prefetched = await createCampaignWithMessage(app, { userId });
    const head = await get(TRACKING_PATHS.open(prefetched.token), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);

    expect((await events(apple.message.id)).map((e) => e.machineReason)).toEqual(['apple_mpp']);
    expect((await events(prefetched.message.id)).map((e) => e.machineReason)).toEqual(['prefetch']);
  });

  it('leaves encoded, oddly shaped and non-GET requests to Fastify', async () => {
    const { message, token } = await createCampaignWithMessage(app, { userId });
    reachedFastify.length = 0;
    const encoded = await get(
      `/t/o/${token.slice(0, 4)}%${token.charCodeAt(4).toString(16)}${token.slice(5)}.gif`,
    );
    expect(encoded.status).toBe(200);
    expect((await get(`/t/c/${token}/0/extra`)).status).toBe(404);
    expect((await get('/t/o/')).headers['content-type']).toBe('image/gif');
    const post = await fetch(`${base}${TRACKING_PATHS.open(token)}`, {
      method: 'POST',
      headers: { origin: base },
    });
    expect(post.status).toBe(404);
    expect(reachedFastify).toHaveLength(4);
    // The decoded token is the message's: Fastify's route recorded the open.
    expect((await events(message.id)).map((e) => e.type)).toEqual(['opened']);
  });
});
