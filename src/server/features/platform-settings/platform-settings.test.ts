import {
  DEFAULT_PLATFORM_SETTINGS,
  type PlatformSettings,
  platformSettingsResponseSchema,
  senderDefaultsSchema,
  signupStatusSchema,
} from '@shared/platform-settings';
import { auditEntriesOf } from '@tests/factories/audit';
import { createUser, type TestUser, uniqueEmail } from '@tests/factories/users';
import { waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetCachedSettings } from './platform-settings.service';

describe('platform settings API', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let original: PlatformSettings;

  beforeAll(async () => {
    app = await createTestApp({
      PAYSTACK_SECRET_KEY: 'sk_test_never_shown_1234567890',
      PAYSTACK_PUBLIC_KEY: 'pk_test_public_0987654321',
    });
    admin = await createUser(app, { role: 'super_admin' });
    const response = await asAdmin()({ method: 'GET', url: '/api/admin/settings' });
    original = platformSettingsResponseSchema.parse(response.json()).settings;
  });
  afterAll(async () => {
    // Settings are platform-wide: put back what was there for the other test files.
    await asAdmin()({ method: 'PUT', url: '/api/admin/settings', payload: original });
    await app.close();
  });

  const asAdmin = () => as(app, admin.cookie);
  const save = (payload: Partial<PlatformSettings>) =>
    asAdmin()({ method: 'PUT', url: '/api/admin/settings', payload });

  it('answers 401 signed out and 403 to a user and a data entry officer, changing nothing', async () => {
    const user = await createUser(app);
    const dataEntry = await createUser(app, { role: 'data_entry' });
    const change = { signups: { open: false, closedMessage: 'Closed by a subscriber' } };
    const requests = [
      { method: 'GET' as const, url: '/api/admin/settings' },
      { method: 'PUT' as const, url: '/api/admin/settings', payload: change },
    ];
    for (const request of requests) {
      expect((await app.inject(request)).statusCode).toBe(401);
      for (const who of [user, dataEntry]) {
        expect((await as(app, who.cookie)(request)).statusCode, `${who.user.role} ${request.method}`).toBe(
          403,
        );
      }
    }
    forgetCachedSettings(app.services.db);
    const status = signupStatusSchema.parse((await app.inject({ url: '/api/public/signup-status' })).json());
    expect(status.open).toBe(true);
    expect(await auditEntriesOf(app, user.user.id)).toEqual([]);
  });

  it('shows every section with its defaults and which providers are set up, never a secret', async () => {
    const response = await asAdmin()({ method: 'GET', url: '/api/admin/settings' });
    expect(response.statusCode).toBe(200);
    const body = platformSettingsResponseSchema.parse(response.json());
    expect(Object.keys(body.settings).sort()).toEqual(Object.keys(DEFAULT_PLATFORM_SETTINGS).sort());
    const providers = Object.fromEntries(body.providers.map((p) => [p.id, p.configured]));
    expect(providers).toEqual({ smtp: false, paystack: true, ai: false });
    expect(response.body).not.toContain('sk_test_never_shown');
    expect(response.body).not.toContain('pk_test_public');
  });

  it('refuses invalid values with the field named, and saves nothing', async () => {
    const response = await save({
      senderDefaults: { dailyCap: 5000, warmupEnabled: false, warmupStart: 10, warmupIncrement: 5 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Daily limit cannot be more than 300/);
    const badDomain = await save({ tracking: { domain: 'not a host' } });
    expect(badDomain.statusCode).toBe(400);
    expect(badDomain.json().message).toMatch(/host name/);
    const empty = await save({});
    expect(empty.statusCode).toBe(400);
  });

  it('saves a section, audits each changed field before and after, and audits nothing for a no-op', async () => {
    const support = { email: 'help@example-ops.test', billingEmail: original.support.billingEmail };
    const response = await save({ support });
    expect(response.statusCode, response.body).toBe(200);
    const body = platformSettingsResponseSchema.parse(response.json());
    expect(body.settings.support).toEqual(support);
    expect(body.updatedBy).toBe(admin.user.email);

    const entries = await auditEntriesOf(app, admin.user.id);
    const last = entries.at(-1)!;
    expect(last).toMatchObject({
      action: 'settings.update',
      targetType: 'platform_settings',
      targetId: 'support',
    });
    expect(last.details).toEqual({
      section: 'support',
      changes: { email: { before: original.support.email, after: 'help@example-ops.test' } },
    });

    await save({ support });
    expect(await auditEntriesOf(app, admin.user.id)).toHaveLength(entries.length);
    const reread = platformSettingsResponseSchema.parse(
      (await asAdmin()({ method: 'GET', url: '/api/admin/settings' })).json(),
    );
    expect(reread.settings.support).toEqual(support);
    expect(reread.history[0]).toMatchObject({
      section: 'support',
      actorEmail: admin.user.email,
      changes: { email: { after: 'help@example-ops.test' } },
    });
  });

  it('closed sign-ups refuse registration with the operator message; reopened, it works again', async () => {
    const closedMessage = 'Sign-ups reopen on Monday. Write to help@example-ops.test.';
    expect((await save({ signups: { open: false, closedMessage } })).statusCode).toBe(200);
    const register = (email: string) =>
      app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { email, password: 'Kola-nut-2026!', firstName: 'Ada', lastName: 'Obi' },
      });
    try {
      const status = signupStatusSchema.parse(
        (await app.inject({ url: '/api/public/signup-status' })).json(),
      );
      expect(status).toEqual({ open: false, message: closedMessage });
      const refused = await register(uniqueEmail('closed'));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: closedMessage, code: 'forbidden' });
    } finally {
      await save({ signups: original.signups });
    }
    expect((await register(uniqueEmail('reopened'))).statusCode).toBe(201);
  });

  it('puts the company name, postal address and support address in the footer of system mail', async () => {
    const company = {
      name: 'Tambari Ops Ltd',
      postalAddress: '14 Broad Street, Lagos Island, Lagos',
      website: '',
    };
    expect((await save({ company })).statusCode).toBe(200);
    const user = await createUser(app);
    await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
    const mail = await waitForMail(app, user.email);
    expect(mail.text).toContain('Tambari Ops Ltd · 14 Broad Street, Lagos Island, Lagos');
    expect(mail.html).toContain('14 Broad Street, Lagos Island, Lagos');
    expect(mail.fromAddress).toContain('no-reply@tambari.test');
    await save({ company: original.company });
  });

  it('switching AI writing off refuses generations with the reason, and the status says so', async () => {
    const user = await createUser(app);
    expect((await save({ features: { aiWriting: false } })).statusCode).toBe(200);
    try {
      const write = await as(
        app,
        user.cookie,
      )({
        method: 'POST',
        url: '/api/ai/write',
        payload: { kind: 'email', goal: 'A short hello to a new customer in Kano' },
      });
      expect(write.statusCode).toBe(503);
      expect(write.json()).toMatchObject({ reason: 'ai_disabled' });
      const status = await as(app, user.cookie)({ url: '/api/ai/status' });
      expect(status.json()).toMatchObject({ configured: false, help: expect.stringMatching(/switched off/) });
    } finally {
      await save({ features: original.features });
    }
  });

  it('hands signed-in users the sender-account defaults, and nobody else', async () => {
    expect((await app.inject({ url: '/api/sender-accounts/defaults' })).statusCode).toBe(401);
    const user = await createUser(app);
    const response = await as(app, user.cookie)({ url: '/api/sender-accounts/defaults' });
    expect(response.statusCode).toBe(200);
    expect(senderDefaultsSchema.parse(response.json())).toEqual(original.senderDefaults);
  });
});
