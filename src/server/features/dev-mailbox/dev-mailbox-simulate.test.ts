import { randomUUID } from 'node:crypto';
import { now } from '@server/lib/clock';
import { INBOUND_MESSAGES, type InboundResult } from '@shared/inbound';
import { contactRow, eventsOf, outboxRow } from '@tests/factories/inbound';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser, type TestUser } from '@tests/factories/users';
import { waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSuppressed } from '../suppression/suppression.service';

let app: FastifyInstance;
let admin: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await createUser(app, { role: 'super_admin' });
});
afterAll(() => app.close());

/** Delivers a message to the development mailbox over SMTP, as the dispatcher would. */
async function deliver(options: {
  from: string;
  to: string;
  subject: string;
  messageId: string;
}): Promise<string> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: app.services.devMailbox!.port,
    secure: false,
    ignoreTLS: true,
  });
  try {
    await transport.sendMail({
      from: options.from,
      to: options.to,
      subject: options.subject,
      text: 'Hello Bola,\nDo you still move goods between Kano and Lagos?',
      messageId: `<${options.messageId}>`,
    });
  } finally {
    transport.close();
  }
  return (await waitForMail(app, options.to, { subject: options.subject })).id;
}

/** A campaign message of a fresh user, caught by the development mailbox. */
async function caughtCampaignMail() {
  const owner = await createUser(app);
  const sent = await createCampaignWithMessage(app, { userId: owner.user.id });
  const devMailId = await deliver({
    from: `Ada Okafor <${sent.account.fromEmail}>`,
    to: sent.contact.email,
    subject: `Partnership ${randomUUID().slice(0, 8)}`,
    messageId: sent.message.messageId!,
  });
  return { owner, ...sent, devMailId };
}

function simulate(devMailId: string, kind: string, cookie = admin.cookie) {
  return as(
    app,
    cookie,
  )({ method: 'POST', url: `/api/admin/dev-mailbox/messages/${devMailId}/simulate`, payload: { kind } });
}

describe('POST /api/admin/dev-mailbox/messages/:id/simulate', () => {
  it('a simulated reply stops the sequence of the campaign that sent the message', async () => {
    const { devMailId, contact, message } = await caughtCampaignMail();
    const response = await simulate(devMailId, 'reply');
    expect(response.statusCode).toBe(200);
    expect(response.json<InboundResult>()).toMatchObject({ kind: 'reply', matched: true });
    expect((await contactRow(app, contact.id)).status).toBe('replied');
    const [event] = await eventsOf(app, message.id);
    expect(event).toMatchObject({ type: 'replied', detail: expect.stringMatching(/^Re: Partnership /) });
  });

  it('a simulated bounce is a 5.1.1 hard bounce: message bounced, address suppressed', async () => {
    const { owner, devMailId, contact, message } = await caughtCampaignMail();
    const response = await simulate(devMailId, 'bounce');
    expect(response.json<InboundResult>()).toMatchObject({ kind: 'bounce_hard', matched: true });
    expect((await outboxRow(app, message.id)).state).toBe('bounced');
    expect((await contactRow(app, contact.id)).status).toBe('bounced');
    expect(await isSuppressed({ db: app.services.db, userId: owner.user.id, email: contact.email })).toBe(
      true,
    );
  });

  it('a simulated out-of-office pauses the contact until the morning after a return 5 days on', async () => {
    const { devMailId, contact } = await caughtCampaignMail();
    const before = now().getTime();
    const response = await simulate(devMailId, 'out_of_office');
    const result = response.json<InboundResult>();
    expect(result).toMatchObject({ kind: 'out_of_office', matched: true });
    // The toast shows this text: dates as people write them, never a machine date.
    expect(result.detail).toMatch(
      /^Out of office until [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2} \d{4}: the contact is paused until /,
    );
    expect(result.detail).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const paused = await contactRow(app, contact.id);
    expect(paused.status).toBe('paused');
    const until = paused.pausedUntil!;
    // 08:00 in Lagos (the campaign's zone), six calendar days on.
    expect(until.toISOString()).toMatch(/T07:00:00\.000Z$/);
    expect(until.getTime()).toBeGreaterThan(before + 5 * 24 * 3_600_000);
    expect(until.getTime()).toBeLessThan(before + 7 * 24 * 3_600_000);
  });

  it('a simulated "unsubscribe" reply unsubscribes and suppresses', async () => {
    const { owner, devMailId, contact } = await caughtCampaignMail();
    const response = await simulate(devMailId, 'unsubscribe');
    expect(response.json<InboundResult>()).toMatchObject({ kind: 'unsubscribe_request', matched: true });
    expect((await contactRow(app, contact.id)).status).toBe('unsubscribed');
    expect(await isSuppressed({ db: app.services.db, userId: owner.user.id, email: contact.email })).toBe(
      true,
    );
  });

  it('says so, changing nothing, for a caught message no campaign sent', async () => {
    const to = `someone-${randomUUID().slice(0, 8)}@example.com`;
    const devMailId = await deliver({
      from: 'Tambari <no-reply@tambari.test>',
      to,
      subject: 'Reset your password',
      messageId: `${randomUUID()}@tambari.test`,
    });
    const response = await simulate(devMailId, 'reply');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      kind: 'reply',
      matched: false,
      detail: INBOUND_MESSAGES.notACampaignMessage,
    });
  });

  it('answers 404 for an unknown message, 400 for an unknown kind, 403 for a plain user', async () => {
    expect((await simulate(randomUUID(), 'reply')).statusCode).toBe(404);
    const { devMailId, contact, owner } = await caughtCampaignMail();
    const badKind = await simulate(devMailId, 'explode');
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().message).toContain('Choose what to simulate');
    // Not even the campaign's owner may simulate: the development mailbox is the operator's.
    expect((await simulate(devMailId, 'bounce', owner.cookie)).statusCode).toBe(403);
    expect((await contactRow(app, contact.id)).status).toBe('active');
  });
});
