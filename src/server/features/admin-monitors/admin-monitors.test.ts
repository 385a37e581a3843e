import { randomUUID } from 'node:crypto';
import {
  campaigns,
  emailEvents,
  imapIdleLeases,
  outboxMessages,
  senderAccounts,
} from '@server/db/schema/index';
import {
  emailQueueStatusSchema,
  failedJobListSchema,
  failedMessageListSchema,
  RETRIED_BY_ADMIN,
  senderMonitorListSchema,
} from '@shared/admin-monitors';
import { auditEntriesOf } from '@tests/factories/audit';
import {
  createSendingCampaign,
  createSinkAccount,
  dispatchContext,
  queueForContacts,
  type SenderRow,
} from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox } from '../sending/sending.service';
import { smtpCodesIn } from './email-processing.service';

describe('admin monitors API', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let owner: TestUser;
  let account: SenderRow;
  let messageIds: string[];
  let failedJobId: string;
  const failure = '550 5.7.1 Message refused as spam by mx.example.com';
  const deferral = '421 4.7.0 Try again later';

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
    owner = await createUser(app);
    account = await createSinkAccount(app, owner.user.id);
    const campaign = await createSendingCampaign(app, owner.user.id, [account]);
    ({ messageIds } = await queueForContacts(app, campaign, 4));
    const { db } = app.services;
    const [m0, m1, m2] = messageIds as [string, string, string, string];
    // Two failed for good, one put back after a temporary error (due in an hour), one queued and due.
    await db
      .update(outboxMessages)
      .set({ state: 'failed', attempts: 5, lastError: failure, senderAccountId: account.id })
      .where(inArray(outboxMessages.id, [m0, m1]));
    await db
      .update(outboxMessages)
      .set({
        attempts: 1,
        lastError: deferral,
        senderAccountId: account.id,
        sendAfter: new Date(Date.now() + 3_600_000),
      })
      .where(eq(outboxMessages.id, m2));
    await db.insert(emailEvents).values([
      ...Array.from({ length: 10 }, () => ({
        userId: owner.user.id,
        campaignId: campaign.id,
        senderAccountId: account.id,
        type: 'sent' as const,
      })),
      {
        userId: owner.user.id,
        campaignId: campaign.id,
        senderAccountId: account.id,
        type: 'bounced' as const,
        detail: '550 5.1.1 No such user',
      },
      {
        userId: owner.user.id,
        campaignId: campaign.id,
        senderAccountId: account.id,
        type: 'failed' as const,
        detail: failure,
      },
      {
        userId: owner.user.id,
        campaignId: campaign.id,
        senderAccountId: account.id,
        type: 'complained' as const,
        occurredAt: new Date(Date.now() - 3 * 24 * 3_600_000),
      },
    ]);
    // A pg-boss job that failed for good (no worker runs in this app).
    const id = await app.services.queue.send(
      'purge-deleted-lists',
      { test: randomUUID() },
      { retryLimit: 0 },
    );
    failedJobId = id!;
    await app.services.queue.fail('purge-deleted-lists', failedJobId, { message: 'Disk full while purging' });
  });
  afterAll(() => app.close());

  const asAdmin = () => as(app, admin.cookie);

  describe('access', () => {
    const endpoints = () =>
      [
        { method: 'GET', url: '/api/admin/email-queue' },
        { method: 'GET', url: '/api/admin/email-queue/failed-jobs' },
        { method: 'GET', url: '/api/admin/email-queue/failed-messages' },
        { method: 'POST', url: `/api/admin/email-queue/jobs/purge-deleted-lists/${failedJobId}/retry` },
        { method: 'POST', url: `/api/admin/email-queue/jobs/purge-deleted-lists/${failedJobId}/cancel` },
        { method: 'POST', url: `/api/admin/email-queue/messages/${messageIds[0]}/retry` },
        { method: 'POST', url: `/api/admin/email-queue/messages/${messageIds[0]}/cancel` },
        { method: 'GET', url: '/api/admin/email-processing' },
        { method: 'POST', url: `/api/admin/email-processing/accounts/${account.id}/pause` },
        { method: 'POST', url: `/api/admin/email-processing/accounts/${account.id}/resume` },
      ] as const;

    it('answers 401 signed out and 403 to a user and a data entry officer, changing nothing', async () => {
      const dataEntry = await createUser(app, { role: 'data_entry' });
      for (const request of endpoints()) {
        expect((await app.inject(request)).statusCode, `${request.method} ${request.url}`).toBe(401);
        for (const who of [owner, dataEntry]) {
          const response = await as(app, who.cookie)(request);
          expect(response.statusCode, `${who.user.role} ${request.method} ${request.url}`).toBe(403);
        }
      }
      const [row] = await app.services.db
        .select({ state: outboxMessages.state })
        .from(outboxMessages)
        .where(eq(outboxMessages.id, messageIds[0]!));
      expect(row?.state).toBe('failed');
      const [sender] = await app.services.db
        .select({ status: senderAccounts.status })
        .from(senderAccounts)
        .where(eq(senderAccounts.id, account.id));
      expect(sender?.status).toBe('active');
    });
  });

  describe('Email Queue', () => {
    it('shows every queue and the outbox by state, with the reasons of deferred and failed messages', async () => {
      const response = await asAdmin()({ method: 'GET', url: '/api/admin/email-queue' });
      expect(response.statusCode).toBe(200);
      const status = emailQueueStatusSchema.parse(response.json());
      const purge = status.queues.find((q) => q.name === 'purge-deleted-lists');
      expect(purge?.failed).toBeGreaterThanOrEqual(1);
      expect(status.queues.map((q) => q.name)).toContain('dispatch-outbox');
      expect(status.queues.some((q) => q.name.startsWith('__pgboss'))).toBe(false);
      expect(status.outbox.failed).toBeGreaterThanOrEqual(2);
      expect(status.outbox.queued).toBeGreaterThanOrEqual(2);
      expect(status.outbox.queuedDeferred).toBeGreaterThanOrEqual(1);
      expect(status.failedReasons.find((r) => r.reason === failure)?.count).toBeGreaterThanOrEqual(2);
      expect(status.deferredReasons.find((r) => r.reason === deferral)?.count).toBeGreaterThanOrEqual(1);
    });

    it('lists failed jobs with their error, newest first, a page at a time', async () => {
      const response = await asAdmin()({
        method: 'GET',
        url: '/api/admin/email-queue/failed-jobs?limit=100',
      });
      expect(response.statusCode).toBe(200);
      const list = failedJobListSchema.parse(response.json());
      const job = list.jobs.find((j) => j.id === failedJobId);
      expect(job).toMatchObject({
        name: 'purge-deleted-lists',
        state: 'failed',
        error: 'Disk full while purging',
      });
      const times = list.jobs.map((j) => j.at);
      expect(times).toEqual([...times].sort().reverse());
    });

    it('pages failed messages with a cursor and names the user, campaign and reason', async () => {
      const first = await asAdmin()({ method: 'GET', url: '/api/admin/email-queue/failed-messages?limit=1' });
      expect(first.statusCode).toBe(200);
      const page1 = failedMessageListSchema.parse(first.json());
      expect(page1.messages).toHaveLength(1);
      expect(page1.nextCursor).not.toBeNull();
      const second = await asAdmin()({
        method: 'GET',
        url: `/api/admin/email-queue/failed-messages?limit=1&cursor=${page1.nextCursor}`,
      });
      const page2 = failedMessageListSchema.parse(second.json());
      expect(page2.messages[0]?.id).not.toBe(page1.messages[0]?.id);

      const all = failedMessageListSchema.parse(
        (await asAdmin()({ method: 'GET', url: '/api/admin/email-queue/failed-messages?limit=100' })).json(),
      );
      const ours = all.messages.filter((m) => m.userId === owner.user.id);
      expect(ours.map((m) => m.id).sort()).toEqual([messageIds[0], messageIds[1]].sort());
      expect(ours[0]).toMatchObject({ userEmail: owner.user.email, reason: failure, attempts: 5 });

      const bad = await asAdmin()({
        method: 'GET',
        url: '/api/admin/email-queue/failed-messages?cursor=nonsense',
      });
      expect(bad.statusCode).toBe(400);
    });

    it('retries a failed message: queued again, due now, attempts from zero, audited', async () => {
      const id = messageIds[0]!;
      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/email-queue/messages/${id}/retry`,
      });
      expect(response.statusCode).toBe(200);
      const [row] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
      expect(row).toMatchObject({ state: 'queued', attempts: 0, lastError: RETRIED_BY_ADMIN, phase: null });
      expect(row!.sendAfter.getTime()).toBeLessThanOrEqual(Date.now());
      const audit = (await auditEntriesOf(app, admin.user.id)).find(
        (e) => e.action === 'outbox_message.retried' && e.targetId === id,
      );
      expect(audit?.details).toMatchObject({ userId: owner.user.id, previousError: failure });

      const again = await asAdmin()({ method: 'POST', url: `/api/admin/email-queue/messages/${id}/retry` });
      expect(again.statusCode).toBe(409);
      const missing = await asAdmin()({
        method: 'POST',
        url: `/api/admin/email-queue/messages/${randomUUID()}/retry`,
      });
      expect(missing.statusCode).toBe(404);
    });

    it('a retried message is really sent by the next drain', async () => {
      const sink = await startSmtpSink();
      try {
        const other = await createUser(app);
        const sender = await createSinkAccount(app, other.user.id);
        const campaign = await createSendingCampaign(app, other.user.id, [sender]);
        const {
          messageIds: [id],
          emails: [to],
        } = await queueForContacts(app, campaign, 1);
        await app.services.db
          .update(outboxMessages)
          .set({ state: 'failed', attempts: 5, lastError: deferral })
          .where(eq(outboxMessages.id, id!));
        const retry = await asAdmin()({ method: 'POST', url: `/api/admin/email-queue/messages/${id}/retry` });
        expect(retry.statusCode).toBe(200);

        await drainOutbox(dispatchContext(app, sink.port, other.user.id));
        const [row] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.id, id!));
        expect(row?.state).toBe('sent');
        expect(sink.messages.some((m) => m.to.includes(to!))).toBe(true);
      } finally {
        await sink.close();
      }
    });

    it('does not retry a message of an ended campaign (nothing of it is sent): 409, still failed', async () => {
      const ended = await createSendingCampaign(app, owner.user.id, [account]);
      const {
        messageIds: [id],
      } = await queueForContacts(app, ended, 1);
      await app.services.db
        .update(outboxMessages)
        .set({ state: 'failed', attempts: 5, lastError: failure })
        .where(eq(outboxMessages.id, id!));
      await app.services.db.update(campaigns).set({ status: 'completed' }).where(eq(campaigns.id, ended.id));

      const all = failedMessageListSchema.parse(
        (await asAdmin()({ method: 'GET', url: '/api/admin/email-queue/failed-messages?limit=100' })).json(),
      );
      expect(all.messages.find((m) => m.id === id)).toMatchObject({
        campaignStatus: 'completed',
        canRetry: false,
      });
      expect(all.messages.find((m) => m.id === messageIds[1])).toMatchObject({ canRetry: true });

      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/email-queue/messages/${id}/retry`,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(
        'Its campaign is completed, so the message cannot be sent again. Cancel it instead.',
      );
      const [row] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.id, id!));
      expect(row).toMatchObject({ state: 'failed', lastError: failure });
    });

    it('cancels a failed message, audited', async () => {
      const id = messageIds[1]!;
      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/email-queue/messages/${id}/cancel`,
      });
      expect(response.statusCode).toBe(200);
      const [row] = await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
      expect(row?.state).toBe('cancelled');
      const actions = (await auditEntriesOf(app, admin.user.id)).filter((e) => e.targetId === id);
      expect(actions.map((e) => e.action)).toEqual(['outbox_message.cancelled']);
    });

    it('retries a failed job through pg-boss, then cancels it before it runs; both audited', async () => {
      const url = `/api/admin/email-queue/jobs/purge-deleted-lists/${failedJobId}`;
      expect((await asAdmin()({ method: 'POST', url: `${url}/retry` })).statusCode).toBe(200);
      const job = await app.services.queue.getJobById('purge-deleted-lists', failedJobId);
      expect(job?.state).toBe('retry');
      expect((await asAdmin()({ method: 'POST', url: `${url}/retry` })).statusCode).toBe(409);

      expect((await asAdmin()({ method: 'POST', url: `${url}/cancel` })).statusCode).toBe(200);
      const cancelled = await app.services.queue.getJobById('purge-deleted-lists', failedJobId);
      expect(cancelled?.state).toBe('cancelled');
      expect((await asAdmin()({ method: 'POST', url: `${url}/cancel` })).statusCode).toBe(409);

      const actions = (await auditEntriesOf(app, admin.user.id))
        .filter((e) => e.targetId === failedJobId)
        .map((e) => e.action);
      expect(actions).toEqual(['job.retried', 'job.cancelled']);
      const unknown = await asAdmin()({
        method: 'POST',
        url: `/api/admin/email-queue/jobs/purge-deleted-lists/${randomUUID()}/retry`,
      });
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('Email Processing', () => {
    it('shows each account with its owner, cap, errors and SMTP codes, deferrals and rates', async () => {
      const response = await asAdmin()({
        method: 'GET',
        url: `/api/admin/email-processing?search=${encodeURIComponent(account.fromEmail)}`,
      });
      expect(response.statusCode).toBe(200);
      const list = senderMonitorListSchema.parse(response.json());
      expect(list.accounts).toHaveLength(1);
      const row = list.accounts[0]!;
      expect(row).toMatchObject({
        id: account.id,
        ownerEmail: owner.user.email,
        status: 'active',
        capToday: 300,
        sentToday: 0,
        errors24h: 1,
        deferred: 1,
      });
      expect(row.last24h).toMatchObject({ sent: 10, bounced: 1, complained: 0, bounceRate: 0.1 });
      expect(row.last7d).toMatchObject({ sent: 10, complained: 1, complaintRate: 0.1 });
      expect(row.smtpCodes.map((c) => c.code).sort()).toEqual(['421', '550']);
      expect(row.smtpCodes.find((c) => c.code === '550')?.count).toBe(2);
      expect(list.totals.active).toBeGreaterThanOrEqual(1);

      const byOwner = senderMonitorListSchema.parse(
        (
          await asAdmin()({
            method: 'GET',
            url: `/api/admin/email-processing?search=${encodeURIComponent(owner.user.email)}&status=paused`,
          })
        ).json(),
      );
      expect(byOwner.accounts).toEqual([]);
    });

    it('pauses and resumes an account for its owner, audited', async () => {
      const pause = await asAdmin()({
        method: 'POST',
        url: `/api/admin/email-processing/accounts/${account.id}/pause`,
      });
      expect(pause.statusCode).toBe(200);
      const paused = senderMonitorListSchema.parse(
        (
          await asAdmin()({
            method: 'GET',
            url: `/api/admin/email-processing?status=paused&search=${encodeURIComponent(account.fromEmail)}`,
          })
        ).json(),
      );
      expect(paused.accounts.map((a) => a.id)).toEqual([account.id]);

      await app.services.db
        .update(senderAccounts)
        .set({ status: 'failing', statusReason: 'Bounces', authFailures: 3 })
        .where(eq(senderAccounts.id, account.id));
      const resume = await asAdmin()({
        method: 'POST',
        url: `/api/admin/email-processing/accounts/${account.id}/resume`,
      });
      expect(resume.statusCode).toBe(200);
      const [row] = await app.services.db
        .select()
        .from(senderAccounts)
        .where(eq(senderAccounts.id, account.id));
      expect(row).toMatchObject({ status: 'active', statusReason: null, authFailures: 0 });

      const actions = (await auditEntriesOf(app, admin.user.id))
        .filter((e) => e.targetId === account.id)
        .map((e) => e.action);
      expect(actions).toEqual(['sender_account.paused', 'sender_account.resumed']);
      const entries = (await auditEntriesOf(app, admin.user.id)).filter((e) => e.targetId === account.id);
      expect(entries[0]?.details).toEqual({ targetEmail: account.fromEmail, userId: owner.user.id });
      const missing = await asAdmin()({
        method: 'POST',
        url: `/api/admin/email-processing/accounts/${randomUUID()}/pause`,
      });
      expect(missing.statusCode).toBe(404);
    });

    it('shows the last IMAP poll, its error, and whether a worker listens (IDLE) now', async () => {
      const other = await createUser(app);
      const checkedAt = new Date(Date.now() - 120_000);
      const listening = await createSinkAccount(app, other.user.id, {
        imapEnabled: true,
        imapCheckedAt: checkedAt,
      });
      const broken = await createSinkAccount(app, other.user.id, {
        imapEnabled: true,
        imapCheckedAt: checkedAt,
        imapError: 'Could not sign in to the mailbox',
      });
      await app.services.db.insert(imapIdleLeases).values([
        { senderAccountId: listening.id, owner: 'worker-a', leaseUntil: new Date(Date.now() + 60_000) },
        { senderAccountId: broken.id, owner: 'worker-b', leaseUntil: new Date(Date.now() - 60_000) },
      ]);
      const list = senderMonitorListSchema.parse(
        (
          await asAdmin()({
            method: 'GET',
            url: `/api/admin/email-processing?search=${encodeURIComponent(other.user.email)}`,
          })
        ).json(),
      );
      expect(list.accounts.find((a) => a.id === listening.id)).toMatchObject({
        imapEnabled: true,
        imapIdle: true,
        imapCheckedAt: checkedAt.toISOString(),
        imapError: null,
      });
      expect(list.accounts.find((a) => a.id === broken.id)).toMatchObject({
        imapIdle: false,
        imapError: 'Could not sign in to the mailbox',
      });
    });

    it('pages through accounts in from-address order', async () => {
      const first = senderMonitorListSchema.parse(
        (await asAdmin()({ method: 'GET', url: '/api/admin/email-processing?limit=1' })).json(),
      );
      if (!first.nextCursor) return expect(first.accounts.length).toBeLessThanOrEqual(1);
      const second = senderMonitorListSchema.parse(
        (
          await asAdmin()({
            method: 'GET',
            url: `/api/admin/email-processing?limit=1&cursor=${first.nextCursor}`,
          })
        ).json(),
      );
      expect(second.accounts[0]!.fromEmail.toLowerCase() >= first.accounts[0]!.fromEmail.toLowerCase()).toBe(
        true,
      );
      expect(second.accounts[0]!.id).not.toBe(first.accounts[0]!.id);
    });
  });

  it('reads SMTP codes from reasons', () => {
    expect(smtpCodesIn('550 5.7.1 refused; then 421 busy; 550 again')).toEqual(['550', '421']);
    expect(smtpCodesIn('Connection refused')).toEqual([]);
    expect(smtpCodesIn(null)).toEqual([]);
  });
});
