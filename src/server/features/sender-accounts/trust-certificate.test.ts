import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { ConnectionTestResult, SenderAccount } from '@shared/sending';
import { createUser, type TestUser } from '@tests/factories/users';
import { type FakeDns, startFakeDns } from '@tests/fakes/dns';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTP_ERROR_MESSAGES } from './smtp-errors';
import { fingerprintOf } from './tls-trust';

/*
 * "Trust this certificate" through the API: a real SMTP server on loopback (an ephemeral port) with a
 * self-signed certificate, as a company's own Postfix has.
 */

const fixture = (name: string) =>
  readFileSync(new URL(`../../../../tests/fixtures/tls/${name}`, import.meta.url), 'utf8');
const CERT = fixture('self-signed.crt');
const FINGERPRINT = fingerprintOf(CERT);
const OTHER_FINGERPRINT = fingerprintOf(fixture('self-signed-renewed.crt'));

describe('trusting a server certificate', () => {
  let app: FastifyInstance;
  let dns: FakeDns;
  let smtp: SMTPServer;
  let port: number;
  let user: TestUser;

  beforeAll(async () => {
    dns = await startFakeDns({});
    app = await createTestApp({ SENDER_DNS_SERVERS: dns.server });
    smtp = new SMTPServer({
      secure: true,
      key: fixture('self-signed.key'),
      cert: CERT,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.password === 'right-password') return callback(null, { user: auth.username });
        callback(Object.assign(new Error('no'), { responseCode: 535 }));
      },
    });
    smtp.on('error', () => {});
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as AddressInfo).port;
    user = await createUser(app, {
      plan: 'professional',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await app.close();
    await dns.close();
  });

  const call = () => as(app, user.cookie);
  const form = (overrides: Record<string, unknown> = {}) => {
    const id = randomUUID().slice(0, 8);
    return {
      fromName: 'Ada',
      fromEmail: `ada-${id}@kanofoods.test`,
      postalAddress: 'Kano Foods Ltd, 3 Bompai Road, Kano',
      smtpHost: '127.0.0.1',
      smtpPort: port,
      smtpSecurity: 'tls',
      smtpUser: `ada-${id}@kanofoods.test`,
      smtpPassword: 'right-password',
      ...overrides,
    };
  };

  it('shows the certificate on a failed test, pins it only if it is the one the user saw, then connects', async () => {
    const created = await call()({ method: 'POST', url: '/api/sender-accounts', payload: form() });
    expect(created.statusCode, created.body).toBe(201);
    const account = created.json<SenderAccount>();
    expect(account.smtpTrustedCertificate).toBeNull();

    const untrusted = await call()({ method: 'POST', url: `/api/sender-accounts/${account.id}/test` });
    expect(untrusted.json<ConnectionTestResult>().smtp).toMatchObject({
      ok: false,
      message: SMTP_ERROR_MESSAGES.certSelfSigned,
      certificate: { fingerprint: FINGERPRINT, subject: expect.stringContaining('CN=mail.kanofoods.test') },
    });

    // A fingerprint the server does not present now is refused: nothing gets pinned behind the user's back.
    const wrong = await call()({
      method: 'POST',
      url: `/api/sender-accounts/${account.id}/trust-certificate`,
      payload: { server: 'smtp', fingerprint: OTHER_FINGERPRINT },
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().message).toMatch(/different certificate/);

    const trusted = await call()({
      method: 'POST',
      url: `/api/sender-accounts/${account.id}/trust-certificate`,
      payload: { server: 'smtp', fingerprint: FINGERPRINT.toLowerCase().replaceAll(':', '') },
    });
    expect(trusted.statusCode, trusted.body).toBe(200);
    expect(trusted.json<SenderAccount>().smtpTrustedCertificate).toMatchObject({ fingerprint: FINGERPRINT });
    expect(trusted.body).not.toContain('BEGIN CERTIFICATE');

    const test = await call()({ method: 'POST', url: `/api/sender-accounts/${account.id}/test` });
    expect(test.json<ConnectionTestResult>().smtp).toEqual({
      ok: true,
      message: expect.stringMatching(/signed in/i),
    });

    // Another port is another server: the pin does not follow it.
    const moved = await call()({
      method: 'PATCH',
      url: `/api/sender-accounts/${account.id}`,
      payload: { ...form({ fromEmail: account.fromEmail, smtpUser: account.smtpUser }), smtpPort: port + 1 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<SenderAccount>().smtpTrustedCertificate).toBeNull();
  });

  it('tests the form as if a certificate were trusted, before the account is saved', async () => {
    const plain = await call()({ method: 'POST', url: '/api/sender-accounts/test', payload: form() });
    expect(plain.json<ConnectionTestResult>().smtp.ok).toBe(false);
    const trusted = await call()({
      method: 'POST',
      url: '/api/sender-accounts/test',
      payload: { ...form(), smtpTrustFingerprint: FINGERPRINT },
    });
    expect(trusted.json<ConnectionTestResult>().smtp.ok).toBe(true);
    const stale = await call()({
      method: 'POST',
      url: '/api/sender-accounts/test',
      payload: { ...form(), smtpTrustFingerprint: OTHER_FINGERPRINT },
    });
    expect(stale.json<ConnectionTestResult>().smtp).toMatchObject({
      ok: false,
      certificate: { fingerprint: FINGERPRINT },
    });
  });
});
