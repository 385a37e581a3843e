import { senderAccounts } from '@server/db/schema/index';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import { answerTo, contactRow } from '@tests/factories/inbound';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { startImapServer } from '@tests/fakes/imap-server';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  enqueueIdleTriggeredPoll,
  IDLE_POLL_MIN_GAP_MS,
  pollSenderMailboxJob,
  pollSenderMailboxNow,
} from './poll-sender-mailbox.job';
import { enqueueDueMailboxPolls } from './poll-sender-mailboxes.job';

let app: FastifyInstance;
const POLL_MINUTES = 5;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());
afterEach(() => resetClock());

async function accountFor(changes: Partial<typeof senderAccounts.$inferInsert>) {
  const owner = await createUser(app);
  const sent = await createCampaignWithMessage(app, { userId: owner.user.id });
  const [account] = await app.services.db
    .update(senderAccounts)
    .set({ imapEnabled: true, imapHost: '127.0.0.1', imapPort: 993, imapSecurity: 'tls', ...changes })
    .where(eq(senderAccounts.id, sent.account.id))
    .returning();
  return { ...sent, account: account! };
}

async function queuedPolls(accountId: string) {
  const jobs = await app.services.queue.findJobs(pollSenderMailboxJob.name, { key: accountId, queued: true });
  return jobs.length;
}

describe('poll-sender-mailboxes (fan-out)', () => {
  it('enqueues one poll per due IMAP account, never a second while one waits', async () => {
    const minutesAgo = (minutes: number) => new Date(now().getTime() - minutes * 60_000);
    const neverChecked = await accountFor({ imapCheckedAt: null });
    const checkedLongAgo = await accountFor({ imapCheckedAt: minutesAgo(POLL_MINUTES + 1) });
    const checkedJustNow = await accountFor({ imapCheckedAt: minutesAgo(1) });
    const imapOff = await accountFor({ imapEnabled: false });
    const paused = await accountFor({ status: 'paused' });
    const failing = await accountFor({ status: 'failing', statusReason: 'Bounce rate' });

    const first = await enqueueDueMailboxPolls({
      db: app.services.db,
      queue: app.services.queue,
      pollMinutes: POLL_MINUTES,
    });
    expect(first.enqueued).toBeGreaterThanOrEqual(3);
    expect(await queuedPolls(neverChecked.account.id)).toBe(1);
    expect(await queuedPolls(checkedLongAgo.account.id)).toBe(1);
    // A failing account (SMTP trouble) still gets its replies and bounces read.
    expect(await queuedPolls(failing.account.id)).toBe(1);
    expect(await queuedPolls(checkedJustNow.account.id)).toBe(0);
    expect(await queuedPolls(imapOff.account.id)).toBe(0);
    expect(await queuedPolls(paused.account.id)).toBe(0);

    // The next minute's fan-out: the polls are still waiting, so none is added.
    await enqueueDueMailboxPolls({
      db: app.services.db,
      queue: app.services.queue,
      pollMinutes: POLL_MINUTES,
    });
    expect(await queuedPolls(neverChecked.account.id)).toBe(1);
    expect(await queuedPolls(checkedLongAgo.account.id)).toBe(1);
  });
});

describe('poll-sender-mailbox (one account)', () => {
  it('polls a due account once; a second copy of the job finds it claimed and does nothing', async () => {
    const server = await startImapServer({ uidValidity: 3, messages: [] });
    try {
      const { account, message, contact } = await accountFor({ imapCheckedAt: null });
      server.append(answerTo('human-reply.eml', { messageId: message.messageId! }));
      const run = () =>
        pollSenderMailboxNow({
          db: app.services.db,
          log: app.log,
          senderAccountId: account.id,
          pollMinutes: POLL_MINUTES,
          openImapClient: async () => server.client(),
        });
      const [a, b] = await Promise.all([run(), run()]);
      expect([a, b].filter((r) => r !== null)).toEqual([{ fetched: 1 }]);
      expect((await contactRow(app, contact.id)).status).toBe('replied');
      expect(await run()).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('reads new mail at once when IDLE triggers the poll, even right after a scheduled one', async () => {
    const server = await startImapServer({ uidValidity: 4, messages: [] });
    try {
      const { account, message, contact } = await accountFor({ imapCheckedAt: null });
      const run = (minGapMs?: number) =>
        pollSenderMailboxNow({
          db: app.services.db,
          log: app.log,
          senderAccountId: account.id,
          pollMinutes: POLL_MINUTES,
          minGapMs,
          openImapClient: async () => server.client(),
        });
      expect(await run()).toEqual({ fetched: 0 });
      server.append(answerTo('human-reply.eml', { messageId: message.messageId! }));
      advanceClock(IDLE_POLL_MIN_GAP_MS + 1_000);
      // The schedule says "not yet"; the IDLE connection's EXISTS says "now".
      expect(await run()).toBeNull();
      expect(await run(IDLE_POLL_MIN_GAP_MS)).toEqual({ fetched: 1 });
      expect((await contactRow(app, contact.id)).status).toBe('replied');
      // A burst of EXISTS within a few seconds is one poll.
      expect(await run(IDLE_POLL_MIN_GAP_MS)).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('an IDLE trigger right after a poll waits out the gap, so the new mail is not left for the schedule', async () => {
    const server = await startImapServer({ uidValidity: 5, messages: [] });
    try {
      const { account, message, contact } = await accountFor({ imapCheckedAt: null });
      const run = () =>
        pollSenderMailboxNow({
          db: app.services.db,
          log: app.log,
          senderAccountId: account.id,
          pollMinutes: POLL_MINUTES,
          minGapMs: IDLE_POLL_MIN_GAP_MS,
          openImapClient: async () => server.client(),
        });
      expect(await run()).toEqual({ fetched: 0 });
      // The mail lands a moment after that poll searched; the IDLE connection sees EXISTS at once.
      server.append(answerTo('human-reply.eml', { messageId: message.messageId! }));
      expect(await enqueueIdleTriggeredPoll({ queue: app.services.queue, senderAccountId: account.id })).toBe(
        true,
      );
      // A second EXISTS while that poll waits is the same poll.
      expect(await enqueueIdleTriggeredPoll({ queue: app.services.queue, senderAccountId: account.id })).toBe(
        false,
      );
      const [job] = await app.services.queue.findJobs(pollSenderMailboxJob.name, {
        key: account.id,
        queued: true,
      });
      expect(job!.data).toEqual({ senderAccountId: account.id, trigger: 'idle' });
      const startsIn = new Date(job!.startAfter).getTime() - Date.now();
      expect(startsIn).toBeGreaterThan(IDLE_POLL_MIN_GAP_MS);
      // When the worker takes it, the gap has passed and the mail is read.
      advanceClock(startsIn);
      expect(await run()).toEqual({ fetched: 1 });
      expect((await contactRow(app, contact.id)).status).toBe('replied');
      await app.services.queue.deleteJob(pollSenderMailboxJob.name, job!.id);
    } finally {
      await server.close();
    }
  });

  it('does nothing for a paused account, one with IMAP off, or an unknown id', async () => {
    const opened: string[] = [];
    const run = (senderAccountId: string) =>
      pollSenderMailboxNow({
        db: app.services.db,
        log: app.log,
        senderAccountId,
        pollMinutes: POLL_MINUTES,
        openImapClient: async (account) => {
          opened.push(account.id);
          throw new Error('must not connect');
        },
      });
    const paused = await accountFor({ status: 'paused' });
    const imapOff = await accountFor({ imapEnabled: false });
    expect(await run(paused.account.id)).toBeNull();
    expect(await run(imapOff.account.id)).toBeNull();
    expect(await run('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(opened).toEqual([]);
  });
});

describe('poll schedule (fan-out every minute, injectable clock)', () => {
  /*
   * Found against real Dovecot: imap_checked_at was written when a poll ended, so the next fan-out a
   * minute later found the account a fraction of a second short of due and skipped it; polls came at
   * twice the interval. Here each minute's fan-out runs a few seconds after the minute (cron jitter),
   * the poll job starts a few seconds after that, and the poll itself takes seconds.
   */
  async function pollMinutesOver(pollMinutes: number, minutes: number, pollSeconds = 4): Promise<number[]> {
    const server = await startImapServer({ uidValidity: 9, messages: [] });
    try {
      const { account } = await accountFor({ imapCheckedAt: null });
      const start = now().getTime();
      const polledAt: number[] = [];
      for (let minute = 0; minute < minutes; minute++) {
        // The fan-out of this minute, 1–3 s late.
        advanceClock(start + minute * 60_000 + 1_000 + (minute % 3) * 1_000 - now().getTime());
        await enqueueDueMailboxPolls({ db: app.services.db, queue: app.services.queue, pollMinutes });
        const jobs = await app.services.queue.findJobs(pollSenderMailboxJob.name, {
          key: account.id,
          queued: true,
        });
        if (jobs.length === 0) continue;
        // A worker takes the job 2 s later; the poll (connect, search, fetch) takes a few seconds.
        advanceClock(2_000);
        polledAt.push(minute);
        const result = await pollSenderMailboxNow({
          db: app.services.db,
          log: app.log,
          senderAccountId: account.id,
          pollMinutes,
          openImapClient: async () => {
            advanceClock(pollSeconds * 1_000);
            return server.client();
          },
        });
        expect(result).not.toBeNull();
        for (const job of jobs) await app.services.queue.deleteJob(pollSenderMailboxJob.name, job.id);
      }
      return polledAt;
    } finally {
      await server.close();
    }
  }

  it('polls every interval, not every other one (IMAP_POLL_MINUTES = 1)', async () => {
    expect(await pollMinutesOver(1, 6)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('polls every interval, not every other one (IMAP_POLL_MINUTES = 5)', async () => {
    expect(await pollMinutesOver(5, 21)).toEqual([0, 5, 10, 15, 20]);
  });

  it('a slow poll (50 s of fetching) does not push the next one a minute later', async () => {
    expect(await pollMinutesOver(5, 16, 50)).toEqual([0, 5, 10, 15]);
  });
});
