import { randomUUID } from 'node:crypto';
import { campaignContacts, inboundMessages } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { INBOUND_MESSAGES } from '@shared/inbound';
import {
  answerTo,
  contactRow,
  eventsOf,
  inboundFixture,
  inboundFor,
  outboxRow,
} from '@tests/factories/inbound';
import { addOutboxMessage, createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSuppressed } from '../suppression/suppression.service';
import { processInboundMessage } from './process-inbound';
import { buildSimulatedMail } from './simulated-mail';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** A sent message with a queued follow-up, owned by a fresh user. */
async function sentWithFollowUp() {
  const owner = await createUser(app);
  const sent = await createCampaignWithMessage(app, { userId: owner.user.id });
  const followUp = await addOutboxMessage(app, {
    campaign: sent.campaign,
    contactId: sent.contact.id,
    email: sent.contact.email,
    state: 'queued',
  });
  // Waiting for a later step: a reply, bounce or unsubscribe must clear it (the next-step index holds
  // every contact with one, whatever its status).
  await app.services.db
    .update(campaignContacts)
    .set({ nextStepAt: new Date(now().getTime() + 86_400_000) })
    .where(eq(campaignContacts.id, sent.contact.id));
  return { owner, ...sent, followUp };
}

function process(raw: string, accountId: string) {
  return processInboundMessage({ db: app.services.db, log: app.log, raw, senderAccountId: accountId });
}

describe('processInboundMessage', () => {
  it('a reply stops the sequence: contact replied, follow-up cancelled, one event, stored once', async () => {
    const { message, contact, account, followUp, campaign } = await sentWithFollowUp();
    const raw = answerTo('human-reply.eml', { messageId: message.messageId! });

    const result = await process(raw, account.id);
    expect(result).toMatchObject({ kind: 'reply', matched: true });
    expect(result.detail).toContain('sequence stopped');

    const after = await contactRow(app, contact.id);
    expect(after.status).toBe('replied');
    expect(after.statusChangedAt).not.toBeNull();
    expect(after.nextStepAt).toBeNull();
    expect((await outboxRow(app, followUp.id)).state).toBe('cancelled');
    expect((await outboxRow(app, message.id)).state).toBe('sent');
    const events = await eventsOf(app, message.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'replied',
      userId: campaign.userId,
      campaignId: campaign.id,
      stepId: message.stepId,
      campaignContactId: contact.id,
      senderAccountId: account.id,
      detail: 'Re: Quick question about your deliveries',
    });
    const stored = await inboundFor(app, message.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      kind: 'reply',
      campaignId: campaign.id,
      fromAddress: 'tunde@ibadan-foods.test',
    });
    expect(stored[0]!.textBody).toContain('can we talk Tuesday?');
    expect(stored[0]!.textBody).not.toContain('Do you still move goods');

    // Polled again (the same Message-ID in the same mailbox): nothing new.
    const again = await process(raw, account.id);
    expect(again).toMatchObject({ kind: 'reply', matched: true, detail: INBOUND_MESSAGES.duplicate });
    expect(await eventsOf(app, message.id)).toHaveLength(1);
    expect(await inboundFor(app, message.id)).toHaveLength(1);
  });

  it('matches a reply whose In-Reply-To is another reply, through References', async () => {
    const { message, contact, account } = await sentWithFollowUp();
    const raw = answerTo('reply-quoting-ooo.eml', { messageId: message.messageId! });
    expect(await process(raw, account.id)).toMatchObject({ kind: 'reply', matched: true });
    expect((await contactRow(app, contact.id)).status).toBe('replied');
  });

  it('matches Message-IDs whatever their case', async () => {
    const { message, contact, account } = await sentWithFollowUp();
    const raw = answerTo('pidgin-reply.eml', { messageId: message.messageId!.toUpperCase() });
    expect(await process(raw, account.id)).toMatchObject({ kind: 'reply', matched: true });
    expect((await contactRow(app, contact.id)).status).toBe('replied');
  });

  it('an out-of-office pauses the contact until the morning after the return date, in their zone', async () => {
    const { message, contact, account, followUp } = await sentWithFollowUp();
    await app.services.db
      .update(campaignContacts)
      .set({ timeZone: 'Africa/Lagos' })
      .where(eq(campaignContacts.id, contact.id));
    // Written on 24 November 2026: "I will be back on Monday 7 December."
    const result = await process(answerTo('outlook-ooo.eml', { messageId: message.messageId! }), account.id);
    expect(result).toMatchObject({ kind: 'out_of_office', matched: true });
    expect(result.detail).toContain('Mon 7 Dec 2026');

    const paused = await contactRow(app, contact.id);
    expect(paused.status).toBe('paused');
    // 8 December, 08:00 in Lagos (UTC+1).
    expect(paused.pausedUntil?.toISOString()).toBe('2026-12-08T07:00:00.000Z');
    const follow = await outboxRow(app, followUp.id);
    expect(follow.state).toBe('queued');
    expect(follow.sendAfter.getTime()).toBeGreaterThanOrEqual(paused.pausedUntil!.getTime());
    const [event] = await eventsOf(app, message.id);
    expect(event).toMatchObject({
      type: 'out_of_office',
      metadata: { returnDate: '2026-12-07', pausedUntil: '2026-12-08T07:00:00.000Z' },
    });
  });

  it('an out-of-office without a date pauses for a week', async () => {
    const { message, contact, account } = await sentWithFollowUp();
    const before = now().getTime();
    await process(answerTo('ooo-no-date.eml', { messageId: message.messageId! }), account.id);
    const after = now().getTime();
    const week = 7 * 24 * 60 * 60 * 1000;
    const pausedUntil = (await contactRow(app, contact.id)).pausedUntil!.getTime();
    expect(pausedUntil).toBeGreaterThanOrEqual(before + week);
    expect(pausedUntil).toBeLessThanOrEqual(after + week);
  });

  it('a hard bounce (DSN) bounces the message, ends the contact and suppresses the address', async () => {
    const { owner, message, contact, account, followUp } = await sentWithFollowUp();
    const result = await process(
      answerTo('gmail-dsn-hard.eml', { messageId: message.messageId! }),
      account.id,
    );
    expect(result).toMatchObject({ kind: 'bounce_hard', matched: true });
    expect(result.detail).toContain('5.1.1');

    expect((await outboxRow(app, message.id)).state).toBe('bounced');
    expect((await contactRow(app, contact.id)).status).toBe('bounced');
    expect((await outboxRow(app, followUp.id)).state).toBe('cancelled');
    expect((await contactRow(app, contact.id)).nextStepAt).toBeNull();
    expect(await isSuppressed({ db: app.services.db, userId: owner.user.id, email: contact.email })).toBe(
      true,
    );
    const [event] = await eventsOf(app, message.id);
    expect(event).toMatchObject({
      type: 'bounced',
      metadata: { hard: true, statusCode: '5.1.1', recipient: 'tunde.nobody@example.ng' },
    });
    expect(event!.detail).toContain('does not exist');
  });

  it('matches a bounce that quotes no Message-ID by the address it names', async () => {
    const owner = await createUser(app);
    const sent = await createCampaignWithMessage(app, { userId: owner.user.id, email: 'kemi@example.net' });
    const raw = inboundFixture('qmail-bounce.eml')
      .replace(/^Message-ID: <orig-qmail[^>]+>\n/m, '')
      .replace(/^Message-ID: <[^>]+>/m, `Message-ID: <${randomUUID()}@mail.example.net>`);
    expect(await process(raw, sent.account.id)).toMatchObject({ kind: 'bounce_hard', matched: true });
    expect((await contactRow(app, sent.contact.id)).status).toBe('bounced');
  });

  it('soft bounces are recorded without suppression; the third in a week is hard', async () => {
    const { owner, message, contact, account } = await sentWithFollowUp();
    const softBounce = () =>
      process(answerTo('postfix-dsn-mailbox-full.eml', { messageId: message.messageId! }), account.id);

    for (const _ of [1, 2]) {
      const result = await softBounce();
      expect(result).toMatchObject({ kind: 'bounce_soft', matched: true });
      expect((await contactRow(app, contact.id)).status).toBe('active');
      expect(await isSuppressed({ db: app.services.db, userId: owner.user.id, email: contact.email })).toBe(
        false,
      );
    }
    expect((await eventsOf(app, message.id)).map((e) => e.metadata)).toEqual([
      expect.objectContaining({ hard: false, statusCode: '5.2.2' }),
      expect.objectContaining({ hard: false, statusCode: '5.2.2' }),
    ]);

    const third = await softBounce();
    expect(third).toMatchObject({ kind: 'bounce_hard', matched: true });
    expect(third.detail).toContain('repeated soft bounces');
    expect((await contactRow(app, contact.id)).status).toBe('bounced');
    expect(await isSuppressed({ db: app.services.db, userId: owner.user.id, email: contact.email })).toBe(
      true,
    );
    const stored = await inboundFor(app, message.id);
    expect(stored.map((s) => s.kind).sort()).toEqual(['bounce_hard', 'bounce_soft', 'bounce_soft']);
  });

  it('a complaint suppresses (permanently) and unsubscribes', async () => {
    const { owner, message, contact, account, followUp } = await sentWithFollowUp();
    const result = await process(
      answerTo('arf-complaint.eml', { messageId: message.messageId! }),
      account.id,
    );
    expect(result).toMatchObject({ kind: 'complaint', matched: true });
    expect((await contactRow(app, contact.id)).status).toBe('unsubscribed');
    expect((await contactRow(app, contact.id)).nextStepAt).toBeNull();
    expect((await outboxRow(app, followUp.id)).state).toBe('cancelled');
    expect(await isSuppressed({ db: app.services.db, userId: owner.user.id, email: contact.email })).toBe(
      true,
    );
    expect((await eventsOf(app, message.id)).map((e) => e.type)).toEqual(['complained']);
  });

  it('an "unsubscribe" reply and the List-Unsubscribe mailto both unsubscribe, recorded once', async () => {
    const { owner, message, contact, account, followUp, token } = await sentWithFollowUp();
    const reply = await process(
      answerTo('unsubscribe-reply.eml', { messageId: message.messageId! }),
      account.id,
    );
    expect(reply).toMatchObject({ kind: 'unsubscribe_request', matched: true });
    expect((await contactRow(app, contact.id)).status).toBe('unsubscribed');
    expect((await outboxRow(app, followUp.id)).state).toBe('cancelled');
    expect(await isSuppressed({ db: app.services.db, userId: owner.user.id, email: contact.email })).toBe(
      true,
    );

    const mailto = await process(
      answerTo('unsubscribe-mailto.eml', { messageId: 'unused', token }),
      account.id,
    );
    expect(mailto).toMatchObject({ kind: 'unsubscribe_request', matched: true });
    expect((await eventsOf(app, message.id)).map((e) => e.type)).toEqual(['unsubscribed']);
  });

  it('the List-Unsubscribe mailto alone unsubscribes by its token', async () => {
    const { message, contact, account, token } = await sentWithFollowUp();
    const result = await process(
      answerTo('unsubscribe-mailto.eml', { messageId: 'unused', token }),
      account.id,
    );
    expect(result).toMatchObject({ kind: 'unsubscribe_request', matched: true });
    expect((await contactRow(app, contact.id)).status).toBe('unsubscribed');
    expect(await eventsOf(app, message.id)).toEqual([
      expect.objectContaining({ type: 'unsubscribed', metadata: { via: 'mailto' } }),
    ]);
  });

  it('a reply after an unsubscribe is recorded but does not revive or overwrite the contact', async () => {
    const { message, contact, account } = await sentWithFollowUp();
    await process(answerTo('unsubscribe-reply.eml', { messageId: message.messageId! }), account.id);
    const result = await process(answerTo('french-reply.eml', { messageId: message.messageId! }), account.id);
    expect(result).toMatchObject({ kind: 'reply', matched: true });
    expect(result.detail).toContain('already ended');
    expect((await contactRow(app, contact.id)).status).toBe('unsubscribed');
  });

  it('mail that answers nothing of ours is noted by its id only, without effects', async () => {
    const { account } = await sentWithFollowUp();
    const raw = answerTo('human-reply.eml', { messageId: `${randomUUID()}@elsewhere.test` });
    const result = await process(raw, account.id);
    expect(result).toEqual({ kind: 'reply', matched: false, detail: INBOUND_MESSAGES.unmatched });
    const [stored] = await app.services.db
      .select()
      .from(inboundMessages)
      .where(and(eq(inboundMessages.senderAccountId, account.id)));
    expect(stored).toMatchObject({ kind: 'reply', outboxMessageId: null, campaignId: null });
    // Someone else's conversation: nothing of who wrote it or what it says is kept.
    expect(stored).toMatchObject({ fromAddress: null, subject: null, textBody: null, details: {} });
    expect(stored!.messageIdHeader).toBeTruthy();
    // Seen again (a later poll), it is skipped as a duplicate.
    expect((await process(raw, account.id)).detail).toBe(INBOUND_MESSAGES.duplicate);
  });

  it("one user's mailbox never touches another user's campaign", async () => {
    const victim = await sentWithFollowUp();
    const attacker = await sentWithFollowUp();
    const raw = answerTo('gmail-dsn-hard.eml', { messageId: victim.message.messageId! });

    const result = await process(raw, attacker.account.id);
    expect(result).toMatchObject({ matched: false, detail: INBOUND_MESSAGES.unmatched });
    expect((await contactRow(app, victim.contact.id)).status).toBe('active');
    expect((await outboxRow(app, victim.message.id)).state).toBe('sent');
    expect(await eventsOf(app, victim.message.id)).toHaveLength(0);
    expect(
      await isSuppressed({ db: app.services.db, userId: victim.owner.user.id, email: victim.contact.email }),
    ).toBe(false);
    // The mailbox token route is scoped the same way.
    const mailto = answerTo('unsubscribe-mailto.eml', { messageId: 'unused', token: victim.token });
    expect(await process(mailto, attacker.account.id)).toMatchObject({ matched: false });
    expect((await contactRow(app, victim.contact.id)).status).toBe('active');

    // An account id with someone else's user id is unknown.
    await expect(
      processInboundMessage({
        db: app.services.db,
        log: app.log,
        raw,
        senderAccountId: victim.account.id,
        userId: attacker.owner.user.id,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('each simulated mail is classified and applied like real mail', async () => {
    const cases = [
      ['reply', 'reply', 'replied'],
      ['out_of_office', 'out_of_office', 'paused'],
      ['bounce', 'bounce_hard', 'bounced'],
      ['unsubscribe', 'unsubscribe_request', 'unsubscribed'],
    ] as const;
    for (const [simulated, kind, status] of cases) {
      const { message, contact, account } = await sentWithFollowUp();
      const raw = buildSimulatedMail({
        kind: simulated,
        at: now(),
        original: {
          messageId: message.messageId!,
          subject: 'Partnership with Kano Foods — “quick” question',
          from: account.fromEmail,
          to: contact.email,
          sentAt: message.sentAt!,
          text: 'Hello\r\nInjected: header\r\n',
        },
      });
      const result = await process(raw, account.id);
      expect(result, simulated).toMatchObject({ kind, matched: true });
      expect((await contactRow(app, contact.id)).status, simulated).toBe(status);
    }
  });
});
