import { verifications } from '@server/db/schema/index';
import { advanceClock, resetClock } from '@server/lib/clock';
import { type SignInFailure, signInFailureListSchema } from '@shared/admin';
import { MESSAGES } from '@shared/auth';
import { createUser, TEST_PASSWORD, type TestUser, uniqueEmail } from '@tests/factories/users';
import { mailTo, waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { pruneAccountThrottles } from './account-throttles.service';

const WRONG = 'Wrong-password-1';
const RATE_LIMITED = { message: MESSAGES.tooManyAttempts, code: 'rate_limited' };

describe('per-account throttles', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
  });
  afterAll(() => app.close());
  afterEach(() => resetClock());

  const forgot = (email: string, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress });
  const signIn = (email: string, password: string, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, remoteAddress });

  async function resetRows(userId: string) {
    return app.services.db
      .select({ id: verifications.id })
      .from(verifications)
      .where(eq(verifications.value, userId));
  }

  async function failuresFor(email: string): Promise<SignInFailure | undefined> {
    const response = await as(
      app,
      admin.cookie,
    )({ method: 'GET', url: '/api/admin/security/sign-in-failures?pageSize=100' });
    expect(response.statusCode).toBe(200);
    return signInFailureListSchema.parse(response.json()).entries.find((e) => e.email === email);
  }

  describe('password reset mails', () => {
    it('sends at most 3 reset mails an hour to one address, however fast they are asked for, and answers every request alike', async () => {
      const { email, user } = await createUser(app);
      const unknown = await forgot(uniqueEmail('ghost'));
      expect(unknown.statusCode).toBe(200);

      // The review's burst: many requests for one address at once, from many clients.
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, i) => forgot(email.toUpperCase(), `10.7.0.${i + 1}`)),
      );
      for (const response of burst) {
        expect(response.statusCode).toBe(200);
        expect(response.body).toBe(unknown.body);
      }
      expect(await resetRows(user.id)).toHaveLength(3);

      // Mail to another address, asked for later, has arrived: any fourth mail to the first would have too.
      const other = await createUser(app);
      expect((await forgot(other.email)).statusCode).toBe(200);
      await waitForMail(app, other.email);
      expect((await mailTo(app, email)).length).toBeLessThanOrEqual(3);

      // An hour later the address may have a link again.
      advanceClock(61 * 60_000);
      expect((await forgot(email)).body).toBe(unknown.body);
      expect(await resetRows(user.id)).toHaveLength(4);
    });

    it('throttles an unknown address the same way, with the same answer', async () => {
      const ghost = uniqueEmail('ghost');
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await forgot(ghost));
      expect(new Set(answers.map((r) => `${r.statusCode} ${r.body}`)).size).toBe(1);
      expect(answers[0]!.json()).toEqual({ message: MESSAGES.resetRequested });
    });
  });

  describe('failed sign-ins', () => {
    it('refuses further sign-ins to an account after 5 failures, from any address and even with the right password', async () => {
      const { email } = await createUser(app);
      for (let i = 0; i < 5; i++) {
        const response = await signIn(email, WRONG, `10.8.0.${i + 1}`);
        expect(response.statusCode).toBe(401);
        expect(response.json().message).toBe(MESSAGES.invalidCredentials);
      }
      const blocked = await signIn(email, TEST_PASSWORD, '10.8.1.1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual(RATE_LIMITED);
      expect(blocked.headers['set-cookie']).toBeUndefined();

      // Another account is not affected.
      const bystander = await createUser(app);
      expect((await signIn(bystander.email, TEST_PASSWORD, '10.8.0.1')).statusCode).toBe(200);
    });

    it('answers an unknown address exactly like a known one', async () => {
      const { email } = await createUser(app);
      const ghost = uniqueEmail('ghost');
      const known = [];
      const unknown = [];
      for (let i = 0; i < 7; i++) {
        known.push(await signIn(email, WRONG));
        unknown.push(await signIn(ghost, WRONG));
      }
      expect(known.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401, 429, 429]);
      expect(unknown.map((r) => r.statusCode)).toEqual(known.map((r) => r.statusCode));
      expect(unknown.map((r) => r.body)).toEqual(known.map((r) => r.body));
    });

    it('starts counting again after a successful sign-in', async () => {
      const { email } = await createUser(app);
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 4; i++) expect((await signIn(email, WRONG)).statusCode).toBe(401);
        expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(200);
      }
      expect(await failuresFor(email)).toBeUndefined();
    });

    it('lets the account in once the lock has passed, and locks for twice as long after the next failure', async () => {
      const { email } = await createUser(app);
      for (let i = 0; i < 5; i++) await signIn(email, WRONG);
      const first = await failuresFor(email);
      expect(first).toMatchObject({ email, accountExists: true, failures: 5, locked: true });
      const firstLock = Date.parse(first!.lockedUntil!) - Date.parse(first!.lastFailedAt);
      expect(firstLock).toBeGreaterThan(0);

      advanceClock(firstLock + 1_000);
      expect((await signIn(email, WRONG)).statusCode).toBe(401);
      const second = await failuresFor(email);
      expect(second).toMatchObject({ failures: 6, locked: true });
      expect(Date.parse(second!.lockedUntil!) - Date.parse(second!.lastFailedAt)).toBe(firstLock * 2);
      expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(429);

      advanceClock(firstLock * 2 + 1_000);
      expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(200);
      expect(await failuresFor(email)).toBeUndefined();
    });

    it('forgets an address a day after its last attempt, and keeps a recent one', async () => {
      const quiet = uniqueEmail('quiet');
      await signIn(quiet, WRONG);
      advanceClock(25 * 60 * 60_000);
      const recent = uniqueEmail('recent');
      await signIn(recent, WRONG);
      // Only the throttles are pruned here: on PostgreSQL other files share the tables.
      expect(await pruneAccountThrottles({ db: app.services.db })).toBeGreaterThan(0);
      expect(await failuresFor(quiet)).toBeUndefined();
      expect(await failuresFor(recent)).toMatchObject({ failures: 1 });
    });

    it.runIf(inject('databaseUrl'))('shares the lock between web processes on one database', async () => {
      const other = await createTestApp();
      try {
        const { email } = await createUser(app);
        for (let i = 0; i < 5; i++) await signIn(email, WRONG);
        const response = await other.inject({
          method: 'POST',
          url: '/api/login',
          payload: { email, password: TEST_PASSWORD },
        });
        expect(response.statusCode).toBe(429);
      } finally {
        await other.close();
      }
    });
  });

  describe('password checks of a signed-in session', () => {
    // A stolen session could otherwise guess the current password (and take the account over) limited
    // only per IP: these checks count in the same per-account streak as sign-ins.
    it('refuses a password change after 5 wrong current passwords, even with the right one', async () => {
      const { email, cookie } = await createUser(app);
      const change = (currentPassword: string, remoteAddress: string) =>
        as(
          app,
          cookie,
        )({
          method: 'POST',
          url: '/api/user/password',
          payload: { currentPassword, newPassword: 'Baobab-tree-77' },
          remoteAddress,
        });
      for (let i = 0; i < 5; i++) expect((await change(WRONG, `10.9.0.${i + 1}`)).statusCode).toBe(400);
      const blocked = await change(TEST_PASSWORD, '10.9.1.1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual(RATE_LIMITED);
      expect(await failuresFor(email)).toMatchObject({ failures: 5, locked: true });
    });

    it('refuses to delete the account after 5 wrong passwords, even with the right one', async () => {
      const { email, cookie, user } = await createUser(app);
      const remove = (password: string) =>
        as(app, cookie)({ method: 'DELETE', url: '/api/user', payload: { password } });
      for (let i = 0; i < 5; i++) expect((await remove(WRONG)).statusCode).toBe(400);
      expect((await remove(TEST_PASSWORD)).statusCode).toBe(429);
      expect((await as(app, cookie)({ method: 'GET', url: '/api/user' })).json().id).toBe(user.id);
      expect(await failuresFor(email)).toMatchObject({ locked: true });
    });
  });

  describe('the admin view', () => {
    it('lists failed sign-ins and lockouts to super admins only', async () => {
      const { email, cookie } = await createUser(app);
      const ghost = uniqueEmail('ghost');
      for (let i = 0; i < 5; i++) await signIn(email, WRONG);
      await signIn(ghost, WRONG);

      const url = '/api/admin/security/sign-in-failures';
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await as(app, cookie)({ method: 'GET', url })).statusCode).toBe(403);

      const locked = await failuresFor(email);
      expect(locked).toMatchObject({
        email,
        accountExists: true,
        failures: 5,
        locked: true,
        lastAttemptAt: expect.any(String),
        lockedUntil: expect.any(String),
      });
      expect(await failuresFor(ghost)).toMatchObject({
        accountExists: false,
        failures: 1,
        locked: false,
        lockedUntil: null,
      });
    });

    it('lets a super admin lift a lock, and records who did', async () => {
      const { email } = await createUser(app);
      for (let i = 0; i < 5; i++) await signIn(email, WRONG);
      expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(429);

      const clear = await as(
        app,
        admin.cookie,
      )({ method: 'POST', url: '/api/admin/security/sign-in-failures/clear', payload: { email } });
      expect(clear.statusCode).toBe(200);
      expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(200);

      const audit = await as(app, admin.cookie)({ method: 'GET', url: '/api/admin/audit-log?pageSize=100' });
      expect(audit.json().entries).toContainEqual(
        expect.objectContaining({
          action: 'security.sign_in_lock_cleared',
          actorId: admin.user.id,
          details: expect.objectContaining({ email }),
        }),
      );
    });
  });
});
