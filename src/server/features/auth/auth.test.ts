import { sessions } from '@server/db/schema/index';
import { loginResponseSchema, MESSAGES, userSchema } from '@shared/auth';
import {
  countUsersWithEmail,
  createUser,
  login,
  TEST_PASSWORD,
  uniqueEmail,
  userRow,
} from '@tests/factories/users';
import { as, createTestApp, sessionCookieFrom } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCommonPassword } from './password-policy';

function setCookies(response: { headers: Record<string, unknown> }): string[] {
  const value = response.headers['set-cookie'];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

describe('auth API', () => {
  let app: FastifyInstance;
  let admin: Awaited<ReturnType<typeof createUser>>;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
  });
  afterAll(() => app.close());

  const register = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/register', payload });
  const signIn = (payload: Record<string, unknown>, cookie?: string) =>
    as(app, cookie)({ method: 'POST', url: '/api/login', payload });
  const currentUser = (cookie: string | undefined) => as(app, cookie)({ method: 'GET', url: '/api/user' });

  describe('POST /api/register', () => {
    it('creates a free user, signs them in with an HttpOnly Lax cookie and stores the email in lower case', async () => {
      const email = uniqueEmail('Mixed-Case').replace('@tambari.test', '@Tambari.TEST');
      const response = await register({
        email,
        password: TEST_PASSWORD,
        firstName: 'Amaka',
        lastName: 'Obi',
      });

      expect(response.statusCode).toBe(201);
      const user = userSchema.strict().parse(response.json());
      expect(user).toMatchObject({
        email: email.toLowerCase(),
        firstName: 'Amaka',
        lastName: 'Obi',
        role: 'user',
        subscriptionPlan: 'free',
        plan: 'free',
      });
      expect((await userRow(app, user.id))?.email).toBe(email.toLowerCase());

      const cookie = setCookies(response).find((c) => c.startsWith('tambari.session_token='));
      expect(cookie).toBeDefined();
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).not.toMatch(/;\s*Secure/i);

      const me = await currentUser(sessionCookieFrom(response));
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ id: user.id, email: email.toLowerCase(), firstName: 'Amaka' });
    });

    it('answers a second sign-up for the same email, in any case, with 409 login_required and writes nothing', async () => {
      const email = uniqueEmail('dup');
      const first = await register({ email, password: TEST_PASSWORD, firstName: 'Ngozi' });
      expect(first.statusCode).toBe(201);
      const userId = first.json().id as string;

      const second = await register({
        email: email.toUpperCase(),
        password: 'Another-pass-99',
        firstName: 'Imposter',
      });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ action: 'login_required', existingUser: { email } });
      expect(typeof second.json().message).toBe('string');
      expect(setCookies(second).some((c) => c.startsWith('tambari.session_token='))).toBe(false);
      expect(await countUsersWithEmail(app, email)).toBe(1);
      expect((await userRow(app, userId))?.firstName).toBe('Ngozi');
      // The original password still works and the attempted one does not.
      expect((await signIn({ email, password: TEST_PASSWORD })).statusCode).toBe(200);
      expect((await signIn({ email, password: 'Another-pass-99' })).statusCode).toBe(401);
    });

    it('never tells an anonymous caller the stored name of the account holding an email', async () => {
      const email = uniqueEmail('holder');
      const holder = await register({
        email,
        password: TEST_PASSWORD,
        firstName: 'Zainab',
        lastName: 'Bello',
      });
      expect(holder.statusCode).toBe(201);

      const probe = await register({ email, password: 'Another-pass-99', firstName: 'Visitor' });
      expect(probe.statusCode).toBe(409);
      // The welcome-back toast may greet the visitor with the name they typed; nothing stored comes back.
      expect(probe.json()).toEqual({
        message: expect.any(String),
        code: 'conflict',
        action: 'login_required',
        existingUser: { email, firstName: 'Visitor' },
      });
      expect(probe.body).not.toContain('Zainab');
      expect(probe.body).not.toContain('Bello');
    });

    it('creates one account when the same sign-up is sent twice at once', async () => {
      const email = uniqueEmail('race');
      const payload = { email, password: TEST_PASSWORD, firstName: 'Kemi' };
      const responses = await Promise.all([register(payload), register(payload), register(payload)]);
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409]);
      expect(await countUsersWithEmail(app, email)).toBe(1);
    });

    it.each([
      ['an invalid email', { email: 'not-an-email' }, 'email', MESSAGES.invalidEmail],
      ['a missing email', { email: undefined }, 'email', MESSAGES.invalidEmail],
      ['a short password', { password: 'abc12' }, 'password', MESSAGES.passwordTooShort],
      ['a missing first name', { firstName: undefined }, 'firstName', MESSAGES.firstNameRequired],
      ['a blank first name', { firstName: '   ' }, 'firstName', MESSAGES.firstNameRequired],
      ['an empty first name', { firstName: '' }, 'firstName', MESSAGES.firstNameRequired],
    ])('refuses %s with the exact message', async (_label, override, path, message) => {
      const email = uniqueEmail('invalid');
      const payload = { email, password: TEST_PASSWORD, firstName: 'Tunde', ...override };
      const response = await register(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
      expect(response.json().errors).toEqual(expect.arrayContaining([{ path, message }]));
      expect(await countUsersWithEmail(app, email)).toBe(0);
    });

    it('refuses a password longer than 128 characters', async () => {
      const email = uniqueEmail('long');
      const response = await register({ email, password: 'x'.repeat(129), firstName: 'Tunde' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(MESSAGES.passwordTooLong);
      expect(await countUsersWithEmail(app, email)).toBe(0);
    });

    it.each(['password123', 'qwerty123'])('refuses the common password %s', async (password) => {
      expect(isCommonPassword(password)).toBe(true);
      const email = uniqueEmail('common');
      const response = await register({ email, password, firstName: 'Tunde' });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(MESSAGES.commonPassword);
      expect(await countUsersWithEmail(app, email)).toBe(0);
    });

    it('refuses unknown fields such as a self-assigned role', async () => {
      const email = uniqueEmail('role');
      const response = await register({
        email,
        password: TEST_PASSWORD,
        firstName: 'Tunde',
        role: 'super_admin',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: 'Unknown field: role',
        errors: [{ path: 'role', message: 'Unknown field: role' }],
      });
      expect(await countUsersWithEmail(app, email)).toBe(0);
    });

    it('stores SQL and HTML in names verbatim and returns them verbatim', async () => {
      const email = uniqueEmail('inject');
      const firstName = `Robert'); DROP TABLE "user";--`;
      const lastName = '<script>alert("x")</script> & <b>bold</b>';
      const response = await register({ email, password: TEST_PASSWORD, firstName, lastName });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ firstName, lastName });

      const me = await currentUser(sessionCookieFrom(response));
      expect(me.json()).toMatchObject({ firstName, lastName });
      // The user table is still there and other accounts still work.
      expect((await currentUser(admin.cookie)).statusCode).toBe(200);
      expect(await countUsersWithEmail(app, email)).toBe(1);
    });
  });

  describe('POST /api/login', () => {
    it('returns the user and sets a session cookie', async () => {
      const { email, user } = await createUser(app, { firstName: 'Bisi' });
      const response = await signIn({ email: email.toUpperCase(), password: TEST_PASSWORD });
      expect(response.statusCode).toBe(200);
      const body = loginResponseSchema.parse(response.json());
      expect(body).toMatchObject({ id: user.id, email, firstName: 'Bisi' });
      expect(body.subscriptionInfo).toBeUndefined();
      const me = await currentUser(sessionCookieFrom(response));
      expect(me.json().id).toBe(user.id);
    });

    it('answers a wrong password and an unknown email with the same 401 body', async () => {
      const { email } = await createUser(app);
      const wrongPassword = await signIn({ email, password: 'Wrong-password-1' });
      const unknownEmail = await signIn({ email: uniqueEmail('nobody'), password: 'Wrong-password-1' });
      expect(wrongPassword.statusCode).toBe(401);
      expect(unknownEmail.statusCode).toBe(401);
      expect(wrongPassword.json().message).toBe(MESSAGES.invalidCredentials);
      expect(unknownEmail.body).toBe(wrongPassword.body);
      expect(setCookies(wrongPassword).filter((c) => /^tambari\.session_token=[^;]+/.test(c))).toEqual([]);
    });

    it('issues a new session token at every sign-in and ends the session the browser carried before', async () => {
      const { email, user } = await createUser(app);
      const first = await login(app, email);
      const second = await login(app, email);
      expect(second).not.toBe(first);

      const third = await signIn({ email, password: TEST_PASSWORD }, first);
      expect(third.statusCode).toBe(200);
      const thirdCookie = sessionCookieFrom(third);
      expect(thirdCookie).not.toBe(first);
      expect(thirdCookie).not.toBe(second);

      const stale = await currentUser(first);
      expect(stale.statusCode).toBe(401);
      expect((await currentUser(thirdCookie)).json().id).toBe(user.id);
      // Only the carried session ends; another device stays signed in.
      expect((await currentUser(second)).statusCode).toBe(200);
    });

    it.each([
      ['an invalid email', { email: 'ada@', password: TEST_PASSWORD }, MESSAGES.invalidEmail],
      ['a short password', { email: 'ada@tambari.test', password: '12345' }, MESSAGES.passwordTooShort],
      ['a missing password', { email: 'ada@tambari.test' }, MESSAGES.passwordTooShort],
    ])('refuses %s with the exact message', async (_label, payload, message) => {
      const response = await signIn(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    });

    it('leaves the current session alone when a sign-in attempt fails', async () => {
      const { email, cookie, user } = await createUser(app);
      const failed = await signIn({ email, password: 'Wrong-password-1' }, cookie);
      expect(failed.statusCode).toBe(401);
      expect((await currentUser(cookie)).json().id).toBe(user.id);
    });

    it.each(['incomplete', 'past_due', 'cancelled'])(
      'tells a starter user with status %s that payment is needed',
      async (status) => {
        const { email } = await createUser(app, { plan: 'starter', status });
        const response = await signIn({ email, password: TEST_PASSWORD });
        expect(response.statusCode).toBe(200);
        const body = loginResponseSchema.parse(response.json());
        expect(body.subscriptionInfo).toEqual({
          needsPayment: true,
          subscriptionPlan: 'starter',
          message: expect.stringMatching(/\S/),
        });
      },
    );

    it.each([
      ['a free user', { plan: 'free' as const }],
      [
        'an active paid user',
        { plan: 'starter' as const, status: 'active', periodEnd: new Date(Date.now() + 864e5 * 20) },
      ],
      [
        'a super admin on an unpaid plan',
        { role: 'super_admin' as const, plan: 'starter' as const, status: 'incomplete' },
      ],
      [
        'a data entry officer on an unpaid plan',
        { role: 'data_entry' as const, plan: 'starter' as const, status: 'past_due' },
      ],
    ])('sends no subscriptionInfo for %s', async (_label, options) => {
      const { email } = await createUser(app, options);
      const response = await signIn({ email, password: TEST_PASSWORD });
      expect(response.statusCode).toBe(200);
      expect(response.json()).not.toHaveProperty('subscriptionInfo');
    });

    it('refuses a suspended user with 403 and the suspension message', async () => {
      const { email, user } = await createUser(app);
      const suspend = await as(
        app,
        admin.cookie,
      )({
        method: 'POST',
        url: `/api/admin/users/${user.id}/suspend`,
        payload: { reason: 'Spam complaints' },
      });
      expect(suspend.statusCode).toBe(200);
      const response = await signIn({ email, password: TEST_PASSWORD });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(MESSAGES.suspended);
      const rows = await app.services.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows).toHaveLength(0);
    });
  });

  describe('GET /api/user', () => {
    it('answers 401 Not authenticated when signed out', async () => {
      const response = await currentUser(undefined);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: 'Not authenticated' });
    });

    it('answers 401 Not authenticated for a forged cookie', async () => {
      const response = await currentUser('tambari.session_token=forged.value');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: 'Not authenticated' });
    });
  });

  describe('POST /api/logout', () => {
    it('ends the session so its cookie no longer works', async () => {
      const { cookie } = await createUser(app);
      const response = await as(app, cookie)({ method: 'POST', url: '/api/logout' });
      expect(response.statusCode).toBe(200);
      const cleared = setCookies(response).find((c) => c.startsWith('tambari.session_token='));
      expect(cleared).toMatch(/Max-Age=0/i);
      expect((await currentUser(cookie)).statusCode).toBe(401);
    });

    it('ends a session the process was keeping, for the very next request', async () => {
      const { cookie } = await createUser(app);
      expect((await currentUser(cookie)).statusCode).toBe(200);
      expect((await currentUser(cookie)).statusCode).toBe(200);
      expect((await as(app, cookie)({ method: 'POST', url: '/api/logout' })).statusCode).toBe(200);
      expect((await currentUser(cookie)).statusCode).toBe(401);
    });

    it('answers 200 without a session', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/logout' });
      expect(response.statusCode).toBe(200);
      expect(typeof response.json().message).toBe('string');
    });
  });
});
