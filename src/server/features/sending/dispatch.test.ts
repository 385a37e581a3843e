import {
  campaignContacts,
  campaignSendDays,
  campaignSenderAccounts,
  emailEvents,
  outboxAll,
  outboxMessages,
  senderAccounts,
  suppressions,
} from '@server/db/schema';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import { sharedGroupCommit } from '@server/lib/group-commit';
import {
  createSendingCampaign,
  createSinkAccount,
  dispatchContext,
  queueForContacts,
} from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { waitForMail } from '@tests/setup/dev-mail';
import { createTestApp } from '@tests/setup/test-app';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addSuppression, hashEmail } from '../suppression/suppression.service';
import { MAX_SEND_ATTEMPTS, recordSent } from './delivery-outcomes';
import { drainOutbox, type SentMessage, takeDueBatch } from './dispatch';
import { recoverExpiredLeases } from './outbox-recovery';

let app: FastifyInstance;
let sink: SmtpSink;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink({
    refuseUsers: ['wrong-password'],
    hardBounce: ['nobody@bounce.test', 'gone@bounce.test'],
    softBounce: ['later@greylist.test'],
  });
});
afterAll(async () => {
  await sink.close();
  await app.close();
});
afterEach(() => resetClock());

async function outboxOf(ids: string[]) {
  return app.services.db.select().from(outboxMessages).where(inArray(outboxMessages.id, ids));
}

describe('dispatch', () => {
  it('sends every queued message once, spread Least Used over the campaign accounts, with compliance headers', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const accounts = await Promise.all([1, 2, 3].map(() => createSinkAccount(app, user.id)));
    const campaign = await createSendingCampaign(app, user.id, accounts);
    const { messageIds, emails } = await queueForContacts(app, campaign, 7);

    const summary = await drainOutbox(dispatchContext(app, sink.port, user.id));
    expect(summary.sent).toBe(7);

    const rows = await outboxOf(messageIds);
    expect(rows.every((r) => r.state === 'sent' && r.sentAt && r.messageId && r.leaseOwner === null)).toBe(
      true,
    );
    const perAccount = accounts.map((a) => rows.filter((r) => r.senderAccountId === a.id).length).sort();
    expect(perAccount).toEqual([2, 2, 3]);
    const stored = await app.services.db
      .select()
      .from(senderAccounts)
      .where(
        inArray(
          senderAccounts.id,
          accounts.map((a) => a.id),
        ),
      );
    expect(stored.map((a) => a.sendsToday).sort()).toEqual([2, 2, 3]);

    for (const row of rows) expect(sink.counts.get(row.messageId!)).toBe(1);
    const mail = sink.messages.find((m) => m.to.includes(emails[0]!))!;
    expect(mail.raw).toMatch(
      /^List-Unsubscribe: <http:\/\/localhost:3000\/u\/[\w-]+>,\s+<mailto:ada-[\w-]+@sender\.test\?subject=unsubscribe%20[\w-]+>/m,
    );
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(mail.raw).toContain('12 Marina Road');

    const events = await app.services.db
      .select()
      .from(emailEvents)
      .where(and(eq(emailEvents.campaignId, campaign.id), eq(emailEvents.type, 'sent')));
    expect(events).toHaveLength(7);
    expect(events.every((e) => e.senderAccountId && e.campaignContactId && e.outboxMessageId)).toBe(true);
  });

  it("two drains of one process share the flush of accepted messages: each sent once, one 'sent' event each", async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const accounts = await Promise.all([1, 2].map(() => createSinkAccount(app, user.id)));
    const campaign = await createSendingCampaign(app, user.id, accounts);
    const { messageIds } = await queueForContacts(app, campaign, 12);
    const base = dispatchContext(app, sink.port, user.id, { batchSize: 6 });
    const flushed: number[] = [];
    const sentCommits = sharedGroupCommit(async (group: SentMessage[]) => {
      flushed.push(group.length);
      await recordSent(base, group);
    });
    const ctx = { ...base, sentCommits };

    const summaries = await Promise.all([drainOutbox(ctx), drainOutbox(ctx)]);
    expect(summaries.reduce((sum, s) => sum + s.sent, 0)).toBe(12);
    expect(flushed.reduce((sum, n) => sum + n, 0)).toBe(12);

    const rows = await outboxOf(messageIds);
    expect(rows.every((r) => r.state === 'sent' && r.leaseOwner === null)).toBe(true);
    for (const row of rows) expect(sink.counts.get(row.messageId!)).toBe(1);
    const events = await app.services.db
      .select({ outboxMessageId: emailEvents.outboxMessageId })
      .from(emailEvents)
      .where(and(eq(emailEvents.campaignId, campaign.id), eq(emailEvents.type, 'sent')));
    expect(events.map((e) => e.outboxMessageId).sort()).toEqual([...messageIds].sort());
  });

  it('sends each copy of a shared body with its own token, the body as the outbox shows it', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const accounts = [await createSinkAccount(app, user.id)];
    const campaign = await createSendingCampaign(app, user.id, accounts);
    const { messageIds, emails } = await queueForContacts(app, campaign, 3);
    // The copies name one shared body and hold none of their own (outbox-bodies.ts).
    const stored = await outboxOf(messageIds);
    expect(new Set(stored.map((m) => m.bodyId)).size).toBe(1);
    expect(stored.every((m) => m.bodyId !== null && m.html === null)).toBe(true);
    const shown = await app.services.db.select().from(outboxAll).where(inArray(outboxAll.id, messageIds));
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    for (const message of shown) {
      const mail = sink.messages.find((m) => m.to.includes(message.toEmail))!;
      expect(emails).toContain(message.toEmail);
      const parsed = await simpleParser(mail.raw);
      const links = [...message.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(link).toContain(message.token);
      for (const link of links) expect(parsed.html).toContain(`href="${link}"`);
      for (const other of shown) if (other !== message) expect(mail.raw).not.toContain(other.token);
    }
  });

  it('fails a copy whose shared body is missing alone: the other copies of the body go out', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const accounts = [await createSinkAccount(app, user.id)];
    const campaign = await createSendingCampaign(app, user.id, accounts);
    const { messageIds, emails } = await queueForContacts(app, campaign, 3);
    // Never expected (a body goes only with its campaign): a row naming a body that is not there.
    await app.services.db
      .update(outboxMessages)
      .set({ bodyId: '00000000-0000-4000-8000-00000000b0d1' })
      .where(eq(outboxMessages.id, messageIds[0]!));
    const summary = await drainOutbox(dispatchContext(app, sink.port, user.id));
    expect(summary.sent).toBe(2);
    const rows = new Map((await outboxOf(messageIds)).map((r) => [r.id, r]));
    expect(rows.get(messageIds[0]!)!.state).not.toBe('sent');
    expect(rows.get(messageIds[0]!)!.lastError).toContain('is missing');
    expect(sink.messages.some((m) => m.to.includes(emails[0]!))).toBe(false);
    for (const id of messageIds.slice(1)) expect(rows.get(id)!.state).toBe('sent');
  });

  it("sends the editor's fragment as a document in a sans-serif font, the footer inside its body", async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const accounts = [await createSinkAccount(app, user.id)];
    const campaign = await createSendingCampaign(app, user.id, accounts);
    const { emails } = await queueForContacts(app, campaign, 1, {
      html: '<p>Hi Lead,</p><p>Quick question.</p>',
    });
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    const mail = sink.messages.find((m) => m.to.includes(emails[0]!))!;
    const parsed = await simpleParser(mail.raw);
    // Unstyled, Outlook would show it in Times New Roman.
    expect(parsed.html).toMatch(
      /^<!DOCTYPE html><html>.*<body style="margin:0;padding:0"><div style="font-family:Arial,Helvetica,sans-serif;[^"]*"><p>Hi Lead,<\/p><p>Quick question\.<\/p>/s,
    );
    expect(parsed.html).toMatch(/12 Marina Road.*<\/div><\/body><\/html>$/s);
  });

  it("never passes an account's daily cap: the rest waits for the account's next day", async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const accounts = await Promise.all(
      [1, 2].map(() => createSinkAccount(app, user.id, { dailyCap: 2, timeZone: 'Africa/Nairobi' })),
    );
    const campaign = await createSendingCampaign(app, user.id, accounts);
    const { messageIds } = await queueForContacts(app, campaign, 6);

    await drainOutbox(dispatchContext(app, sink.port, user.id));
    const rows = await outboxOf(messageIds);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(4);
    const waiting = rows.filter((r) => r.state === 'queued');
    expect(waiting).toHaveLength(2);
    // Midnight in Nairobi (UTC+3) is 21:00 UTC.
    for (const r of waiting) {
      expect(r.sendAfter.getTime()).toBeGreaterThan(now().getTime());
      expect(r.sendAfter.getUTCHours()).toBe(21);
      expect(r.attempts).toBe(0);
    }
  });

  it('applies the warm-up ramp to the cap', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(now());
    const account = await createSinkAccount(app, user.id, {
      dailyCap: 100,
      warmupEnabled: true,
      warmupStart: 3,
      warmupIncrement: 5,
      warmupStartedOn: today,
    });
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds } = await queueForContacts(app, campaign, 5);
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    expect((await outboxOf(messageIds)).filter((r) => r.state === 'sent')).toHaveLength(3);
  });

  it('checks suppression at the moment of sending and skips contacts who left the sequence', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds, emails, contactIds } = await queueForContacts(app, campaign, 3);
    await addSuppression({
      db: app.services.db,
      userId: user.id,
      email: emails[0]!.toUpperCase(),
      reason: 'unsubscribed',
    });
    await app.services.db
      .update(campaignContacts)
      .set({ status: 'replied' })
      .where(eq(campaignContacts.id, contactIds[1]!));

    await drainOutbox(dispatchContext(app, sink.port, user.id));
    const byId = new Map((await outboxOf(messageIds)).map((r) => [r.id, r]));
    expect(byId.get(messageIds[0]!)!.state).toBe('suppressed');
    expect(byId.get(messageIds[1]!)!.state).toBe('cancelled');
    expect(byId.get(messageIds[2]!)!.state).toBe('sent');
    expect(sink.messages.some((m) => m.to.includes(emails[0]!) || m.to.includes(emails[1]!))).toBe(false);
  });

  it('holds an out-of-office contact until the return date, then sends and puts them back in the sequence', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds, contactIds } = await queueForContacts(app, campaign, 1);
    const back = new Date(now().getTime() + 3 * 24 * 60 * 60_000);
    await app.services.db
      .update(campaignContacts)
      .set({ status: 'paused', pausedUntil: back })
      .where(eq(campaignContacts.id, contactIds[0]!));
    const ctx = dispatchContext(app, sink.port, user.id);
    await drainOutbox(ctx);
    let [row] = await outboxOf(messageIds);
    expect(row!.state).toBe('queued');
    expect(row!.sendAfter.getTime()).toBe(back.getTime());
    advanceClock(3 * 24 * 60 * 60_000 + 1_000);
    await drainOutbox(ctx);
    [row] = await outboxOf(messageIds);
    expect(row!.state).toBe('sent');
    const [contact] = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.id, contactIds[0]!));
    expect(contact!.status).toBe('active');
  });

  it('an address unsubscribed while its campaign runs is never mailed again', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const first = await queueForContacts(app, campaign, 1);
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    await addSuppression({
      db: app.services.db,
      userId: user.id,
      email: first.emails[0]!,
      reason: 'unsubscribed',
    });
    // A follow-up step for the same person, queued later in another campaign of the same user.
    const other = await createSendingCampaign(app, user.id, [account]);
    const again = await queueForContacts(app, other, 1, { emails: first.emails });
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    expect((await outboxOf(again.messageIds))[0]!.state).toBe('suppressed');
    expect(sink.messages.filter((m) => m.to.includes(first.emails[0]!))).toHaveLength(1);
  });

  it('a recipient refused for good is a bounce: suppressed, sequence ended, account slot kept', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds, contactIds } = await queueForContacts(app, campaign, 1, {
      emails: ['nobody@bounce.test'],
    });
    // A later step waits: the bounce ends the sequence, so the contact has no next step.
    await app.services.db
      .update(campaignContacts)
      .set({ nextStepAt: new Date(Date.now() + 86_400_000) })
      .where(eq(campaignContacts.id, contactIds[0]!));
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    const [row] = await outboxOf(messageIds);
    expect(row!.state).toBe('bounced');
    expect(row!.lastError).toContain('550');
    const [contact] = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.id, contactIds[0]!));
    expect(contact!.status).toBe('bounced');
    expect(contact!.nextStepAt).toBeNull();
    const suppressed = await app.services.db
      .select()
      .from(suppressions)
      .where(
        and(eq(suppressions.userId, user.id), eq(suppressions.emailHash, hashEmail('nobody@bounce.test'))),
      );
    expect(suppressed[0]?.reason).toBe('bounced');
    const events = await app.services.db
      .select()
      .from(emailEvents)
      .where(eq(emailEvents.outboxMessageId, row!.id));
    expect(events.map((e) => e.type)).toEqual(['bounced']);
  });

  it('a temporary refusal is retried with backoff, then failed with the reason', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds } = await queueForContacts(app, campaign, 1, { emails: ['later@greylist.test'] });
    const ctx = dispatchContext(app, sink.port, user.id);
    await drainOutbox(ctx);
    let [row] = await outboxOf(messageIds);
    expect(row!.state).toBe('queued');
    expect(row!.attempts).toBe(1);
    expect(row!.sendAfter.getTime() - now().getTime()).toBeGreaterThanOrEqual(59_000);
    for (let i = 1; i < MAX_SEND_ATTEMPTS; i++) {
      advanceClock(2 * 60 * 60_000);
      await drainOutbox(ctx);
    }
    [row] = await outboxOf(messageIds);
    expect(row!.state).toBe('failed');
    expect(row!.attempts).toBe(MAX_SEND_ATTEMPTS);
    expect(row!.lastError).toMatch(/451/);
    expect(row!.lastError).toContain('gave up after 5 attempts');
  });

  it('a server refusing connections: retries with a cool-down, then failed with the reason', async () => {
    const closed = await startSmtpSink();
    await closed.close(); // nothing listens on this port any more
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds } = await queueForContacts(app, campaign, 1);
    const ctx = dispatchContext(app, closed.port, user.id);
    for (let i = 0; i < MAX_SEND_ATTEMPTS; i++) {
      await drainOutbox(ctx);
      advanceClock(2 * 60 * 60_000);
    }
    const [row] = await outboxOf(messageIds);
    expect(row!.state).toBe('failed');
    expect(row!.lastError).toMatch(/connect/i);
    const [stored] = await app.services.db
      .select()
      .from(senderAccounts)
      .where(eq(senderAccounts.id, account.id));
    expect(stored!.sendsToday).toBe(0); // slots given back: nothing left
  });

  it('a wrong password marks that account failing (with a notice) and the others carry the campaign', async () => {
    const { user, email } = await createUser(app, { plan: 'enterprise' });
    const bad = await createSinkAccount(app, user.id, { smtpUser: 'wrong-password' });
    const good = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [bad, good]);
    const { messageIds } = await queueForContacts(app, campaign, 6);
    const ctx = dispatchContext(app, sink.port, user.id);
    for (let i = 0; i < 4; i++) {
      await drainOutbox(ctx);
      advanceClock(11 * 60_000); // past the account's cool-down
    }
    const rows = await outboxOf(messageIds);
    expect(rows.every((r) => r.state === 'sent' && r.senderAccountId === good.id)).toBe(true);
    const [badRow] = await app.services.db.select().from(senderAccounts).where(eq(senderAccounts.id, bad.id));
    expect(badRow!.status).toBe('failing');
    expect(badRow!.statusReason).toBeTruthy();
    const notice = await waitForMail(app, email);
    expect(notice.text ?? notice.html).toContain(bad.fromEmail);
  });

  it('waits for the sending window in the recipient time zone', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account], {
      windowStartMinute: 9 * 60,
      windowEndMinute: 10 * 60,
      timezoneMode: 'recipient',
    });
    // Pick the zone whose clock is furthest from 09:00-10:00 right now, so the test never races the window.
    const zone = ['Africa/Lagos', 'Asia/Tokyo', 'America/New_York'].find((tz) => {
      const hour = Number(
        new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', hour12: false }).format(now()),
      );
      return hour < 8 || hour > 10;
    })!;
    const { messageIds } = await queueForContacts(app, campaign, 1, { timeZone: zone });
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    const [row] = await outboxOf(messageIds);
    expect(row!.state).toBe('queued');
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    }).format(row!.sendAfter);
    expect(local).toBe('09:00');
  });

  it("keeps the campaign's own daily cap, and gives back what messages no account took", async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id, { dailyCap: 3 });
    const campaign = await createSendingCampaign(app, user.id, [account], {
      dailyCap: 5,
      timeZone: 'Africa/Lagos',
    });
    const { messageIds } = await queueForContacts(app, campaign, 8);
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    let rows = await outboxOf(messageIds);
    // The account's cap (3) stops it first: the 2 campaign slots taken for the rest were given back.
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(3);
    const [day] = await app.services.db
      .select()
      .from(campaignSendDays)
      .where(eq(campaignSendDays.campaignId, campaign.id));
    expect(day!.sent).toBe(3);

    // A second account arrives: only the campaign's cap (5) is left to stop it.
    const second = await createSinkAccount(app, user.id, { dailyCap: 300 });
    await app.services.db
      .insert(campaignSenderAccounts)
      .values({ campaignId: campaign.id, senderAccountId: second.id });
    await app.services.db
      .update(outboxMessages)
      .set({ sendAfter: now() })
      .where(and(inArray(outboxMessages.id, messageIds), eq(outboxMessages.state, 'queued')));
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    rows = await outboxOf(messageIds);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(5);
    const waiting = rows.filter((r) => r.state === 'queued');
    expect(waiting).toHaveLength(3);
    // Midnight in Lagos (UTC+1) is 23:00 UTC.
    for (const r of waiting) expect(r.sendAfter.getUTCHours()).toBe(23);
  });

  it('keeps the per-domain pace: the rest of the hour waits', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account], { domainPacePerHour: 2 });
    const domain = `pace-${Date.now()}.test`;
    const { messageIds } = await queueForContacts(app, campaign, 4, { domain });
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    const rows = await outboxOf(messageIds);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(2);
    for (const r of rows.filter((r) => r.state === 'queued')) {
      expect(r.sendAfter.getUTCMinutes()).toBe(0);
      expect(r.sendAfter.getTime()).toBeGreaterThan(now().getTime());
    }
  });

  it('spreads sends with the random gap: one message per account, the next after the gap', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const accounts = await Promise.all([1, 2].map(() => createSinkAccount(app, user.id)));
    const campaign = await createSendingCampaign(app, user.id, accounts, {
      gapMinSeconds: 60,
      gapMaxSeconds: 90,
    });
    const { messageIds } = await queueForContacts(app, campaign, 5);
    const ctx = dispatchContext(app, sink.port, user.id);
    await drainOutbox(ctx);
    let rows = await outboxOf(messageIds);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(2);
    const next = Math.min(...rows.filter((r) => r.state === 'queued').map((r) => r.sendAfter.getTime()));
    expect(next - now().getTime()).toBeGreaterThanOrEqual(59_000);
    expect(next - now().getTime()).toBeLessThanOrEqual(91_000);
    advanceClock(91_000);
    await drainOutbox(ctx);
    rows = await outboxOf(messageIds);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(4);
  });

  it('a drain allowed to wait keeps a short gap to the second instead of leaving it to the next wake', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account], {
      gapMinSeconds: 1,
      gapMaxSeconds: 1,
    });
    const { messageIds } = await queueForContacts(app, campaign, 3);
    // Without waiting, a drain sends one and leaves: the account rests for its gap.
    expect((await drainOutbox(dispatchContext(app, sink.port, user.id))).sent).toBe(1);
    // Allowed to wait, the drain stays through the rests and sends the other two.
    const summary = await drainOutbox(dispatchContext(app, sink.port, user.id), { waitForDueMs: 5_000 });
    expect(summary.sent).toBe(2);
    expect((await outboxOf(messageIds)).every((r) => r.state === 'sent')).toBe(true);
  });

  it('pauses an account whose bounce rate over its recent sends passes 5%', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    await queueForContacts(app, campaign, 18);
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    let [row] = await app.services.db.select().from(senderAccounts).where(eq(senderAccounts.id, account.id));
    expect(row!.status).toBe('active');
    // Two bounces in twenty sends: 10%.
    await queueForContacts(app, campaign, 2, { emails: ['nobody@bounce.test', 'gone@bounce.test'] });
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    [row] = await app.services.db.select().from(senderAccounts).where(eq(senderAccounts.id, account.id));
    expect(row!.status).toBe('failing');
    expect(row!.statusReason).toMatch(/bounced/);
  });

  it('recovers a lease whose worker died: the message is sent once', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds } = await queueForContacts(app, campaign, 3);
    const dead = dispatchContext(app, sink.port, user.id, { workerId: 'dead-worker' });
    // The dead worker claimed and allocated the batch, then died before (or while) sending it.
    const taken = await takeDueBatch(dead);
    expect(taken!.toSend.map((t) => t.dispatched.message.id).sort()).toEqual(
      expect.arrayContaining(messageIds.sort()),
    );
    // Claim and allocation are one write: leased, the attempt counted, the account and Message-ID
    // recorded, and (first in their account's lanes) marked as possibly on the wire.
    const claimedRows = await outboxOf(messageIds);
    for (const r of claimedRows) {
      expect(r).toMatchObject({
        state: 'sending',
        phase: 'delivering',
        attempts: 1,
        leaseOwner: 'dead-worker',
      });
      expect(r.senderAccountId).toBe(account.id);
      expect(r.messageId).toBeTruthy();
    }

    // Nobody else may take them while the lease holds.
    const live = dispatchContext(app, sink.port, user.id);
    expect((await drainOutbox(live)).claimed).toBe(0);
    expect((await recoverExpiredLeases({ db: app.services.db, onlyUserId: user.id })).requeued).toBe(0);

    advanceClock(121_000);
    const recovered = await recoverExpiredLeases({ db: app.services.db, onlyUserId: user.id });
    expect(recovered.requeued).toBeGreaterThanOrEqual(3);
    await drainOutbox(live);
    const rows = await outboxOf(messageIds);
    // The dead worker's claim counts as an attempt: a message that keeps killing workers runs out of them.
    expect(rows.every((r) => r.state === 'sent' && r.attempts === 2)).toBe(true);
    for (const r of rows) expect(sink.counts.get(r.messageId!)).toBe(1);
  });

  // Analytics counts 'sent' events as they come (migration 0070): each message must have one at most,
  // however many workers say it was accepted.
  it("a lease that ran out while its message was on the wire: sent by both workers, one 'sent' event", async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds } = await queueForContacts(app, campaign, 4);
    const slow = dispatchContext(app, sink.port, user.id, { workerId: 'slow-worker' });
    const taken = await takeDueBatch(slow);
    const accepted = (ids: string[]) =>
      taken!.toSend
        .filter((t) => ids.includes(t.dispatched.message.id))
        .map((t) => ({ dispatched: t.dispatched, response: '250 2.0.0 Ok: queued late' }));
    const [first, second, ...rest] = messageIds;
    // The slow worker froze mid-delivery past its lease; the messages were recovered for redelivery.
    advanceClock(121_000);
    expect((await recoverExpiredLeases({ db: app.services.db, onlyUserId: user.id })).redelivered).toBe(4);
    // The slow worker wakes before anyone took them again: its word makes them sent.
    await recordSent(slow, accepted([first!]));
    // Another worker sends the rest; the slow worker then reports its own acceptances of them, and a
    // second time of the first one.
    const live = dispatchContext(app, sink.port, user.id);
    await drainOutbox(live);
    await recordSent(slow, accepted([first!, second!, ...rest]));

    const rows = await outboxOf(messageIds);
    expect(rows.every((r) => r.state === 'sent' && r.leaseOwner === null)).toBe(true);
    const events = await app.services.db
      .select({ outboxMessageId: emailEvents.outboxMessageId })
      .from(emailEvents)
      .where(and(eq(emailEvents.campaignId, campaign.id), eq(emailEvents.type, 'sent')));
    expect(events.map((e) => e.outboxMessageId).sort()).toEqual([...messageIds].sort());
  });

  it("a message that left the 'sent' state and was sent again keeps its one 'sent' event", async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds } = await queueForContacts(app, campaign, 2);
    const live = dispatchContext(app, sink.port, user.id);
    await drainOutbox(live);
    // A stale worker's failure overwrote the accepted message (its outcomes are not guarded by the state),
    // and the administrator retried it (retryMessage: a failed message goes back to the queue as new).
    await app.services.db
      .update(outboxMessages)
      .set({ state: 'queued', attempts: 0, lastError: 'retried' })
      .where(inArray(outboxMessages.id, messageIds));
    await drainOutbox(live);

    const rows = await outboxOf(messageIds);
    expect(rows.every((r) => r.state === 'sent' && r.leaseOwner === null && r.phase === null)).toBe(true);
    const events = await app.services.db
      .select({ outboxMessageId: emailEvents.outboxMessageId })
      .from(emailEvents)
      .where(and(eq(emailEvents.campaignId, campaign.id), eq(emailEvents.type, 'sent')));
    expect(events.map((e) => e.outboxMessageId).sort()).toEqual([...messageIds].sort());
  });

  it('leaves campaigns that are not active alone', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account], { status: 'paused' });
    const { messageIds } = await queueForContacts(app, campaign, 2);
    await drainOutbox(dispatchContext(app, sink.port, user.id));
    expect((await outboxOf(messageIds)).every((r) => r.state === 'queued' && r.attempts === 0)).toBe(true);
  });
});
