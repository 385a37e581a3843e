import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerTo, contactRow } from '../../../tests/factories/inbound';
import { createCampaignWithMessage } from '../../../tests/factories/sending';
import { createUser } from '../../../tests/factories/users';
import { startImapServer } from '../../../tests/fakes/imap-server';
import { createTestApp } from '../../../tests/setup/test-app';
import { senderAccounts } from '../db/schema/index';
import { now } from '../lib/clock';
import { pollSenderMailboxJob, pollSenderMailboxNow } from './poll-sender-mailbox.job';
import { enqueueDueMailboxPolls } from './poll-sender-mailboxes.job';

let app: FastifyInstance;
const POLL_MINUTES = 5;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

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
