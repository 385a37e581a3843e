import { MESSAGES, type SessionInfo } from '@shared/auth';
import { countUsersWithEmail, createUser, login, TEST_PASSWORD, userRow } from '@tests/factories/users';
import { as, createTestApp, sessionCookieFrom } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const NEW_PASSWORD = 'Harmattan-wind-42';

describe('account API', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const me = (cookie: string) => as(app, cookie)({ method: 'GET', url: '/api/user' });
  const signIn = (email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  const listSessions = async (cookie: string) => {
    const response = await as(app, cookie)({ method: 'GET', url: '/api/user/sessions' });
    expect(response.statusCode).toBe(200);
    return response.json<SessionInfo[]>();
  };

  describe('PATCH /api/user', () => {
    it('updates the first and last name', async () => {
      const { cookie, user } = await createUser(app, { firstName: 'Chidi' });
      const response = await as(
        app,
        cookie,
      )({
        method: 'PATCH',
        url: '/api/user',
        payload: { firstName: '  Adaeze ', lastName: 'Okafor' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: user.id, firstName: 'Adaeze', lastName: 'Okafor' });
      expect((await me(cookie)).json()).toMatchObject({ firstName: 'Adaeze', lastName: 'Okafor' });

      const cleared = await as(
        app,
        cookie,
      )({ method: 'PATCH', url: '/api/user', payload: { firstName: 'Adaeze' } });
      expect(cleared.json()).toMatchObject({ firstName: 'Adaeze', lastName: null });
    });

    it.each([
      ['blank', { firstName: '  ' }],
      ['missing', { lastName: 'Okafor' }],
    ])('refuses a %s first name with "First name is required"', async (_label, payload) => {
      const { cookie } = await createUser(app, { firstName: 'Chidi' });
      const response = await as(app, cookie)({ method: 'PATCH', url: '/api/user', payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(MESSAGES.firstNameRequired);
      expect((await me(cookie)).json().firstName).toBe('Chidi');
    });

    it('does not let a user change their own role or plan', async () => {
      const { cookie, user } = await createUser(app);
      const response = await as(
        app,
        cookie,
      )({
        method: 'PATCH',
        url: '/api/user',
        payload: { firstName: 'Chidi', role: 'super_admin', subscriptionPlan: 'enterprise' },
      });
      expect(response.statusCode).toBe(400);
      expect(await userRow(app, user.id)).toMatchObject({ role: 'user', subscriptionPlan: 'free' });
    });
  });

  describe('POST /api/user/password', () => {
    it('refuses a wrong current password and keeps the old one', async () => {
      const { cookie, email } = await createUser(app);
      const response = await as(
        app,
        cookie,
      )({
        method: 'POST',
        url: '/api/user/password',
        payload: { currentPassword: 'Not-my-password-1', newPassword: NEW_PASSWORD },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual(expect.any(String));
      expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(200);
      expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(401);
    });

    it('refuses a common new password', async () => {
      const { cookie } = await createUser(app);
      const response = await as(
        app,
        cookie,
      )({
        method: 'POST',
        url: '/api/user/password',
        payload: { currentPassword: TEST_PASSWORD, newPassword: 'qwerty123' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(MESSAGES.commonPassword);
    });

    it('changes the password, ends the other sessions and keeps this device signed in', async () => {
      const { cookie, email, user } = await createUser(app);
      const otherDevice = await login(app, email);
      const response = await as(
        app,
        cookie,
      )({
        method: 'POST',
        url: '/api/user/password',
        payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      const current = sessionCookieFrom(response);

      expect((await me(current)).json().id).toBe(user.id);
      expect((await me(otherDevice)).statusCode).toBe(401);
      expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(401);
      expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('answers 401 when signed out', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/user/password',
        payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('sessions', () => {
    it('lists my sessions with the current one flagged', async () => {
      const { cookie, email } = await createUser(app);
      const second = await login(app, email);
      const list = await listSessions(cookie);
      expect(list.filter((s) => s.current)).toHaveLength(1);

      const fromSecond = await listSessions(second);
      const currentHere = list.find((s) => s.current)!;
      const currentThere = fromSecond.find((s) => s.current)!;
      expect(currentThere.id).not.toBe(currentHere.id);
      // Both devices see the same sessions, each of them including the other device's.
      expect(list.map((s) => s.id).sort()).toEqual(fromSecond.map((s) => s.id).sort());
      expect(list.map((s) => s.id)).toContain(currentThere.id);
      // Session tokens are never exposed; ids are not cookies.
      expect(JSON.stringify(list)).not.toContain(cookie.split('=')[1]!.split('.')[0]!);
    });

    it('revokes one of my other sessions, whose cookie then stops working', async () => {
      const { cookie, email } = await createUser(app);
      const second = await login(app, email);
      const other = (await listSessions(second)).find((s) => s.current)!;

      const response = await as(app, cookie)({ method: 'DELETE', url: `/api/user/sessions/${other.id}` });
      expect(response.statusCode).toBe(200);
      expect((await me(second)).statusCode).toBe(401);
      expect((await me(cookie)).statusCode).toBe(200);
      expect((await listSessions(cookie)).map((s) => s.id)).not.toContain(other.id);
    });

    it("answers 404 for another user's session and leaves it alone", async () => {
      const mine = await createUser(app);
      const theirs = await createUser(app);
      const theirSession = (await listSessions(theirs.cookie)).find((s) => s.current)!;

      const response = await as(
        app,
        mine.cookie,
      )({ method: 'DELETE', url: `/api/user/sessions/${theirSession.id}` });
      expect(response.statusCode).toBe(404);
      expect((await me(theirs.cookie)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown session id', async () => {
      const { cookie } = await createUser(app);
      const response = await as(app, cookie)({ method: 'DELETE', url: '/api/user/sessions/no-such-session' });
      expect(response.statusCode).toBe(404);
    });

    it('revokes every other session but the current one', async () => {
      const { cookie, email } = await createUser(app);
      const second = await login(app, email);
      const third = await login(app, email);

      const before = await listSessions(cookie);
      expect(before.length).toBeGreaterThanOrEqual(3);

      const response = await as(app, cookie)({ method: 'POST', url: '/api/user/sessions/revoke-others' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ revoked: before.length - 1 });
      expect((await me(second)).statusCode).toBe(401);
      expect((await me(third)).statusCode).toBe(401);
      expect((await me(cookie)).statusCode).toBe(200);
      const left = await listSessions(cookie);
      expect(left).toHaveLength(1);
      expect(left[0]!.current).toBe(true);
    });

    it('answers 401 when signed out', async () => {
      expect((await app.inject({ method: 'GET', url: '/api/user/sessions' })).statusCode).toBe(401);
      expect((await app.inject({ method: 'DELETE', url: '/api/user/sessions/abc' })).statusCode).toBe(401);
      expect((await app.inject({ method: 'POST', url: '/api/user/sessions/revoke-others' })).statusCode).toBe(
        401,
      );
    });
  });

  describe('DELETE /api/user', () => {
    it('keeps the account when the password is wrong', async () => {
      const { cookie, email } = await createUser(app);
      const response = await as(
        app,
        cookie,
      )({
        method: 'DELETE',
        url: '/api/user',
        payload: { password: 'Not-my-password-1' },
      });
      expect(response.statusCode).toBe(400);
      expect((await me(cookie)).statusCode).toBe(200);
      expect(await countUsersWithEmail(app, email)).toBe(1);
    });

    it('deletes the account with the right password and signs out everywhere', async () => {
      const { cookie, email } = await createUser(app);
      const otherDevice = await login(app, email);
      const response = await as(
        app,
        cookie,
      )({ method: 'DELETE', url: '/api/user', payload: { password: TEST_PASSWORD } });
      expect(response.statusCode).toBe(200);
      // The browser forgets the cookie under either name (production's carries the __Secure- prefix).
      const cleared = [response.headers['set-cookie']].flat().join('\n');
      expect(cleared).toMatch(/^tambari\.session_token=;.*Expires=Thu, 01 Jan 1970/m);
      expect(cleared).toMatch(/^__Secure-tambari\.session_token=;.*Secure/m);

      expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(401);
      expect((await me(cookie)).statusCode).toBe(401);
      expect((await me(otherDevice)).statusCode).toBe(401);
      expect(await countUsersWithEmail(app, email)).toBe(0);
    });

    it('answers 401 when signed out', async () => {
      const response = await app.inject({
        method: 'DELETE',
        url: '/api/user',
        payload: { password: TEST_PASSWORD },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  it('answers 401 to a signed-out profile update', async () => {
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/user',
      payload: { firstName: 'Nobody' },
    });
    expect(response.statusCode).toBe(401);
  });
});
