import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sessions } from '@server/db/schema/index';
import { hashSessionToken } from '@server/lib/hashed-session-tokens';
import { createUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The session cookie's token: `tambari.session_token=<token>.<signature>`, URL-encoded. */
function tokenOf(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  return value.slice(0, value.lastIndexOf('.'));
}

describe('session tokens at rest', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  /** A correctly signed cookie for any token, as someone holding the signing secret could make. */
  function cookieFor(token: string): string {
    const signature = createHmac('sha256', app.services.secrets.sessionSecret).update(token).digest('base64');
    return `tambari.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
  }

  const me = (cookie: string) => as(app, cookie)({ method: 'GET', url: '/api/user' });

  it('stores session tokens hashed, so what the database holds does not work as a cookie', async () => {
    const { cookie, user } = await createUser(app);
    expect(tokenOf(cookie).length).toBeGreaterThan(20);
    expect((await me(cookieFor(tokenOf(cookie)))).statusCode).toBe(200);

    const rows = await app.services.db
      .select({ token: sessions.token })
      .from(sessions)
      .where(eq(sessions.userId, user.id));
    expect(rows.length).toBeGreaterThan(0);
    for (const { token } of rows) {
      expect(token).not.toContain(tokenOf(cookie));
      // Someone who reads the table (a backup, a replica) cannot sign in with what they find there.
      const stolen = await me(cookieFor(token));
      expect(stolen.statusCode).toBe(401);
    }
  });

  it('keeps the same cookie working when the session is extended', async () => {
    const { cookie, user } = await createUser(app);
    // A session older than a day is extended (and its cookie re-sent) on the next request.
    await app.services.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + 20 * 24 * 60 * 60_000) })
      .where(eq(sessions.userId, user.id));
    const extended = await me(cookie);
    expect(extended.statusCode).toBe(200);
    // (createUser leaves two sessions, the sign-up's and the sign-in's; the cookie is the second's.)
    const rows = await app.services.db
      .select({ expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.userId, user.id));
    const latest = Math.max(...rows.map((r) => r.expiresAt.getTime()));
    expect(latest).toBeGreaterThan(Date.now() + 25 * 24 * 60 * 60_000);

    const resent = [extended.headers['set-cookie']]
      .flat()
      .find((c) => c?.startsWith('tambari.session_token='));
    if (resent) expect(tokenOf(resent.split(';')[0]!)).toBe(tokenOf(cookie));
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('keeps a session from before the change signed in once migration 0021 has hashed its token', async () => {
    const { cookie } = await createUser(app);
    const token = tokenOf(cookie);
    // The row as it was stored before: the plain token.
    const updated = await app.services.db
      .update(sessions)
      .set({ token })
      .where(eq(sessions.token, hashSessionToken(token)))
      .returning({ id: sessions.id });
    expect(updated).toHaveLength(1);
    expect((await me(cookie)).statusCode).toBe(401);

    const migration = readFileSync(
      new URL('../../../../drizzle/0021_session_tokens_hashed.sql', import.meta.url),
      'utf8',
    );
    await app.services.db.execute(sql.raw(migration));
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('signs out and revokes by the hashed token', async () => {
    const { cookie } = await createUser(app);
    expect((await as(app, cookie)({ method: 'POST', url: '/api/logout' })).statusCode).toBe(200);
    expect((await me(cookie)).statusCode).toBe(401);
  });
});
