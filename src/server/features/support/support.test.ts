import { randomUUID } from 'node:crypto';
import { auditLog, contactMessages } from '@server/db/schema/index';
import { CONTACT_MESSAGES, type ContactMessage, type ContactMessageList } from '@shared/support';
import { createUser } from '@tests/factories/users';
import { waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('contact form', () => {
  let app: FastifyInstance;
  let ipCounter = 0;
  // Each test writes from its own address, so the per-address limit of one does not reach another.
  const nextIp = () => `10.20.0.${++ipCounter}`;

  const send = (payload: Record<string, unknown>, options: { ip?: string; cookie?: string } = {}) =>
    as(
      app,
      options.cookie,
    )({
      method: 'POST',
      url: '/api/public/contact-messages',
      payload,
      remoteAddress: options.ip ?? nextIp(),
    });

  const message = (overrides: Record<string, unknown> = {}) => ({
    name: 'Ngozi Eze',
    email: `ngozi-${randomUUID().slice(0, 8)}@example.com`,
    topic: 'support',
    message: 'My sender account says the DKIM record is missing, what should I publish?',
    ...overrides,
  });

  beforeAll(async () => {
    app = await createTestApp({ CONTACT_RATE_LIMIT_MAX: '3' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('stores the message, mails the sender a confirmation and shows it to super admins', async () => {
    const input = message();
    const response = await send(input);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({ message: CONTACT_MESSAGES.sent });

    const mail = await waitForMail(app, input.email, { subject: 'We received your message' });
    expect(mail.text).toContain('DKIM record is missing');

    const admin = await createUser(app, { role: 'super_admin' });
    const list = await as(app, admin.cookie)({ method: 'GET', url: '/api/admin/contact-messages' });
    expect(list.statusCode).toBe(200);
    const body = list.json<ContactMessageList>();
    const found = body.messages.find((m) => m.email === input.email);
    expect(found).toMatchObject({ name: 'Ngozi Eze', topic: 'support', status: 'new', userId: null });
    expect(body.newCount).toBeGreaterThanOrEqual(1);

    const handled = await as(
      app,
      admin.cookie,
    )({
      method: 'PATCH',
      url: `/api/admin/contact-messages/${found!.id}`,
      payload: { status: 'handled' },
    });
    expect(handled.statusCode).toBe(200);
    expect(handled.json<ContactMessage>()).toMatchObject({ status: 'handled' });
    const audit = await app.services.db.select().from(auditLog).where(eq(auditLog.targetId, found!.id));
    expect(audit.map((a) => a.action)).toEqual(['contact_message.handled']);
    const fresh = await as(app, admin.cookie)({ method: 'GET', url: '/api/admin/contact-messages' });
    expect(fresh.json<ContactMessageList>().messages.some((m) => m.id === found!.id)).toBe(false);
  });

  it('keeps who sent it when the sender is signed in', async () => {
    const user = await createUser(app);
    const input = message({ email: user.user.email });
    expect((await send(input, { cookie: user.cookie })).statusCode).toBe(201);
    const [row] = await app.services.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, user.user.email));
    expect(row?.userId).toBe(user.user.id);
  });

  it('drops a robot that fills in the hidden field, answering as for a person', async () => {
    const input = message({ website: 'https://cheap-seo.example' });
    const response = await send(input);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: CONTACT_MESSAGES.sent });
    const rows = await app.services.db
      .select()
      .from(contactMessages)
      .where(eq(contactMessages.email, input.email));
    expect(rows).toHaveLength(0);
  });

  it('validates the fields with messages people understand', async () => {
    const response = await send({ name: '', email: 'not-an-email', topic: 'spam', message: 'hi' });
    expect(response.statusCode).toBe(400);
    const text = response.body;
    expect(text).toContain('Tell us your name');
    expect(text).toContain('Enter a valid email address');
    expect(text).toContain('Write at least 10 characters so we can help');
  });

  it('limits messages per address per hour', async () => {
    const ip = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await send(message(), { ip })).statusCode);
    expect(codes).toEqual([201, 201, 201, 429]);
    const limited = await send(message(), { ip });
    expect(limited.json()).toMatchObject({ message: CONTACT_MESSAGES.rateLimited });
    // Another address is not held back.
    expect((await send(message())).statusCode).toBe(201);
  });

  it('shows the messages only to super admins', async () => {
    const user = await createUser(app);
    expect((await app.inject({ method: 'GET', url: '/api/admin/contact-messages' })).statusCode).toBe(401);
    expect(
      (await as(app, user.cookie)({ method: 'GET', url: '/api/admin/contact-messages' })).statusCode,
    ).toBe(403);
    const admin = await createUser(app, { role: 'super_admin' });
    const missing = await as(
      app,
      admin.cookie,
    )({
      method: 'PATCH',
      url: `/api/admin/contact-messages/${randomUUID()}`,
      payload: { status: 'handled' },
    });
    expect(missing.statusCode).toBe(404);
  });
});
