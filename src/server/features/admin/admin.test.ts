import { randomUUID } from 'node:crypto';
import {
  type AdminOverview,
  type AdminUser,
  type AuditEntry,
  adminOverviewSchema,
  adminUserSchema,
} from '@shared/admin';
import { MESSAGES } from '@shared/auth';
import { createUser, login, TEST_PASSWORD, type TestUser, userRow } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('admin API', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let plainUser: TestUser;
  let dataEntry: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
    plainUser = await createUser(app);
    dataEntry = await createUser(app, { role: 'data_entry' });
  });
  afterAll(() => app.close());

  const asAdmin = () => as(app, admin.cookie);
  const me = (cookie: string) => as(app, cookie)({ method: 'GET', url: '/api/user' });
  const signIn = (email: string) =>
    app.inject({ method: 'POST', url: '/api/login', payload: { email, password: TEST_PASSWORD } });

  async function auditEntries(): Promise<AuditEntry[]> {
    const response = await asAdmin()({ method: 'GET', url: '/api/admin/audit-log?pageSize=100' });
    expect(response.statusCode).toBe(200);
    return response.json<{ entries: AuditEntry[] }>().entries;
  }

  async function findAudit(action: string, targetId: string): Promise<AuditEntry | undefined> {
    return (await auditEntries()).find((e) => e.action === action && e.targetId === targetId);
  }

  async function adminUser(id: string): Promise<AdminUser> {
    const response = await asAdmin()({ method: 'GET', url: `/api/admin/users/${id}` });
    expect(response.statusCode).toBe(200);
    return adminUserSchema.parse(response.json());
  }

  describe('access', () => {
    const endpoints = (targetId: string) =>
      [
        { method: 'GET', url: '/api/admin/overview' },
        { method: 'GET', url: '/api/admin/users' },
        { method: 'GET', url: `/api/admin/users/${targetId}` },
        { method: 'PATCH', url: `/api/admin/users/${targetId}`, payload: { role: 'super_admin' } },
        { method: 'POST', url: `/api/admin/users/${targetId}/suspend`, payload: { reason: 'Because' } },
        { method: 'POST', url: `/api/admin/users/${targetId}/restore` },
        { method: 'POST', url: `/api/admin/users/${targetId}/end-sessions` },
        { method: 'GET', url: '/api/admin/audit-log' },
        { method: 'GET', url: '/api/admin/security/sign-in-failures' },
        {
          method: 'POST',
          url: '/api/admin/security/sign-in-failures/clear',
          payload: { email: 'anyone@tambari.test' },
        },
        { method: 'GET', url: '/api/admin/dev-mailbox' },
        { method: 'GET', url: `/api/admin/dev-mailbox/${randomUUID()}` },
        { method: 'DELETE', url: '/api/admin/dev-mailbox' },
      ] as const;

    it('answers every admin endpoint with 401 when signed out', async () => {
      const target = await createUser(app);
      for (const request of endpoints(target.user.id)) {
        const response = await app.inject(request);
        expect(response.statusCode, `${request.method} ${request.url}`).toBe(401);
      }
      expect(await userRow(app, target.user.id)).toMatchObject({ role: 'user', banned: false });
      expect((await me(target.cookie)).statusCode).toBe(200);
    });

    it.each(['user', 'data_entry'] as const)(
      'answers every admin endpoint with 403 for a %s',
      async (role) => {
        const caller = role === 'user' ? plainUser : dataEntry;
        const target = await createUser(app);
        for (const request of endpoints(target.user.id)) {
          const response = await as(app, caller.cookie)(request);
          expect(response.statusCode, `${request.method} ${request.url}`).toBe(403);
        }
        // Nothing was done: the target keeps its role, is not suspended and is still signed in.
        expect(await userRow(app, target.user.id)).toMatchObject({ role: 'user', banned: false });
        expect((await me(target.cookie)).statusCode).toBe(200);
        // And the caller could not promote themselves either.
        const self = await as(
          app,
          caller.cookie,
        )({
          method: 'PATCH',
          url: `/api/admin/users/${caller.user.id}`,
          payload: { role: 'super_admin' },
        });
        expect(self.statusCode).toBe(403);
        expect((await userRow(app, caller.user.id))?.role).toBe(role);
      },
    );
  });

  describe('GET /api/admin/overview', () => {
    it('counts users by role and plan and lists 30 days of sign-ups ending today', async () => {
      const mine = [
        await createUser(app, { plan: 'enterprise' }),
        await createUser(app, { role: 'data_entry' }),
      ];
      const response = await asAdmin()({ method: 'GET', url: '/api/admin/overview' });
      expect(response.statusCode).toBe(200);
      const overview: AdminOverview = adminOverviewSchema.parse(response.json());

      // This file alone has made the admin, the plain user, the data entry officer and these two today.
      const createdHere = 3 + mine.length;
      expect(overview.totalUsers).toBeGreaterThanOrEqual(createdHere);
      expect(overview.usersByRole.super_admin).toBeGreaterThanOrEqual(1);
      expect(overview.usersByRole.data_entry).toBeGreaterThanOrEqual(2);
      expect(overview.usersByRole.user).toBeGreaterThanOrEqual(2);
      expect(overview.usersByPlan.enterprise).toBeGreaterThanOrEqual(1);
      expect(overview.activeSessions).toBeGreaterThanOrEqual(createdHere);
      expect(overview.suspendedUsers).toBeGreaterThanOrEqual(0);
      expect(Object.values(overview.usersByRole).reduce((a, b) => a + b, 0)).toBe(overview.totalUsers);

      expect(overview.signupsPerDay).toHaveLength(30);
      const today = new Date().toISOString().slice(0, 10);
      expect(overview.signupsPerDay.at(-1)).toEqual({ day: today, count: expect.any(Number) });
      expect(overview.signupsPerDay.at(-1)!.count).toBeGreaterThanOrEqual(createdHere);
      const days = overview.signupsPerDay.map((d) => d.day);
      expect([...days].sort()).toEqual(days);
      expect(new Set(days).size).toBe(30);
    });
  });

  describe('GET /api/admin/users', () => {
    const tag = `adm${randomUUID().slice(0, 8)}`;
    let one: TestUser;
    let two: TestUser;
    let three: TestUser;

    beforeAll(async () => {
      one = await createUser(app, { email: `${tag}-one@tambari.test` });
      two = await createUser(app, { email: `${tag}-two@tambari.test`, plan: 'starter', status: 'active' });
      three = await createUser(app, { email: `${tag}-three@tambari.test`, role: 'data_entry' });
    });

    const list = async (query: Record<string, string>) => {
      const response = await asAdmin()({ method: 'GET', url: '/api/admin/users', query });
      expect(response.statusCode).toBe(200);
      return response.json<{ users: AdminUser[]; total: number; page: number; pageSize: number }>();
    };

    it('finds exactly the user whose email contains a unique fragment, in any case', async () => {
      const result = await list({ search: `${tag}-TWO` });
      expect(result.total).toBe(1);
      expect(result.users.map((u) => u.id)).toEqual([two.user.id]);
      expect(result.users[0]).toMatchObject({ email: two.email, subscriptionPlan: 'starter', banned: false });
    });

    it('treats % and _ in the search as plain characters', async () => {
      expect((await list({ search: `${tag}%one` })).total).toBe(0);
      expect((await list({ search: `${tag}_one` })).total).toBe(0);
    });

    it('filters by role, plan and status', async () => {
      const ids = (r: { users: AdminUser[] }) => r.users.map((u) => u.id).sort();
      expect(ids(await list({ search: tag, role: 'data_entry' }))).toEqual([three.user.id]);
      expect(ids(await list({ search: tag, role: 'user' }))).toEqual([one.user.id, two.user.id].sort());
      expect(ids(await list({ search: tag, plan: 'starter' }))).toEqual([two.user.id]);
      expect(ids(await list({ search: tag, plan: 'free' }))).toEqual([one.user.id, three.user.id].sort());
      expect(ids(await list({ search: tag, status: 'active' }))).toHaveLength(3);
      expect(ids(await list({ search: tag, status: 'suspended' }))).toEqual([]);
    });

    it('pages through the results with a total', async () => {
      const first = await list({ search: tag, pageSize: '2', page: '1' });
      const second = await list({ search: tag, pageSize: '2', page: '2' });
      expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
      expect(first.users).toHaveLength(2);
      expect(second).toMatchObject({ total: 3, page: 2 });
      expect(second.users).toHaveLength(1);
      const all = [...first.users, ...second.users].map((u) => u.id).sort();
      expect(all).toEqual([one.user.id, two.user.id, three.user.id].sort());
    });

    it('refuses an unknown role filter with 400', async () => {
      const response = await asAdmin()({
        method: 'GET',
        url: '/api/admin/users',
        query: { role: 'emperor' },
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('GET /api/admin/users/:id', () => {
    it('returns the user with their session count', async () => {
      const target = await createUser(app);
      const found = await adminUser(target.user.id);
      expect(found).toMatchObject({
        id: target.user.id,
        email: target.email,
        banned: false,
        banReason: null,
      });
      expect(found.activeSessions).toBeGreaterThanOrEqual(1);
      expect(found.lastActiveAt).not.toBeNull();
    });

    it('answers 404 for an unknown id', async () => {
      const response = await asAdmin()({ method: 'GET', url: `/api/admin/users/${randomUUID()}` });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toEqual(expect.any(String));
    });
  });

  describe('PATCH /api/admin/users/:id', () => {
    it('changes role and plan, shows it to the user and writes an audit entry', async () => {
      const target = await createUser(app);
      const response = await asAdmin()({
        method: 'PATCH',
        url: `/api/admin/users/${target.user.id}`,
        payload: { role: 'data_entry', subscriptionPlan: 'professional' },
      });
      expect(response.statusCode).toBe(200);
      // The product's name for the plan (Growth), not the display-only free/premium flag.
      expect(response.json()).toMatchObject({
        role: 'data_entry',
        subscriptionPlan: 'professional',
        planName: 'Growth',
      });
      expect(response.json()).not.toHaveProperty('plan');
      expect((await me(target.cookie)).json()).toMatchObject({
        role: 'data_entry',
        subscriptionPlan: 'professional',
      });
      // A paid plan given by an admin is granted, so the user is not met by the payment screen.
      const granted = response.json();
      expect(granted.subscriptionStatus).toBe('active');
      expect(new Date(granted.subscriptionCurrentPeriodEnd).getTime()).toBeGreaterThan(
        Date.now() + 29 * 86_400_000,
      );

      const entry = await findAudit('user.updated', target.user.id);
      expect(entry).toMatchObject({
        actorId: admin.user.id,
        actorEmail: admin.email,
        targetType: 'user',
        details: {
          role: { from: 'user', to: 'data_entry' },
          plan: { from: 'free', to: 'professional' },
        },
      });
    });

    it('refuses an empty change, an unknown role and an unknown user', async () => {
      const target = await createUser(app);
      const empty = await asAdmin()({
        method: 'PATCH',
        url: `/api/admin/users/${target.user.id}`,
        payload: {},
      });
      expect(empty.statusCode).toBe(400);
      const badRole = await asAdmin()({
        method: 'PATCH',
        url: `/api/admin/users/${target.user.id}`,
        payload: { role: 'emperor' },
      });
      expect(badRole.statusCode).toBe(400);
      expect((await userRow(app, target.user.id))?.role).toBe('user');
      const unknown = await asAdmin()({
        method: 'PATCH',
        url: `/api/admin/users/${randomUUID()}`,
        payload: { role: 'data_entry' },
      });
      expect(unknown.statusCode).toBe(404);
    });

    it('does not let an admin remove their own super admin role', async () => {
      const response = await asAdmin()({
        method: 'PATCH',
        url: `/api/admin/users/${admin.user.id}`,
        payload: { role: 'user' },
      });
      expect(response.statusCode).toBe(400);
      expect((await userRow(app, admin.user.id))?.role).toBe('super_admin');
      expect((await asAdmin()({ method: 'GET', url: '/api/admin/overview' })).statusCode).toBe(200);
    });
  });

  it('clears the subscription when an admin moves a paid user back to the free plan', async () => {
    const target = await createUser(app, {
      plan: 'starter',
      status: 'active',
      periodEnd: new Date(Date.now() + 86_400_000),
    });
    const response = await asAdmin()({
      method: 'PATCH',
      url: `/api/admin/users/${target.user.id}`,
      payload: { subscriptionPlan: 'free' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      subscriptionPlan: 'free',
      planName: 'Free',
      subscriptionStatus: null,
      subscriptionCurrentPeriodEnd: null,
    });
  });

  describe('suspend and restore', () => {
    it('does not let an admin suspend themselves', async () => {
      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/users/${admin.user.id}/suspend`,
        payload: { reason: 'Testing' },
      });
      expect(response.statusCode).toBe(400);
      expect((await userRow(app, admin.user.id))?.banned).toBe(false);
      expect((await me(admin.cookie)).statusCode).toBe(200);
    });

    it.each([
      ['a blank reason', { reason: '   ' }],
      ['no reason', {}],
    ])('requires a reason (%s)', async (_label, payload) => {
      const target = await createUser(app);
      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/users/${target.user.id}/suspend`,
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('A reason is required');
      expect((await userRow(app, target.user.id))?.banned).toBe(false);
      expect((await me(target.cookie)).statusCode).toBe(200);
    });

    it('suspends: ends the sessions, blocks sign-in, is audited; restore lets them back in', async () => {
      const target = await createUser(app);
      const otherDevice = await login(app, target.email);
      // Both sessions answered once, so the process keeps them: suspension must end them all the same.
      expect((await me(target.cookie)).statusCode).toBe(200);
      expect((await me(otherDevice)).statusCode).toBe(200);

      const suspended = await asAdmin()({
        method: 'POST',
        url: `/api/admin/users/${target.user.id}/suspend`,
        payload: { reason: 'Sent spam to purchased lists' },
      });
      expect(suspended.statusCode).toBe(200);
      expect(suspended.json()).toMatchObject({
        banned: true,
        banReason: 'Sent spam to purchased lists',
        activeSessions: 0,
      });

      expect((await me(target.cookie)).statusCode).toBe(401);
      expect((await me(otherDevice)).statusCode).toBe(401);
      const blocked = await signIn(target.email);
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json().message).toBe(MESSAGES.suspended);
      expect(await findAudit('user.suspended', target.user.id)).toMatchObject({
        actorId: admin.user.id,
        details: { reason: 'Sent spam to purchased lists' },
      });
      const listed = await asAdmin()({
        method: 'GET',
        url: '/api/admin/users',
        query: { search: target.email, status: 'suspended' },
      });
      expect(listed.json().users.map((u: AdminUser) => u.id)).toEqual([target.user.id]);

      const restored = await asAdmin()({ method: 'POST', url: `/api/admin/users/${target.user.id}/restore` });
      expect(restored.statusCode).toBe(200);
      expect(restored.json()).toMatchObject({ banned: false, banReason: null });
      expect(await findAudit('user.restored', target.user.id)).toBeDefined();
      const back = await signIn(target.email);
      expect(back.statusCode).toBe(200);
      expect(back.json().id).toBe(target.user.id);
    });
  });

  describe('POST /api/admin/users/:id/end-sessions', () => {
    it('ends every session of the user and is audited, and they can sign in again', async () => {
      const target = await createUser(app);
      const otherDevice = await login(app, target.email);
      const before = await adminUser(target.user.id);
      expect(before.activeSessions).toBeGreaterThanOrEqual(2);

      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/users/${target.user.id}/end-sessions`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().message).toBe(`Ended ${before.activeSessions} sessions.`);

      expect((await me(target.cookie)).statusCode).toBe(401);
      expect((await me(otherDevice)).statusCode).toBe(401);
      expect((await adminUser(target.user.id)).activeSessions).toBe(0);
      expect(await findAudit('user.sessions_ended', target.user.id)).toMatchObject({
        details: { sessions: before.activeSessions },
      });
      // The admin's own session is untouched.
      expect((await me(admin.cookie)).statusCode).toBe(200);
      expect((await signIn(target.email)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown user', async () => {
      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/users/${randomUUID()}/end-sessions`,
      });
      expect(response.statusCode).toBe(404);
    });
  });
});
