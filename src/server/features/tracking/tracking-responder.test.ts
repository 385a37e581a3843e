import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createTokenCache } from './token-cache';
import type { TrackedMessage } from './tracking.service';
import type { TrackingBuffer } from './tracking-buffer';
import { createTrackingResponder } from './tracking-responder';

/** The answers when the message lookup itself fails (the database is down): nothing is recorded. */
describe('tracking responder, when the lookup fails', () => {
  const pushed: unknown[] = [];
  const buffer = { push: (hit: unknown) => pushed.push(hit) } as unknown as TrackingBuffer;
  const responder = createTrackingResponder({
    cache: createTokenCache<TrackedMessage>({
      load: () => Promise.reject(new Error('connection refused')),
      maxEntries: 10,
      ttlMs: 60_000,
      negativeTtlMs: 1_000,
    }),
    buffer,
    log: pino({ level: 'silent' }),
  });
  const request = { method: 'GET', ip: '203.0.113.9', headers: { 'user-agent': 'Mozilla/5.0' } };
  const token = 'AbCdEfGhIjKlMnOpQrStUv';

  it('still answers the pixel, so no broken image shows in an inbox', async () => {
    const answer = await responder.open(`${token}.gif`, request);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/gif');
    expect(pushed).toEqual([]);
  });

  it('answers a click with the try-again page (503) and no redirect', async () => {
    const answer = await responder.click(token, '0', request);
    expect(answer.status).toBe(503);
    expect(answer.headers.location).toBeUndefined();
    expect(String(answer.body)).toContain('Please try again in a moment');
    expect(pushed).toEqual([]);
  });
});
