import { verifications } from '@server/db/schema/index';
import { MESSAGES } from '@shared/auth';
import { createUser, login, TEST_PASSWORD, uniqueEmail } from '@tests/factories/users';
import { mailTo } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const RESET_LINK = 'http://localhost:3000/reset-password?token=';
const NEW_PASSWORD = 'Baobab-tree-77';

describe('password reset', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const forgot = (email: string) =>
    app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
  const reset = (token: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
  const signIn = (email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

  /**
   * Asks for a reset link and returns the answer, the email the user received and the token in it. On
   * PostgreSQL the dev-mailbox test may empty the shared mailbox at any moment, so a vanished mail is
   * asked for again (each request makes a fresh, independent token).
   */
  async function requestResetMail(email: string) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = new Set((await mailTo(app, email)).map((m) => m.id));
      const response = await forgot(email);
      expect(response.statusCode).toBe(200);
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        const mail = (await mailTo(app, email)).find((m) => !before.has(m.id));
        if (mail) {
          expect(mail.text).toContain(RESET_LINK);
          const match = (mail.text ?? '').match(/reset-password\?token=(\S+)/);
          expect(match).not.toBeNull();
          return { response, mail, token: decodeURIComponent(match![1]!) };
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`no reset mail for ${email}`);
  }

  const requestToken = async (email: string) => (await requestResetMail(email)).token;

  it('answers existing and unknown emails identically, and only the existing one gets a mail', async () => {
    const { email } = await createUser(app);
    const unknown = uniqueEmail('ghost');
    const missing = await forgot(unknown);
    const { response: known, mail } = await requestResetMail(email);
    expect(known.statusCode).toBe(200);
    expect(missing.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: MESSAGES.resetRequested });
    expect(missing.body).toBe(known.body);

    expect(mail.subject).toMatch(/reset/i);
    expect(mail.html).toContain(RESET_LINK);
    // The known user's mail, requested later, has arrived: one for the unknown email would have too.
    expect(await mailTo(app, unknown)).toEqual([]);
  });

  it('resets the password with the emailed token, ends every session, and accepts the token only once', async () => {
    const { email, cookie, user } = await createUser(app);
    const otherDevice = await login(app, email);
    const token = await requestToken(email);

    const done = await reset(token, NEW_PASSWORD);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: MESSAGES.resetDone });

    for (const stale of [cookie, otherDevice]) {
      const me = await as(app, stale)({ method: 'GET', url: '/api/user' });
      expect(me.statusCode).toBe(401);
    }
    expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(401);
    const fresh = await signIn(email, NEW_PASSWORD);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().id).toBe(user.id);

    const again = await reset(token, 'Another-baobab-88');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(MESSAGES.resetInvalid);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a made-up token', async () => {
    const response = await reset('made-up-token-0123456789', NEW_PASSWORD);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(MESSAGES.resetInvalid);
  });

  it('refuses an expired token and leaves the password unchanged', async () => {
    const { email, user } = await createUser(app);
    const token = await requestToken(email);
    const updated = await app.services.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(verifications.value, user.id))
      .returning({ id: verifications.id });
    expect(updated.length).toBeGreaterThan(0);

    const response = await reset(token, NEW_PASSWORD);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(MESSAGES.resetInvalid);
    expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(401);
  });

  it('refuses a common password and keeps the token usable', async () => {
    const { email } = await createUser(app);
    const token = await requestToken(email);
    const response = await reset(token, 'password123');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(MESSAGES.commonPassword);
    expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(200);

    expect((await reset(token, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('stops an older reset link from working once a newer one has been used', async () => {
    const { email } = await createUser(app);
    const older = await requestToken(email);
    const newer = await requestToken(email);
    expect(newer).not.toBe(older);

    expect((await reset(newer, NEW_PASSWORD)).statusCode).toBe(200);

    const replay = await reset(older, 'Attacker-baobab-99');
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(MESSAGES.resetInvalid);
    expect((await signIn(email, 'Attacker-baobab-99')).statusCode).toBe(401);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('stops every outstanding reset link from working after a signed-in password change', async () => {
    const { email, cookie } = await createUser(app);
    const first = await requestToken(email);
    const second = await requestToken(email);
    const change = await as(
      app,
      cookie,
    )({
      method: 'POST',
      url: '/api/user/password',
      payload: { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(change.statusCode).toBe(200);

    for (const token of [first, second]) {
      const replay = await reset(token, 'Attacker-baobab-99');
      expect(replay.statusCode).toBe(400);
      expect(replay.json().message).toBe(MESSAGES.resetInvalid);
    }
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('stores reset tokens hashed, so what the database holds does not work as a link', async () => {
    const { email, user } = await createUser(app);
    const token = await requestToken(email);
    const rows = await app.services.db
      .select({ identifier: verifications.identifier })
      .from(verifications)
      .where(eq(verifications.value, user.id));
    expect(rows).toHaveLength(1);
    const stored = rows[0]!.identifier;
    expect(stored).not.toContain(token);

    // Someone who reads the table (a backup, a replica) cannot reset with what they find there.
    for (const guess of [stored, stored.slice(stored.lastIndexOf(':') + 1)]) {
      const response = await reset(guess, 'Attacker-baobab-99');
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(MESSAGES.resetInvalid);
    }
    expect((await reset(token, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it("lets the owner in after a reset even while someone else's guesses keep the account locked", async () => {
    const { email } = await createUser(app);
    for (let i = 0; i < 5; i++) await signIn(email, 'Wrong-password-1');
    expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(429);

    const token = await requestToken(email);
    expect((await reset(token, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a short new password with the too-short message', async () => {
    const response = await reset('any-token-0123456789', 'abc');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(MESSAGES.passwordTooShort);
  });
});
