import { campaignContacts, emailEvents, outboxMessages, suppressions } from '@server/db/schema/index';
import { TRACKING_PATHS } from '@shared/sending';
import { addOutboxMessage, createCampaignWithMessage, newTestToken } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmail, isSuppressed } from '../suppression/suppression.service';

const ONE_CLICK = {
  method: 'POST' as const,
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    'user-agent': 'Google-One-Click-Unsubscribe',
  },
  payload: 'List-Unsubscribe=One-Click',
};

describe('unsubscribe page and one-click', () => {
  let app: FastifyInstance;
  let userId: string;
  beforeAll(async () => {
    app = await createTestApp();
    userId = (await createUser(app)).user.id;
  });
  afterAll(() => app.close());

  const db = () => app.services.db;

  async function contactOf(id: string) {
    const [row] = await db().select().from(campaignContacts).where(eq(campaignContacts.id, id));
    return row!;
  }
  async function stateOf(id: string) {
    const [row] = await db()
      .select({ state: outboxMessages.state })
      .from(outboxMessages)
      .where(eq(outboxMessages.id, id));
    return row!.state;
  }
  async function unsubscribeEvents(contactId: string) {
    return db()
      .select()
      .from(emailEvents)
      .where(and(eq(emailEvents.campaignContactId, contactId), eq(emailEvents.type, 'unsubscribed')));
  }

  it('shows a confirm page with the address partly hidden and the sender, changing nothing', async () => {
    const { token, contact } = await createCampaignWithMessage(app, {
      userId,
      email: 'bola.adeyemi@kanofoods.example.com',
      fromName: 'Ada <Okafor> & Sons',
    });
    const response = await app.inject({ method: 'GET', url: TRACKING_PATHS.unsubscribe(token) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(response.headers['x-frame-options']).toBe('DENY');
    const html = response.body;
    expect(html).toContain('b***@kanofoods.example.com');
    expect(html).not.toContain('bola.adeyemi');
    expect(html).toContain('Ada &#60;Okafor&#62; &#38; Sons');
    expect(html).not.toContain('<Okafor>');
    expect(html).toContain(`<form method="post" action="/u/${token}">`);
    expect(html).toContain('<button type="submit">Unsubscribe</button>');
    expect(html).toContain('<html lang="en">');
    // Nothing the CSP would block: no inline script or style.
    expect(html).not.toMatch(/<script|style=|<style/);

    expect((await contactOf(contact.id)).status).toBe('active');
    expect(await isSuppressed({ db: db(), userId, email: contact.email })).toBe(false);
    expect(await unsubscribeEvents(contact.id)).toEqual([]);
  });

  it('serves the pages’ stylesheet from this host', async () => {
    const response = await app.inject({ method: 'GET', url: '/t/page.css' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(response.body).toContain('button');
  });

  it('unsubscribes on a one-click POST with no cookie and no Origin, and only once', async () => {
    const { token, contact, campaign, message, account } = await createCampaignWithMessage(app, { userId });
    const followUp = await addOutboxMessage(app, { campaign, contactId: contact.id, email: contact.email });
    const otherContact = await createCampaignWithMessage(app, { userId });
    const otherQueued = await addOutboxMessage(app, {
      campaign: otherContact.campaign,
      contactId: otherContact.contact.id,
      email: otherContact.contact.email,
    });
    const stranger = await createUser(app);
    // Waiting for its next step: an unsubscribe ends the sequence, so it has none (the next-step index
    // keeps every contact with one, whatever its status).
    await db()
      .update(campaignContacts)
      .set({ nextStepAt: new Date(Date.now() + 86_400_000) })
      .where(eq(campaignContacts.id, contact.id));

    const first = await app.inject({ ...ONE_CLICK, url: TRACKING_PATHS.unsubscribe(token) });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('You are unsubscribed');

    expect(await isSuppressed({ db: db(), userId, email: contact.email })).toBe(true);
    expect(await isSuppressed({ db: db(), userId: stranger.user.id, email: contact.email })).toBe(false);
    const [entry] = await db()
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.userId, userId), eq(suppressions.emailHash, hashEmail(contact.email))));
    expect(entry).toMatchObject({ reason: 'unsubscribed', source: 'unsubscribe_link' });

    const ended = await contactOf(contact.id);
    expect(ended.status).toBe('unsubscribed');
    expect(ended.statusChangedAt).toBeInstanceOf(Date);
    expect(ended.nextStepAt).toBeNull();
    expect(await stateOf(followUp.id)).toBe('cancelled');
    expect(await stateOf(message.id)).toBe('sent');
    expect(await stateOf(otherQueued.id)).toBe('queued');
    expect((await contactOf(otherContact.contact.id)).status).toBe('active');

    const events = await unsubscribeEvents(contact.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      userId,
      campaignId: campaign.id,
      stepId: message.stepId,
      outboxMessageId: message.id,
      senderAccountId: account.id,
      userAgent: 'Google-One-Click-Unsubscribe',
      metadata: { via: 'one_click' },
    });

    const second = await app.inject({ ...ONE_CLICK, url: TRACKING_PATHS.unsubscribe(token) });
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(await unsubscribeEvents(contact.id)).toHaveLength(1);
    expect((await contactOf(contact.id)).statusChangedAt).toEqual(ended.statusChangedAt);

    const page = await app.inject({ method: 'GET', url: TRACKING_PATHS.unsubscribe(token) });
    expect(page.body).toContain('You are unsubscribed');
    expect(page.body).not.toContain('<form');
  });

  it('records exactly one event when two unsubscribes of the same person arrive at once', async () => {
    const { token, contact } = await createCampaignWithMessage(app, { userId });
    const responses = await Promise.all([
      app.inject({ ...ONE_CLICK, url: TRACKING_PATHS.unsubscribe(token) }),
      app.inject({ ...ONE_CLICK, url: TRACKING_PATHS.unsubscribe(token) }),
      app.inject({ method: 'POST', url: TRACKING_PATHS.unsubscribe(token) }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await unsubscribeEvents(contact.id)).toHaveLength(1);
  });

  it("accepts the confirm page's own form post and RFC 8058's multipart body", async () => {
    const fromPage = await createCampaignWithMessage(app, { userId });
    const page = await app.inject({
      method: 'POST',
      url: TRACKING_PATHS.unsubscribe(fromPage.token),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000' },
      payload: 'confirm=yes',
    });
    expect(page.statusCode).toBe(200);
    expect((await unsubscribeEvents(fromPage.contact.id))[0]?.metadata).toEqual({ via: 'page' });

    const multipart = await createCampaignWithMessage(app, { userId });
    const boundary = '----tambari42';
    const response = await app.inject({
      method: 'POST',
      url: TRACKING_PATHS.unsubscribe(multipart.token),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(response.statusCode).toBe(200);
    expect((await contactOf(multipart.contact.id)).status).toBe('unsubscribed');
    expect((await unsubscribeEvents(multipart.contact.id))[0]?.metadata).toEqual({ via: 'one_click' });
  });

  it('answers a forged or malformed token with a plain 404 page and changes nothing', async () => {
    for (const token of [newTestToken(), 'short', "x'%20OR%201=1"]) {
      for (const method of ['GET', 'POST'] as const) {
        const response = await app.inject({
          method,
          url: `/u/${token}`,
          ...(method === 'POST' ? { headers: ONE_CLICK.headers, payload: ONE_CLICK.payload } : {}),
        });
        expect(response.statusCode, `${method} ${token}`).toBe(404);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.body).toContain('This unsubscribe link is not valid');
        expect(response.body).not.toContain(token);
      }
    }
  });

  it('exempts only the unsubscribe POST from the cross-site check', async () => {
    const { token, contact } = await createCampaignWithMessage(app, { userId });
    const crossSite = await app.inject({
      ...ONE_CLICK,
      url: TRACKING_PATHS.unsubscribe(token),
      headers: { ...ONE_CLICK.headers, origin: 'https://mail.example.net' },
    });
    expect(crossSite.statusCode).toBe(200);
    expect((await contactOf(contact.id)).status).toBe('unsubscribed');

    const elsewhere = await app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { origin: 'https://evil.example' },
    });
    expect(elsewhere.statusCode).toBe(403);
  });
});
