import { emailEvents, outboxMessages, senderAccounts } from '@server/db/schema';
import { advanceClock, resetClock } from '@server/lib/clock';
import {
  createSendingCampaign,
  createSinkAccount,
  dispatchContext,
  queueForContacts,
} from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { createTestApp } from '@tests/setup/test-app';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchContext } from './dispatch';
import { drainOutbox } from './dispatch';
import type { DispatchStage } from './dispatch-faults';
import { recoverExpiredLeases } from './outbox-recovery';
import { ABANDONED_NOTE, MAX_SEND_ATTEMPTS } from './retry-policy';

/*
 * Failure isolation (hardening issue, item 1): one tenant's bad message, whatever stage it throws at,
 * never holds up another tenant's mail sharing its batches. It waits and is retried alone, and after
 * MAX_SEND_ATTEMPTS it is failed with a reason the user can read. Nothing is sent twice.
 */

let app: FastifyInstance;
let sink: SmtpSink;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  await app.close();
});
afterEach(() => resetClock());

async function rowsOf(ids: string[]) {
  return app.services.db.select().from(outboxMessages).where(inArray(outboxMessages.id, ids));
}

async function twoTenants(options: { badCampaign?: Parameters<typeof createSendingCampaign>[3] } = {}) {
  const a = await createUser(app, { plan: 'enterprise' });
  const b = await createUser(app, { plan: 'enterprise' });
  const accountA = await createSinkAccount(app, a.user.id);
  const accountB = await createSinkAccount(app, b.user.id);
  const campaignA = await createSendingCampaign(app, a.user.id, [accountA], options.badCampaign);
  const campaignB = await createSendingCampaign(app, b.user.id, [accountB]);
  const tenantA = await queueForContacts(app, campaignA, 3);
  const tenantB = await queueForContacts(app, campaignB, 30);
  return { a, b, tenantA, tenantB };
}

/** Drains, and after each drain lets the clock pass every backoff and recovers dead leases, until calm. */
async function drainUntilSettled(ctx: DispatchContext, ids: string[]) {
  for (let round = 0; round < 3 * MAX_SEND_ATTEMPTS; round++) {
    await drainOutbox(ctx);
    const rows = await rowsOf(ids);
    if (rows.every((r) => r.state !== 'queued' && r.state !== 'sending')) return rows;
    advanceClock(2 * 60 * 60_000);
    for (const userId of new Set(rows.map((r) => r.userId))) {
      await recoverExpiredLeases({ db: app.services.db, onlyUserId: userId });
    }
  }
  return rowsOf(ids);
}

const STAGES: DispatchStage[][] = [
  ['schedule'],
  ['suppression'],
  ['allocate'],
  ['compose'],
  ['send'],
  ['send', 'record'],
];

describe('one message’s failure is only its own', () => {
  for (const stages of STAGES) {
    it(`a message that throws at ${stages.join(' then ')} waits and fails alone; the other tenant’s batch-mates all go`, async () => {
      const { a, b, tenantA, tenantB } = await twoTenants();
      const bad = tenantA.messageIds[1]!;
      const ctx = dispatchContext(app, sink.port, a.user.id, { batchSize: 10 });
      ctx.onlyUserId = [a.user.id, b.user.id];
      ctx.failpoint = (stage, message) => {
        if (message.id === bad && stages.includes(stage)) throw new Error(`injected ${stage} fault`);
      };

      const first = await drainOutbox(ctx);
      expect(first.sent).toBe(32);
      const bRows = await rowsOf(tenantB.messageIds);
      expect(bRows.every((r) => r.state === 'sent')).toBe(true);

      const rows = await drainUntilSettled(ctx, [...tenantA.messageIds, ...tenantB.messageIds]);
      const badRow = rows.find((r) => r.id === bad)!;
      expect(badRow.state).toBe('failed');
      // A send that fails is an SMTP failure: its reason is the server's, in plain words (smtp-errors.ts).
      if (stages.includes('record')) expect(badRow.lastError).toMatch(ABANDONED_NOTE);
      else if (stages[0] !== 'send') expect(badRow.lastError).toMatch(`injected ${stages[0]} fault`);
      expect(badRow.lastError).toMatch(/gave up/);
      expect(badRow.attempts).toBeLessThanOrEqual(MAX_SEND_ATTEMPTS);
      const failedEvents = await app.services.db
        .select()
        .from(emailEvents)
        .where(eq(emailEvents.outboxMessageId, bad));
      expect(failedEvents.filter((e) => e.type === 'failed')).toHaveLength(1);

      for (const row of rows.filter((r) => r.id !== bad)) {
        expect(row.state).toBe('sent');
        expect(sink.counts.get(row.messageId!)).toBe(1);
      }
      expect(sink.messages.some((m) => m.to.includes(badRow.toEmail))).toBe(false);
    });
  }

  it('a campaign with a time zone the runtime does not know: its messages fail with the reason, the other tenant’s all go at once', async () => {
    const { a, b, tenantA, tenantB } = await twoTenants({
      badCampaign: { timeZone: 'Not/AZone', timezoneMode: 'fixed' },
    });
    const ctx = dispatchContext(app, sink.port, a.user.id, { batchSize: 10 });
    ctx.onlyUserId = [a.user.id, b.user.id];

    const first = await drainOutbox(ctx);
    expect(first.sent).toBe(30);
    const aRows = await rowsOf(tenantA.messageIds);
    // Not left leased for recovery to hand back as it was: each waits with its reason.
    expect(aRows.every((r) => r.state === 'queued' && r.leaseOwner === null)).toBe(true);
    expect(aRows[0]!.lastError).toMatch(/^Could not work out when to send it: .*Not\/AZone/);

    const rows = await drainUntilSettled(ctx, tenantA.messageIds);
    expect(
      rows.every((r) => r.state === 'failed' && /gave up after 5 attempts/.test(r.lastError ?? '')),
    ).toBe(true);
    expect((await rowsOf(tenantB.messageIds)).every((r) => r.state === 'sent')).toBe(true);
  });

  it('recovery never gives the claim back without bound: a message whose worker keeps dying is failed', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const account = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [account]);
    const { messageIds } = await queueForContacts(app, campaign, 1);
    const id = messageIds[0]!;
    for (let death = 1; death <= MAX_SEND_ATTEMPTS; death++) {
      // A worker claims it and dies before doing anything else.
      await app.services.db
        .update(outboxMessages)
        .set({
          state: 'sending',
          phase: 'claimed',
          leaseOwner: 'dead-worker',
          leaseUntil: new Date(Date.now() - 1_000),
          attempts: death,
        })
        .where(eq(outboxMessages.id, id));
      advanceClock(1_000);
      const recovered = await recoverExpiredLeases({ db: app.services.db, onlyUserId: user.id });
      const [row] = await rowsOf([id]);
      if (death < MAX_SEND_ATTEMPTS) {
        expect(recovered.requeued).toBe(1);
        expect(row!.state).toBe('queued');
        expect(row!.attempts).toBe(death);
        // Later each time: a message that kills workers does not come straight back.
        if (death > 1) expect(row!.sendAfter.getTime()).toBeGreaterThan(Date.now() + 30_000);
      } else {
        expect(recovered.failed).toBe(1);
        expect(row!.state).toBe('failed');
        expect(row!.lastError).toBe(`${ABANDONED_NOTE} ${MAX_SEND_ATTEMPTS} times; gave up`);
      }
    }
  });

  it('a server whose certificate changed since it was trusted takes its account out of sending; another carries the contact', async () => {
    const { user } = await createUser(app, { plan: 'enterprise' });
    const pinned = await createSinkAccount(app, user.id);
    const other = await createSinkAccount(app, user.id);
    const campaign = await createSendingCampaign(app, user.id, [pinned, other]);
    const { messageIds } = await queueForContacts(app, campaign, 4);
    const ctx = dispatchContext(app, sink.port, user.id);
    ctx.failpoint = (stage, message) => {
      if (stage === 'send' && message.senderAccountId === pinned.id) {
        throw Object.assign(new Error('certificate changed'), { code: 'CERT_PIN_MISMATCH' });
      }
    };
    await drainOutbox(ctx);
    const [account] = await app.services.db
      .select()
      .from(senderAccounts)
      .where(eq(senderAccounts.id, pinned.id));
    expect(account).toMatchObject({ status: 'failing' });
    expect(account!.statusReason).toMatch(/certificate has changed since you trusted it/);
    await drainOutbox(ctx);
    const rows = await rowsOf(messageIds);
    expect(rows.every((r) => r.state === 'sent' && r.senderAccountId === other.id)).toBe(true);
  });
});
