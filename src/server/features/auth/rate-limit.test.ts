import { MESSAGES } from '@shared/auth';
import { countUsersWithEmail, createUser, TEST_PASSWORD, uniqueEmail } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const LIMIT = 5;

describe('rate limits on the auth endpoints', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp({ AUTH_RATE_LIMIT_MAX: String(LIMIT) });
  });
  afterAll(() => app.close());

  // Each test speaks from its own address, so the buckets of one test never spill into another.
  const post = (remoteAddress: string, url: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url, payload, remoteAddress });

  it('refuses the 6th login attempt from one client with 429, while another client is still served', async () => {
    const payload = { email: uniqueEmail('guess'), password: 'Wrong-password-1' };
    for (let i = 0; i < LIMIT; i++) {
      expect((await post('10.0.1.1', '/api/login', payload)).statusCode).toBe(401);
    }
    const blocked = await post('10.0.1.1', '/api/login', payload);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ message: MESSAGES.tooManyAttempts });

    // Another address for the other client: this one is now locked for everyone (account-throttles.test.ts).
    const other = { ...payload, email: uniqueEmail('guess') };
    expect((await post('10.0.1.2', '/api/login', other)).statusCode).toBe(401);
  });

  it('does not let a client escape the limit by forging X-Forwarded-For when no proxy is trusted', async () => {
    const payload = { email: uniqueEmail('forged'), password: 'Wrong-password-1' };
    for (let i = 0; i < LIMIT; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload,
        remoteAddress: '10.0.9.9',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
      expect(response.statusCode).toBe(401);
    }
    const blocked = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload,
      remoteAddress: '10.0.9.9',
      headers: { 'x-forwarded-for': '203.0.113.200' },
    });
    expect(blocked.statusCode).toBe(429);
  });

  it('blocks a correct password too once the limit is reached', async () => {
    // The limited user is made from another address so the sign-up does not count against 10.0.2.1.
    const { email } = await createUser(app);
    for (let i = 0; i < LIMIT; i++) {
      await post('10.0.2.1', '/api/login', { email, password: 'Wrong-password-1' });
    }
    const response = await post('10.0.2.1', '/api/login', { email, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(429);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses the 6th sign-up from one client and creates no account', async () => {
    for (let i = 0; i < LIMIT; i++) {
      const response = await post('10.0.3.1', '/api/register', {
        email: uniqueEmail('burst'),
        password: TEST_PASSWORD,
        firstName: 'Femi',
      });
      expect(response.statusCode).toBe(201);
    }
    const email = uniqueEmail('sixth');
    const blocked = await post('10.0.3.1', '/api/register', {
      email,
      password: TEST_PASSWORD,
      firstName: 'Femi',
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ message: MESSAGES.tooManyAttempts });
    expect(await countUsersWithEmail(app, email)).toBe(0);
  });

  it('refuses the 6th password-reset request from one client', async () => {
    for (let i = 0; i < LIMIT; i++) {
      const response = await post('10.0.4.1', '/api/auth/forgot-password', { email: uniqueEmail('reset') });
      expect(response.statusCode).toBe(200);
    }
    const blocked = await post('10.0.4.1', '/api/auth/forgot-password', { email: uniqueEmail('reset') });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ message: MESSAGES.tooManyAttempts });
  });

  it('keeps serving the health check to a client that hit the limits', async () => {
    for (let i = 0; i <= LIMIT; i++) {
      await post('10.0.5.1', '/api/login', { email: uniqueEmail('x'), password: 'Wrong-password-1' });
    }
    const health = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.0.5.1' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok' });
  });
});

describe('cross-site requests and bursts on the default limits', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('refuses a login from another site with 403 and signs nobody in', async () => {
    const { email } = await createUser(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { origin: 'https://evil.example' },
      payload: { email, password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toEqual(expect.any(String));
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a sign-up from another site with 403 and creates no account', async () => {
    const email = uniqueEmail('csrf');
    const response = await app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { origin: 'https://evil.example' },
      payload: { email, password: TEST_PASSWORD, firstName: 'Eve' },
    });
    expect(response.statusCode).toBe(403);
    expect(await countUsersWithEmail(app, email)).toBe(0);
  });

  it("handles a login from the app's own origin normally", async () => {
    const { email, user } = await createUser(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { origin: 'http://localhost:3000' },
      payload: { email, password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(user.id);
  });

  it('refuses a request whose Referer names another site when there is no Origin', async () => {
    const { email } = await createUser(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { referer: 'https://evil.example/phish.html' },
      payload: { email, password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('answers a burst of 300 bad logins with 401 each and stays healthy', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: `nobody-${i}@burst.test`, password: 'Wrong-password-1' },
      });
      statuses.add(response.statusCode);
    }
    expect([...statuses]).toEqual([401]);
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    // Every failed sign-in hashes a password on purpose (no timing oracle); a loaded machine needs room.
  }, 120_000);
});

describe('behind a trusted load balancer (TRUST_PROXY=1)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp({ AUTH_RATE_LIMIT_MAX: String(LIMIT), TRUST_PROXY: '1' });
  });
  afterAll(() => app.close());

  it('counts each client address the balancer reports separately', async () => {
    // A fresh address per attempt, so only the per-IP limit is in play (not the per-account lock).
    const login = (client: string) =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: uniqueEmail('proxied'), password: 'Wrong-password-1' },
        remoteAddress: '10.0.0.1',
        headers: { 'x-forwarded-for': client },
      });
    for (let i = 0; i < LIMIT; i++) expect((await login('198.51.100.7')).statusCode).toBe(401);
    expect((await login('198.51.100.7')).statusCode).toBe(429);
    expect((await login('198.51.100.8')).statusCode).toBe(401);
  });
});
