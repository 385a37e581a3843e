import { randomUUID } from 'node:crypto';
import type { DevMail, DevMailSummary } from '@shared/admin';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('development mailbox', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let plainUser: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
    plainUser = await createUser(app);
  });
  afterAll(() => app.close());

  /** Sends a real message over SMTP to the app's mailbox; resolves once the server has accepted it. */
  async function send(subject: string): Promise<void> {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: app.services.devMailbox!.port,
      secure: false,
      ignoreTLS: true,
    });
    try {
      await transport.sendMail({
        from: 'Sender <sender@tambari.test>',
        to: 'Receiver <receiver@tambari.test>',
        subject,
        text: `Plain text of ${subject}`,
        html: `<p>HTML of <b>${subject}</b></p>`,
        headers: { 'X-Tambari-Test': '1' },
      });
    } finally {
      transport.close();
    }
  }

  async function list(cookie = admin.cookie): Promise<DevMailSummary[]> {
    const response = await as(app, cookie)({ method: 'GET', url: '/api/admin/dev-mailbox' });
    expect(response.statusCode).toBe(200);
    return response.json<DevMailSummary[]>();
  }

  async function waitInList(subject: string): Promise<DevMailSummary> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const found = (await list()).find((m) => m.subject === subject);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`"${subject}" never reached the mailbox`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('keeps a message sent over SMTP and lists the newest first', async () => {
    const older = `older ${randomUUID()}`;
    const newer = `newer ${randomUUID()}`;
    await send(older);
    await waitInList(older);
    await send(newer);
    await waitInList(newer);

    const messages = await list();
    const olderIndex = messages.findIndex((m) => m.subject === older);
    const newerIndex = messages.findIndex((m) => m.subject === newer);
    expect(newerIndex).toBeGreaterThanOrEqual(0);
    expect(newerIndex).toBeLessThan(olderIndex);
    expect(messages[newerIndex]).toMatchObject({
      from: expect.stringContaining('sender@tambari.test'),
      to: expect.stringContaining('receiver@tambari.test'),
    });
    const times = messages.map((m) => Date.parse(m.receivedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('shows one message with its HTML, text and headers', async () => {
    const subject = `detail ${randomUUID()}`;
    await send(subject);
    const summary = await waitInList(subject);

    const response = await as(
      app,
      admin.cookie,
    )({ method: 'GET', url: `/api/admin/dev-mailbox/${summary.id}` });
    expect(response.statusCode).toBe(200);
    const mail = response.json<DevMail>();
    expect(mail).toMatchObject({ id: summary.id, subject });
    expect(mail.html).toContain(`<b>${subject}</b>`);
    expect(mail.text).toContain(`Plain text of ${subject}`);
    expect(mail.headers).toEqual(expect.arrayContaining([{ key: 'X-Tambari-Test', value: '1' }]));
    expect(mail.headers.find((h) => h.key === 'Subject')?.value).toBe(subject);
  });

  it('answers 404 for an unknown id and 4xx for an id that is not a uuid', async () => {
    const unknown = await as(
      app,
      admin.cookie,
    )({ method: 'GET', url: `/api/admin/dev-mailbox/${randomUUID()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toEqual(expect.any(String));

    const malformed = await as(
      app,
      admin.cookie,
    )({ method: 'GET', url: "/api/admin/dev-mailbox/1'%20or%201=1" });
    expect(malformed.statusCode).toBeGreaterThanOrEqual(400);
    expect(malformed.statusCode).toBeLessThan(500);
  });

  it('is closed to a plain user', async () => {
    const subject = `private ${randomUUID()}`;
    await send(subject);
    const summary = await waitInList(subject);
    const listing = await as(app, plainUser.cookie)({ method: 'GET', url: '/api/admin/dev-mailbox' });
    expect(listing.statusCode).toBe(403);
    expect(listing.body).not.toContain(subject);
    const detail = await as(
      app,
      plainUser.cookie,
    )({ method: 'GET', url: `/api/admin/dev-mailbox/${summary.id}` });
    expect(detail.statusCode).toBe(403);
    expect(detail.body).not.toContain(subject);
    const clear = await as(app, plainUser.cookie)({ method: 'DELETE', url: '/api/admin/dev-mailbox' });
    expect(clear.statusCode).toBe(403);
    expect((await list()).some((m) => m.subject === subject)).toBe(true);
  });

  it('empties the mailbox on DELETE', async () => {
    const subject = `doomed ${randomUUID()}`;
    await send(subject);
    const summary = await waitInList(subject);

    const response = await as(app, admin.cookie)({ method: 'DELETE', url: '/api/admin/dev-mailbox' });
    expect(response.statusCode).toBe(200);
    expect((await list()).some((m) => m.subject === subject)).toBe(false);
    const gone = await as(app, admin.cookie)({ method: 'GET', url: `/api/admin/dev-mailbox/${summary.id}` });
    expect(gone.statusCode).toBe(404);
  });
});
