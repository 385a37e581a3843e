import { randomInt, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { senderAccounts } from '@server/db/schema/index';
import { decryptSecret } from '@server/lib/crypto';
import type { ConnectionTestResult, SenderAccount, SenderPreset } from '@shared/sending';
import { createUser, type TestUser } from '@tests/factories/users';
import { type FakeDns, startFakeDns } from '@tests/fakes/dns';
import { mailTo, waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDevMailboxSenderAccount } from './dev-mailbox-account.service';
import { accountLocalDate } from './sender-account-rules';
import {
  AUTH_FAILING_REASON,
  recordAuthFailure,
  recordSendSuccess,
  setSenderFailing,
} from './sender-status.service';
import { SMTP_ERROR_MESSAGES } from './smtp-errors';

/*
 * The sender-account API end to end: the app on the test database, a fake DNS for the domain checks, and a
 * real smtp-server on an ephemeral port of a random loopback address for the connection tests.
 */

const future = () => new Date(Date.now() + 30 * 86_400_000);
const slug = () => randomUUID().slice(0, 8);

describe('sender accounts', () => {
  let app: FastifyInstance;
  let dns: FakeDns;
  let smtpHost: string;
  let smtpPort = 0;
  let smtp: SMTPServer;
  let smtpConnections = 0;

  beforeAll(async () => {
    dns = await startFakeDns({
      'kanofoods.test': {
        txt: ['v=spf1 ip4:127.0.0.0/8 -all'],
        mx: [{ priority: 10, exchange: 'mx.kanofoods.test' }],
      },
      'google._domainkey.kanofoods.test': { txt: ['v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GN'] },
      '_dmarc.kanofoods.test': { txt: ['v=DMARC1; p=quarantine'] },
    });
    app = await createTestApp({ SENDER_DNS_SERVERS: dns.server });
    smtp = new SMTPServer({
      banner: 'SECRET-BANNER relay.internal',
      logger: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onConnect(_session, callback) {
        smtpConnections++;
        callback();
      },
      onAuth(auth, _session, callback) {
        if (auth.password === 'right-password') return callback(null, { user: auth.username });
        callback(Object.assign(new Error('SECRET-REPLY go away'), { responseCode: 535 }));
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => callback());
      },
    });
    for (;;) {
      smtpHost = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
      const listening = await new Promise<boolean>((resolve) => {
        smtp.server.once('error', () => resolve(false));
        smtp.listen(0, smtpHost, () => resolve(true));
      });
      if (listening) break;
    }
    smtpPort = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await app.close();
    await dns.close();
  });

  const call = (user: TestUser) => as(app, user.cookie);
  const paidUser = () => createUser(app, { plan: 'professional', status: 'active', periodEnd: future() });

  function input(overrides: Record<string, unknown> = {}) {
    const id = slug();
    return {
      fromName: 'Ada from Kano Foods',
      fromEmail: `ada-${id}@kanofoods.test`,
      postalAddress: 'Kano Foods Ltd, 3 Bompai Road, Kano, Nigeria',
      smtpHost,
      smtpPort: smtpPort,
      smtpSecurity: 'none',
      smtpUser: `ada-${id}@kanofoods.test`,
      smtpPassword: 'right-password',
      ...overrides,
    };
  }

  async function create(user: TestUser, overrides: Record<string, unknown> = {}) {
    const response = await call(user)({
      method: 'POST',
      url: '/api/sender-accounts',
      payload: input(overrides),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<SenderAccount>();
  }

  async function storedRow(id: string) {
    const [row] = await app.services.db.select().from(senderAccounts).where(eq(senderAccounts.id, id));
    return row!;
  }

  describe('create, read, list', () => {
    it('creates an account with a sealed password, a default label and a domain check, and never shows the password', async () => {
      const user = await paidUser();
      const response = await call(user)({ method: 'POST', url: '/api/sender-accounts', payload: input() });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.body).not.toMatch(/right-password|password/i);
      const account = response.json<SenderAccount>();
      expect(account).toMatchObject({
        label: account.fromEmail,
        status: 'active',
        dailyCap: 50,
        effectiveCap: 50,
        sentToday: 0,
        timeZone: 'Africa/Lagos',
        isDevMailbox: false,
        imapEnabled: false,
      });
      // SPF allows 127/8, the account's server: the check ran against the fake DNS right after saving.
      expect(account.domainCheck).toMatchObject({
        domain: 'kanofoods.test',
        spf: { status: 'pass' },
        dkim: { status: 'pass', selector: 'google' },
        dmarc: { status: 'pass' },
        mx: { status: 'pass' },
      });

      const row = await storedRow(account.id);
      expect(row.userId).toBe(user.user.id);
      expect(row.smtpPasswordEnc).not.toContain('right-password');
      expect(decryptSecret(row.smtpPasswordEnc, app.services.secrets.encryptionKey)).toBe('right-password');
      expect(row.keyVersion).toBe(2);

      const list = await call(user)({ method: 'GET', url: '/api/sender-accounts' });
      expect(list.json<SenderAccount[]>().map((a) => a.id)).toEqual([account.id]);
      expect(list.body).not.toMatch(/password/i);
      const one = await call(user)({ method: 'GET', url: `/api/sender-accounts/${account.id}` });
      expect(one.json<SenderAccount>()).toEqual(account);
    });

    it('starts a new account from the platform defaults of Admin → Settings; what the owner sends wins', async () => {
      const admin = await createUser(app, { role: 'super_admin' });
      const settings = (url: string, payload?: unknown) =>
        call(admin)({ method: payload ? 'PUT' : 'GET', url, ...(payload ? { payload } : {}) });
      const before = (await settings('/api/admin/settings')).json().settings.senderDefaults;
      const defaults = { dailyCap: 120, warmupEnabled: true, warmupStart: 15, warmupIncrement: 7 };
      expect((await settings('/api/admin/settings', { senderDefaults: defaults })).statusCode).toBe(200);
      try {
        const user = await paidUser();
        const plain = await create(user);
        expect(plain).toMatchObject(defaults);
        const chosen = await create(user, { dailyCap: 40, warmupEnabled: false });
        expect(chosen).toMatchObject({
          dailyCap: 40,
          warmupEnabled: false,
          warmupStart: 15,
          warmupIncrement: 7,
        });
      } finally {
        await settings('/api/admin/settings', { senderDefaults: before });
      }
    });

    it('starts the warm-up ramp on the account-local today', async () => {
      const user = await paidUser();
      const account = await create(user, {
        warmupEnabled: true,
        warmupStart: 12,
        warmupIncrement: 4,
        dailyCap: 100,
      });
      expect(account).toMatchObject({ warmupEnabled: true, effectiveCap: 12, dailyCap: 100 });
      expect((await storedRow(account.id)).warmupStartedOn).toBe(
        accountLocalDate(new Date(), 'Africa/Lagos'),
      );
    });

    it('requires a session', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/sender-accounts' });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('hostile input', () => {
    async function expectRefused(payload: Record<string, unknown>, status: number, message: string | RegExp) {
      const user = await paidUser();
      const response = await call(user)({
        method: 'POST',
        url: '/api/sender-accounts',
        payload: input(payload),
      });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().message).toMatch(message);
      const list = await call(user)({ method: 'GET', url: '/api/sender-accounts' });
      expect(list.json()).toEqual([]);
      return response.json();
    }

    it('refuses line breaks in header values', async () => {
      const body = await expectRefused(
        { fromName: 'Ada\r\nBcc: victim@example.com' },
        400,
        'From name cannot contain line breaks',
      );
      expect(body.errors[0].path).toBe('fromName');
      await expectRefused({ label: 'Sales\nX-Evil: 1' }, 400, 'Name cannot contain line breaks');
      await expectRefused(
        { fromEmail: 'ada@kanofoods.test\r\nBcc: x@y.z' },
        400,
        'Enter a valid email address',
      );
    });

    it('refuses internal, metadata and loopback-only mail servers', async () => {
      await expectRefused({ smtpHost: '169.254.169.254' }, 400, 'This mail server address is not allowed');
      await expectRefused({ smtpHost: '10.0.0.1' }, 400, 'This mail server address is not allowed');
      await expectRefused({ smtpHost: '0.0.0.0' }, 400, 'This mail server address is not allowed');
      await expectRefused(
        { imapEnabled: true, imapHost: '169.254.169.254', imapPort: 993, imapSecurity: 'tls' },
        400,
        'This mail server address is not allowed',
      );
    });

    it('refuses ports outside 1–65535, caps over 300, unknown zones and a missing password', async () => {
      await expectRefused({ smtpPort: 0 }, 400, 'Enter a port from 1 to 65535');
      await expectRefused(
        { imapEnabled: true, imapHost: smtpHost, imapPort: 70000 },
        400,
        'Enter a port from 1 to 65535',
      );
      await expectRefused({ dailyCap: 301 }, 400, 'Daily limit cannot be more than 300 emails a day');
      await expectRefused({ timeZone: 'Mars/Olympus_Mons' }, 400, /Unknown time zone/);
      await expectRefused({ smtpPassword: undefined }, 400, 'Enter the password');
      await expectRefused(
        { smtpHost: 'smtp.example.com/../x' },
        400,
        'Enter a host name like smtp.example.com',
      );
    });

    it('refuses a second account with the same from address (any case)', async () => {
      const user = await paidUser();
      const first = await create(user);
      const again = await call(user)({
        method: 'POST',
        url: '/api/sender-accounts',
        payload: input({ fromEmail: first.fromEmail.toUpperCase() }),
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(`You already have a sender account for ${first.fromEmail}.`);
      // Another user may use the same address.
      await create(await paidUser(), { fromEmail: first.fromEmail });
    });

    it('holds the free plan to one account, and the test mailbox does not count', async () => {
      const user = await createUser(app);
      const dev = await call(user)({ method: 'POST', url: '/api/sender-accounts/dev-mailbox' });
      expect(dev.statusCode).toBe(201);
      await create(user);
      const second = await call(user)({ method: 'POST', url: '/api/sender-accounts', payload: input() });
      expect(second.statusCode).toBe(403);
      expect(second.json().message).toMatch(
        /^Your Free plan allows 1 sender account\. Upgrade to \S+ for 3\.$/,
      );
      expect((await call(user)({ method: 'GET', url: '/api/sender-accounts' })).json()).toHaveLength(2);
    });

    it("answers 404 for another user's account, whatever the action", async () => {
      const owner = await paidUser();
      const other = await paidUser();
      const account = await create(owner);
      const base = `/api/sender-accounts/${account.id}`;
      for (const [method, url, payload] of [
        ['GET', base],
        ['PATCH', base, input()],
        ['DELETE', base],
        ['POST', `${base}/pause`],
        ['POST', `${base}/resume`],
        ['POST', `${base}/test`],
        ['POST', `${base}/check-domain`],
        ['POST', `${base}/send-test`, {}],
        [
          'POST',
          '/api/sender-accounts/test',
          { ...input({ smtpPassword: undefined }), accountId: account.id },
        ],
      ] as const) {
        const response = await call(other)({ method, url, payload });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.body).not.toContain(account.fromEmail);
      }
      expect((await storedRow(account.id)).fromEmail).toBe(account.fromEmail);
      const invalid = await call(other)({ method: 'GET', url: '/api/sender-accounts/not-a-uuid' });
      expect(invalid.statusCode).toBe(400);
    });
  });

  describe('update, pause, resume, delete', () => {
    it('stores the company on create and update; another user cannot change it', async () => {
      const owner = await paidUser();
      const other = await paidUser();
      const account = await create(owner, { company: '  Kano Foods Ltd  ' });
      expect(account.company).toBe('Kano Foods Ltd');
      expect((await storedRow(account.id)).company).toBe('Kano Foods Ltd');

      const patch = (user: TestUser, company: unknown) =>
        call(user)({
          method: 'PATCH',
          url: `/api/sender-accounts/${account.id}`,
          payload: input({ fromEmail: account.fromEmail, smtpPassword: undefined, company }),
        });
      const changed = await patch(owner, 'Kano Foods Group');
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json<SenderAccount>().company).toBe('Kano Foods Group');

      const foreign = await patch(other, 'Hijacked Ltd');
      expect(foreign.statusCode).toBe(404);
      expect((await storedRow(account.id)).company).toBe('Kano Foods Group');

      const tooLong = await patch(owner, 'x'.repeat(121));
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.body).toContain('Company must be at most 120 characters');

      const cleared = await patch(owner, '');
      expect(cleared.json<SenderAccount>().company).toBeNull();
      expect((await storedRow(account.id)).company).toBeNull();
    });

    it('keeps the reply signature the inbox uses; the same limit; another user can neither read nor change it', async () => {
      const owner = await paidUser();
      const other = await paidUser();
      const account = await create(owner, { signature: '  Ada Okafor\nKano Foods Ltd  ' });
      expect(account.signature).toBe('Ada Okafor\nKano Foods Ltd');

      const patch = (user: TestUser, signature: unknown) =>
        call(user)({
          method: 'PATCH',
          url: `/api/sender-accounts/${account.id}`,
          payload: input({ fromEmail: account.fromEmail, smtpPassword: undefined, signature }),
        });
      const changed = await patch(owner, 'Ada\nSales, Kano Foods');
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json<SenderAccount>().signature).toBe('Ada\nSales, Kano Foods');
      // The inbox's signature editor writes the same column, so either place shows the other's change.
      const fromInbox = await call(owner)({
        method: 'PUT',
        url: `/api/inbox/signatures/${account.id}`,
        payload: { signature: 'Ada (from the inbox)' },
      });
      expect(fromInbox.statusCode, fromInbox.body).toBe(200);
      const listed = await call(owner)({ method: 'GET', url: '/api/sender-accounts' });
      expect(listed.json<SenderAccount[]>().find((a) => a.id === account.id)?.signature).toBe(
        'Ada (from the inbox)',
      );

      // Another user: 404 on reading the account, on changing it here, and on changing it from the inbox.
      const foreignRead = await call(other)({ method: 'GET', url: `/api/sender-accounts/${account.id}` });
      expect(foreignRead.statusCode).toBe(404);
      expect(foreignRead.body).not.toContain('Ada (from the inbox)');
      const foreignList = await call(other)({ method: 'GET', url: '/api/sender-accounts' });
      expect(foreignList.body).not.toContain('Ada (from the inbox)');
      expect((await patch(other, 'Hijacked')).statusCode).toBe(404);
      const foreignInbox = await call(other)({
        method: 'PUT',
        url: `/api/inbox/signatures/${account.id}`,
        payload: { signature: 'Hijacked' },
      });
      expect(foreignInbox.statusCode).toBe(404);
      expect((await storedRow(account.id)).signature).toBe('Ada (from the inbox)');

      // The same limit as the inbox's save, with the same words.
      const tooLong = await patch(owner, 'x'.repeat(2001));
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.body).toContain('A signature can be at most 2,000 characters');
      expect((await patch(owner, 'x'.repeat(2000))).statusCode).toBe(200);

      // Omitted keeps it; empty clears it.
      const omitted = await patch(owner, undefined);
      expect(omitted.json<SenderAccount>().signature).toBe('x'.repeat(2000));
      const cleared = await patch(owner, '   ');
      expect(cleared.json<SenderAccount>().signature).toBeNull();
      expect((await storedRow(account.id)).signature).toBeNull();
    });

    it('leaves the company, reply-to, name and DKIM selector alone when an update omits them', async () => {
      const user = await paidUser();
      const account = await create(user, {
        company: 'Kano Foods Ltd',
        replyTo: 'sales@kanofoods.test',
        label: 'Sales desk',
        dkimSelector: 's1',
      });
      const payload: Record<string, unknown> = input({ fromEmail: account.fromEmail, dailyCap: 90 });
      delete payload.smtpPassword;
      const renamed = await call(user)({
        method: 'PATCH',
        url: `/api/sender-accounts/${account.id}`,
        payload,
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json<SenderAccount>()).toMatchObject({
        dailyCap: 90,
        company: 'Kano Foods Ltd',
        replyTo: 'sales@kanofoods.test',
        label: 'Sales desk',
      });
      expect((await storedRow(account.id)).dkimSelector).toBe('s1');

      // An empty value is the user clearing the field.
      const cleared = await call(user)({
        method: 'PATCH',
        url: `/api/sender-accounts/${account.id}`,
        payload: { ...payload, company: '', replyTo: '', dkimSelector: '' },
      });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json<SenderAccount>()).toMatchObject({ company: null, replyTo: null });
      expect((await storedRow(account.id)).dkimSelector).toBeNull();
    });

    it('keeps the stored password when none is sent and replaces it when one is', async () => {
      const user = await paidUser();
      const account = await create(user);
      const before = await storedRow(account.id);
      const kept = await call(user)({
        method: 'PATCH',
        url: `/api/sender-accounts/${account.id}`,
        payload: input({
          fromEmail: account.fromEmail,
          smtpPassword: undefined,
          label: 'Sales desk',
          dailyCap: 120,
        }),
      });
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json()).toMatchObject({ label: 'Sales desk', dailyCap: 120 });
      const afterKeep = await storedRow(account.id);
      expect(afterKeep.smtpPasswordEnc).toBe(before.smtpPasswordEnc);
      expect(afterKeep.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

      await call(user)({
        method: 'PATCH',
        url: `/api/sender-accounts/${account.id}`,
        payload: input({ fromEmail: account.fromEmail, smtpPassword: 'new-password' }),
      });
      const afterChange = await storedRow(account.id);
      expect(decryptSecret(afterChange.smtpPasswordEnc, app.services.secrets.encryptionKey)).toBe(
        'new-password',
      );
    });

    it('checks a changed host with the guard and changes nothing when it is refused', async () => {
      const user = await paidUser();
      const account = await create(user);
      const response = await call(user)({
        method: 'PATCH',
        url: `/api/sender-accounts/${account.id}`,
        payload: input({ fromEmail: account.fromEmail, smtpHost: '169.254.169.254', label: 'Moved' }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('This mail server address is not allowed');
      const row = await storedRow(account.id);
      expect(row).toMatchObject({ smtpHost, label: account.label });
    });

    it('refuses to take another account’s from address on update', async () => {
      const user = await paidUser();
      const a = await create(user);
      const b = await create(user);
      const response = await call(user)({
        method: 'PATCH',
        url: `/api/sender-accounts/${b.id}`,
        payload: input({ fromEmail: a.fromEmail }),
      });
      expect(response.statusCode).toBe(409);
      expect((await storedRow(b.id)).fromEmail).toBe(b.fromEmail);
    });

    it('pauses and resumes; resuming a failing account clears its reason and failure run', async () => {
      const user = await paidUser();
      const account = await create(user);
      const paused = await call(user)({ method: 'POST', url: `/api/sender-accounts/${account.id}/pause` });
      expect(paused.json()).toMatchObject({
        status: 'paused',
        statusReason: null,
        statusChangedAt: expect.any(String),
      });

      await app.services.db
        .update(senderAccounts)
        .set({ status: 'failing', statusReason: 'Wrong password', authFailures: 3, cooldownUntil: future() })
        .where(eq(senderAccounts.id, account.id));
      const resumed = await call(user)({ method: 'POST', url: `/api/sender-accounts/${account.id}/resume` });
      expect(resumed.json()).toMatchObject({ status: 'active', statusReason: null });
      expect(await storedRow(account.id)).toMatchObject({ authFailures: 0, cooldownUntil: null });
    });

    it('deletes an account', async () => {
      const user = await paidUser();
      const account = await create(user);
      const response = await call(user)({ method: 'DELETE', url: `/api/sender-accounts/${account.id}` });
      expect(response.statusCode).toBe(200);
      expect(
        (await call(user)({ method: 'GET', url: `/api/sender-accounts/${account.id}` })).statusCode,
      ).toBe(404);
      expect(
        (await call(user)({ method: 'DELETE', url: `/api/sender-accounts/${account.id}` })).statusCode,
      ).toBe(404);
    });
  });

  describe('connection tests', () => {
    it('tests unsaved settings live and answers fixed messages', async () => {
      const user = await paidUser();
      const good = await call(user)({ method: 'POST', url: '/api/sender-accounts/test', payload: input() });
      expect(good.statusCode, good.body).toBe(200);
      expect(good.json<ConnectionTestResult>()).toEqual({
        smtp: { ok: true, message: expect.any(String) },
        imap: null,
      });

      const wrong = await call(user)({
        method: 'POST',
        url: '/api/sender-accounts/test',
        payload: input({ smtpPassword: 'wrong-password' }),
      });
      expect(wrong.json<ConnectionTestResult>().smtp).toEqual({
        ok: false,
        message: SMTP_ERROR_MESSAGES.auth,
      });
      expect(wrong.body).not.toMatch(/SECRET|relay\.internal|go away/);

      const connectionsBefore = smtpConnections;
      const refused = await call(user)({
        method: 'POST',
        url: '/api/sender-accounts/test',
        payload: input({ smtpHost: '169.254.169.254' }),
      });
      expect(refused.statusCode).toBe(200);
      expect(refused.json<ConnectionTestResult>().smtp).toEqual({
        ok: false,
        message: 'This mail server address is not allowed',
      });
      expect(smtpConnections).toBe(connectionsBefore);
    });

    it('reuses the stored password while editing, but only for the same server', async () => {
      const user = await paidUser();
      const account = await create(user);
      const same = await call(user)({
        method: 'POST',
        url: '/api/sender-accounts/test',
        payload: { ...input({ smtpPassword: undefined }), accountId: account.id },
      });
      expect(same.json<ConnectionTestResult>().smtp.ok).toBe(true);

      const elsewhere = await call(user)({
        method: 'POST',
        url: '/api/sender-accounts/test',
        payload: { ...input({ smtpPassword: undefined, smtpHost: '127.0.0.1' }), accountId: account.id },
      });
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json().message).toBe('Enter the password to test a different server');

      const noAccount = await call(user)({
        method: 'POST',
        url: '/api/sender-accounts/test',
        payload: input({ smtpPassword: undefined }),
      });
      expect(noAccount.statusCode).toBe(400);
      expect(noAccount.json().message).toBe('Enter the password');
    });

    it('tests a saved account; a failed test marks nothing', async () => {
      const user = await paidUser();
      const account = await create(user, { smtpPassword: 'wrong-password' });
      const response = await call(user)({ method: 'POST', url: `/api/sender-accounts/${account.id}/test` });
      expect(response.json<ConnectionTestResult>().smtp).toEqual({
        ok: false,
        message: SMTP_ERROR_MESSAGES.auth,
      });
      expect(await storedRow(account.id)).toMatchObject({
        status: 'active',
        authFailures: 0,
        statusReason: null,
      });
    });

    it('limits connection tests to 10 a minute per user', async () => {
      const user = await paidUser();
      const { account } = await ensureDevMailboxSenderAccount({
        db: app.services.db,
        encryptionKey: app.services.secrets.encryptionKey,
        userId: user.user.id,
        devMailboxPort: app.services.devMailbox!.port,
      });
      const url = `/api/sender-accounts/${account.id}/test`;
      for (let i = 0; i < 10; i++) {
        expect((await call(user)({ method: 'POST', url })).statusCode).toBe(200);
      }
      const limited = await call(user)({ method: 'POST', url });
      expect(limited.statusCode).toBe(429);
      // Another user behind the same address is not held back.
      const other = await paidUser();
      const otherAccount = await call(other)({ method: 'POST', url: '/api/sender-accounts/dev-mailbox' });
      const ok = await call(other)({
        method: 'POST',
        url: `/api/sender-accounts/${otherAccount.json().id}/test`,
      });
      expect(ok.statusCode).toBe(200);
    });
  });

  describe('test email and the development mailbox', () => {
    it('gives any user the test mailbox once, and sends a test email to the user through it', async () => {
      const user = await createUser(app);
      const created = await call(user)({ method: 'POST', url: '/api/sender-accounts/dev-mailbox' });
      expect(created.statusCode).toBe(201);
      const account = created.json<SenderAccount>();
      expect(account).toMatchObject({
        label: 'Tambari test mailbox',
        isDevMailbox: true,
        smtpHost: '127.0.0.1',
        // The port the mailbox runs on now (DEV_MAILBOX_PORT; here a random one), never a stand-in 2525.
        smtpPort: app.services.devMailbox!.port,
        smtpSecurity: 'none',
        dailyCap: 300,
        postalAddress: 'Demo Ventures Ltd, 12 Marina Road, Lagos, Nigeria',
        domainCheck: { spf: { status: 'pass', detail: 'Development mailbox: no DNS needed' } },
      });
      expect(account.fromEmail).toMatch(/@tambari\.test$/);
      const again = await call(user)({ method: 'POST', url: '/api/sender-accounts/dev-mailbox' });
      expect(again.statusCode).toBe(200);
      expect(again.json().id).toBe(account.id);
      const listed = (await call(user)({ method: 'GET', url: '/api/sender-accounts' })).json<
        SenderAccount[]
      >();
      expect(listed.find((a) => a.id === account.id)?.smtpPort).toBe(app.services.devMailbox!.port);

      const sent = await call(user)({
        method: 'POST',
        url: `/api/sender-accounts/${account.id}/send-test`,
        payload: {},
      });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toEqual({ ok: true });
      const mail = await waitForMail(app, user.email);
      expect(mail.subject).toBe(`Tambari test email from ${account.fromEmail}`);
      const after = await call(user)({ method: 'GET', url: `/api/sender-accounts/${account.id}` });
      expect(after.json()).toMatchObject({ sentToday: 1, lastUsedAt: expect.any(String) });

      // The test mailbox's connection is ours: an edit changes its identity, not where it connects.
      const edited = await call(user)({
        method: 'PATCH',
        url: `/api/sender-accounts/${account.id}`,
        payload: input({
          fromEmail: account.fromEmail,
          fromName: 'Demo sender',
          smtpHost: '8.8.8.8',
          smtpPassword: undefined,
        }),
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ fromName: 'Demo sender', smtpHost: '127.0.0.1' });
    });

    it("refuses a test email past today's cap, and gives the slot back when sending fails", async () => {
      const user = await paidUser();
      const { account } = await ensureDevMailboxSenderAccount({
        db: app.services.db,
        encryptionKey: app.services.secrets.encryptionKey,
        userId: user.user.id,
        devMailboxPort: app.services.devMailbox!.port,
      });
      await app.services.db
        .update(senderAccounts)
        .set({ dailyCap: 2, sendsToday: 2, sendsDay: accountLocalDate(new Date(), 'Africa/Lagos') })
        .where(eq(senderAccounts.id, account.id));
      const to = `cap-${slug()}@example.com`;
      const refused = await call(user)({
        method: 'POST',
        url: `/api/sender-accounts/${account.id}/send-test`,
        payload: { to },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        "This account has reached today's limit of 2 emails. Try again tomorrow.",
      );
      expect(await mailTo(app, to)).toEqual([]);

      const closed = await create(user, { smtpHost: `127.${randomInt(1, 255)}.0.9` });
      const failed = await call(user)({
        method: 'POST',
        url: `/api/sender-accounts/${closed.id}/send-test`,
        payload: { to },
      });
      expect(failed.statusCode).toBe(400);
      expect(failed.json().message).toMatch(/could not connect to a mail server/i);
      expect((await storedRow(closed.id)).sendsToday).toBe(0);
    });

    it('refuses a test email to a malformed address', async () => {
      const user = await paidUser();
      const account = await create(user);
      const response = await call(user)({
        method: 'POST',
        url: `/api/sender-accounts/${account.id}/send-test`,
        payload: { to: 'bola@example.com\r\nBcc: x@y.z' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Enter a valid email address');
    });

    it('lists the presets, with the test mailbox while it runs', async () => {
      const user = await createUser(app);
      const presets = (await call(user)({ method: 'GET', url: '/api/sender-accounts/presets' })).json<
        SenderPreset[]
      >();
      const byId = new Map(presets.map((p) => [p.id, p]));
      expect(byId.get('gmail')).toMatchObject({
        smtpHost: 'smtp.gmail.com',
        smtpPort: 465,
        smtpSecurity: 'tls',
        imapHost: 'imap.gmail.com',
      });
      expect(byId.get('gmail')!.help).toContain('app password');
      expect(byId.get('microsoft365')).toMatchObject({
        smtpHost: 'smtp.office365.com',
        smtpPort: 587,
        smtpSecurity: 'starttls',
      });
      expect(byId.get('zoho')!.help).toContain('smtppro.zoho.com');
      for (const id of ['whogohost', 'smartweb', 'domainking-qservers', 'yahoo', 'custom'])
        expect(byId.has(id), id).toBe(true);
      expect(byId.get('tambari-test-mailbox')).toMatchObject({ smtpPort: app.services.devMailbox!.port });
    });
  });

  describe('account health (the dispatcher reports)', () => {
    const health = () => ({
      db: app.services.db,
      mailer: app.services.mailer,
      appUrl: 'http://localhost:3000',
    });

    it('marks an account failing once and tells its owner once', async () => {
      const user = await paidUser();
      const account = await create(user);
      const reason = 'The mail server refused to send as this address';
      await setSenderFailing({ ...health(), accountId: account.id, reason });
      await setSenderFailing({ ...health(), accountId: account.id, reason: 'again' });
      const row = await storedRow(account.id);
      expect(row).toMatchObject({ status: 'failing', statusReason: reason });
      const mail = await waitForMail(app, user.email, {
        subject: `Sender account paused: ${account.fromEmail}`,
      });
      expect(mail.text).toContain(`Your sender account ${account.fromEmail} was paused: ${reason}`);
      expect(mail.text).toContain('http://localhost:3000/settings#sender-accounts');
      expect(await mailTo(app, user.email)).toHaveLength(1);
    });

    it('fails an account after three authentication failures in a row; a success resets the run', async () => {
      const user = await paidUser();
      const account = await create(user);
      expect(await recordAuthFailure({ ...health(), accountId: account.id })).toEqual({
        authFailures: 1,
        failing: false,
      });
      expect(await recordAuthFailure({ ...health(), accountId: account.id })).toEqual({
        authFailures: 2,
        failing: false,
      });
      await recordSendSuccess({ db: app.services.db, accountId: account.id });
      expect((await storedRow(account.id)).authFailures).toBe(0);
      for (let i = 0; i < 2; i++) await recordAuthFailure({ ...health(), accountId: account.id });
      expect(await recordAuthFailure({ ...health(), accountId: account.id })).toEqual({
        authFailures: 3,
        failing: true,
      });
      expect(await storedRow(account.id)).toMatchObject({
        status: 'failing',
        statusReason: AUTH_FAILING_REASON,
      });
      await waitForMail(app, user.email, { subject: `Sender account paused: ${account.fromEmail}` });
    });
  });
});

describe('sender accounts on a public network without a development mailbox', () => {
  let app: FastifyInstance;
  let sink: SMTPServer;
  beforeAll(async () => {
    // System mail goes to a plain SMTP sink, so no development mailbox runs.
    sink = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
    const port = (sink.server.address() as AddressInfo).port;
    app = await createTestApp({
      SENDER_NETWORK: 'public',
      SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      SENDER_DNS_SERVERS: '127.0.0.1:9',
    });
  });
  afterAll(async () => {
    await app.close();
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  });

  it('refuses loopback and private servers, and offers no test mailbox', async () => {
    const user = await createUser(app, { plan: 'professional', status: 'active', periodEnd: future() });
    for (const smtpHost of ['127.0.0.1', '10.0.0.1', '192.168.1.20', '169.254.169.254', 'localhost']) {
      const response = await as(
        app,
        user.cookie,
      )({
        method: 'POST',
        url: '/api/sender-accounts',
        payload: {
          fromName: 'Ada',
          fromEmail: `ada-${slug()}@kanofoods.test`,
          postalAddress: 'Kano Foods Ltd, Kano, Nigeria',
          smtpHost,
          smtpPort: 587,
          smtpSecurity: 'starttls',
          smtpUser: 'ada',
          smtpPassword: 'x',
        },
      });
      expect(response.statusCode, smtpHost).toBe(400);
      expect(response.json().message).toBe('This mail server address is not allowed');
    }
    const dev = await as(app, user.cookie)({ method: 'POST', url: '/api/sender-accounts/dev-mailbox' });
    expect(dev.statusCode).toBe(404);
    const presets = await as(app, user.cookie)({ method: 'GET', url: '/api/sender-accounts/presets' });
    expect(presets.json<SenderPreset[]>().some((p) => p.id === 'tambari-test-mailbox')).toBe(false);
  });
});
