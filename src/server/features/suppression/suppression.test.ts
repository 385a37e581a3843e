import { randomUUID } from 'node:crypto';
import type { Suppression } from '@shared/suppression';
import { auditEntriesOf } from '@tests/factories/audit';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addSuppression,
  addSuppressions,
  filterSuppressed,
  hashEmail,
  isSuppressed,
} from './suppression.service';

describe('suppressions', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  const call = (user: TestUser) => as(app, user.cookie);
  const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;

  describe('service', () => {
    it('keeps unsubscribes, complaints and bounces when an account is deleted, for a new account with its email', async () => {
      const { db } = app.services;
      const owner = await createUser(app);
      const [unsubscribed, complained, bounced, manual] = ['u', 'c', 'b', 'm'].map(unique);
      await addSuppression({ db, userId: owner.user.id, email: unsubscribed!, reason: 'unsubscribed' });
      await addSuppression({ db, userId: owner.user.id, email: complained!, reason: 'complained' });
      await addSuppression({ db, userId: owner.user.id, email: bounced!, reason: 'bounced' });
      await addSuppression({ db, userId: owner.user.id, email: manual!, reason: 'manual' });

      const deleted = await call(owner)({
        method: 'DELETE',
        url: '/api/user',
        payload: { password: owner.password },
      });
      expect(deleted.statusCode).toBe(200);

      // Someone else signing up inherits nothing.
      const stranger = await createUser(app);
      expect(await isSuppressed({ db, userId: stranger.user.id, email: unsubscribed! })).toBe(false);

      // The same person signing up again (their address in another case) finds them as they were,
      // apart from their own manual entries.
      const again = await createUser(app, { email: owner.email.toUpperCase() });
      for (const email of [unsubscribed, complained, bounced]) {
        expect(await isSuppressed({ db, userId: again.user.id, email: email! }), email).toBe(true);
      }
      expect(await isSuppressed({ db, userId: again.user.id, email: manual! })).toBe(false);
      const listed = await call(again)({ method: 'GET', url: '/api/suppressions' });
      expect(listed.statusCode).toBe(200);
      const items = listed.json<{ items: Suppression[] }>().items;
      expect(items.map((item) => item.reason).sort()).toEqual(['bounced', 'complained', 'unsubscribed']);
      // Nothing of the addresses but their hashes was kept: sign-up does not prove who owns the email.
      expect(new Set(items.map((item) => item.emailHint))).toEqual(new Set(['(address hidden)']));
    });

    it('hashes the trimmed lower-cased address', () => {
      expect(hashEmail('  Ada@Example.COM ')).toBe(hashEmail('ada@example.com'));
      expect(hashEmail('ada@example.com')).toMatch(/^[0-9a-f]{64}$/);
    });

    it("finds a user's own entries and platform-wide ones, never another user's", async () => {
      const a = await createUser(app);
      const b = await createUser(app);
      const mine = unique('mine');
      const everyone = unique('everyone');
      const clean = unique('clean');
      const { db } = app.services;
      await addSuppression({
        db,
        userId: a.user.id,
        email: mine,
        reason: 'unsubscribed',
        source: 'campaign',
      });
      await addSuppression({ db, userId: null, email: everyone.toUpperCase(), reason: 'complained' });

      expect(await isSuppressed({ db, userId: a.user.id, email: ` ${mine.toUpperCase()} ` })).toBe(true);
      expect(await isSuppressed({ db, userId: b.user.id, email: mine })).toBe(false);
      expect(await isSuppressed({ db, userId: b.user.id, email: everyone })).toBe(true);
      expect(await isSuppressed({ db, userId: a.user.id, email: clean })).toBe(false);

      const found = await filterSuppressed({
        db,
        userId: a.user.id,
        emails: [mine, everyone, clean, mine.toUpperCase()],
      });
      expect([...found].sort()).toEqual([everyone, mine, mine.toUpperCase()].sort());
      expect([...(await filterSuppressed({ db, userId: b.user.id, emails: [mine, clean] }))]).toEqual([]);
    });

    it('adds in batches and is idempotent', async () => {
      const user = await createUser(app);
      const emails = Array.from({ length: 1_500 }, (_, i) => unique(`batch${i}`));
      const { db } = app.services;
      const first = await addSuppressions({
        db,
        userId: user.user.id,
        entries: emails.map((email) => ({ email })),
        source: 'import',
      });
      expect(first).toEqual({ added: 1_500, alreadySuppressed: 0 });
      const again = await addSuppressions({
        db,
        userId: user.user.id,
        entries: [...emails.slice(0, 10), emails[0]!.toUpperCase()].map((email) => ({
          email,
          reason: 'bounced' as const,
        })),
      });
      expect(again).toEqual({ added: 0, alreadySuppressed: 11 });
      expect((await filterSuppressed({ db, userId: user.user.id, emails })).size).toBe(1_500);
    });
  });

  describe('API', () => {
    it('lists the caller’s entries with a masked hint, newest first, by keyset', async () => {
      const user = await createUser(app);
      const other = await createUser(app);
      await call(other)({ method: 'POST', url: '/api/suppressions', payload: { emails: [unique('other')] } });
      const added = await call(user)({
        method: 'POST',
        url: '/api/suppressions',
        payload: {
          emails: ['Jide@Example.com', 'kemi@example.org', 'jide@example.com'],
          note: 'asked by phone',
        },
      });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json()).toEqual({ added: 2, alreadySuppressed: 1 });

      const page1 = await call(user)({ method: 'GET', url: '/api/suppressions?limit=1' });
      const body1 = page1.json<{ items: Suppression[]; nextCursor: string }>();
      expect(body1.items).toHaveLength(1);
      const page2 = await call(user)({
        method: 'GET',
        url: `/api/suppressions?limit=1&cursor=${body1.nextCursor}`,
      });
      const body2 = page2.json<{ items: Suppression[]; nextCursor: string | null }>();
      expect(body2.nextCursor).toBeNull();
      const items = [...body1.items, ...body2.items];
      expect(items.map((s) => s.emailHint).sort()).toEqual(['j***@example.com', 'k***@example.org']);
      expect(items[0]).toMatchObject({
        reason: 'manual',
        source: 'manual',
        note: 'asked by phone',
        removable: true,
      });
      expect(JSON.stringify(items)).not.toContain('jide@');

      const lookup = await call(user)({ method: 'GET', url: '/api/suppressions?email=JIDE@example.com' });
      expect(lookup.json().items.map((s: Suppression) => s.emailHint)).toEqual(['j***@example.com']);
    });

    it('checks addresses against the caller’s and the platform’s entries', async () => {
      const user = await createUser(app);
      const mine = unique('mine');
      const platform = unique('platform');
      await call(user)({ method: 'POST', url: '/api/suppressions', payload: { emails: [mine] } });
      await addSuppression({ db: app.services.db, userId: null, email: platform, reason: 'bounced' });
      const response = await call(user)({
        method: 'POST',
        url: '/api/suppressions/check',
        payload: { emails: [mine, platform, unique('fine')] },
      });
      expect(response.json().suppressed.sort()).toEqual([mine, platform].sort());
    });

    it('lifts a manual entry, keeps unsubscribes forever, and hides other users’ entries', async () => {
      const user = await createUser(app);
      const other = await createUser(app);
      await call(user)({ method: 'POST', url: '/api/suppressions', payload: { emails: [unique('manual')] } });
      await call(user)({
        method: 'POST',
        url: '/api/suppressions',
        payload: { emails: [unique('unsub')], reason: 'unsubscribed' },
      });
      const items = (await call(user)({ method: 'GET', url: '/api/suppressions' })).json()
        .items as Suppression[];
      const manual = items.find((s) => s.reason === 'manual')!;
      const unsub = items.find((s) => s.reason === 'unsubscribed')!;
      expect(unsub.removable).toBe(false);

      expect(
        (await call(other)({ method: 'DELETE', url: `/api/suppressions/${manual.id}` })).statusCode,
      ).toBe(404);
      const refused = await call(user)({ method: 'DELETE', url: `/api/suppressions/${unsub.id}` });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Unsubscribes and complaints are permanent and cannot be removed.');
      expect((await call(user)({ method: 'DELETE', url: `/api/suppressions/${manual.id}` })).statusCode).toBe(
        200,
      );
      expect((await call(user)({ method: 'GET', url: '/api/suppressions' })).json().items).toHaveLength(1);
    });

    it('refuses invalid addresses and answers 401 without a session', async () => {
      const user = await createUser(app);
      const bad = await call(user)({
        method: 'POST',
        url: '/api/suppressions',
        payload: { emails: ['nope'] },
      });
      expect(bad.statusCode).toBe(400);
      expect((await app.inject({ method: 'GET', url: '/api/suppressions' })).statusCode).toBe(401);
    });

    it('lets only super admins manage the platform-wide list, and audits it', async () => {
      const user = await createUser(app);
      const admin = await createUser(app, { role: 'super_admin' });
      expect((await call(user)({ method: 'GET', url: '/api/admin/suppressions' })).statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: '/api/admin/suppressions' })).statusCode).toBe(401);

      const email = unique('spamtrap');
      const added = await call(admin)({
        method: 'POST',
        url: '/api/admin/suppressions',
        payload: { emails: [email], reason: 'complained', note: 'spam trap' },
      });
      expect(added.json()).toEqual({ added: 1, alreadySuppressed: 0 });
      expect(await isSuppressed({ db: app.services.db, userId: user.user.id, email })).toBe(true);

      const listed = await call(admin)({ method: 'GET', url: `/api/admin/suppressions?email=${email}` });
      const entry = listed.json().items[0] as Suppression;
      expect(entry).toMatchObject({ reason: 'complained', note: 'spam trap', removable: true });
      // The platform list is not part of a user's own list.
      expect(
        (await call(user)({ method: 'GET', url: `/api/suppressions?email=${email}` })).json().items,
      ).toEqual([]);

      expect(
        (await call(admin)({ method: 'DELETE', url: `/api/admin/suppressions/${entry.id}` })).statusCode,
      ).toBe(200);
      expect(await isSuppressed({ db: app.services.db, userId: user.user.id, email })).toBe(false);

      const actions = (await auditEntriesOf(app, admin.user.id)).map((e) => e.action);
      expect(actions).toEqual(['suppressions.add', 'suppressions.remove']);
    });
  });
});
