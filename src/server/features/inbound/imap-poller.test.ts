import { randomUUID } from 'node:crypto';
import { campaignContacts, senderAccounts } from '@server/db/schema/index';
import { answerTo, contactRow, eventsOf, outboxRow } from '@tests/factories/inbound';
import { addOutboxMessage, createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { startImapServer, type TestImapServer } from '@tests/fakes/imap-server';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SMTP_ERROR_MESSAGES } from '../sender-accounts/sender-accounts.service';
import { isSuppressed } from '../suppression/suppression.service';
import { pollSenderMailbox } from './imap-poller';

let app: FastifyInstance;
const servers: TestImapServer[] = [];

beforeAll(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => app.close());

const DAY_MS = 24 * 60 * 60 * 1000;

/** One account with four sent messages to four contacts of one campaign. */
async function mailboxWithSentMessages() {
  const owner = await createUser(app);
  const first = await createCampaignWithMessage(app, { userId: owner.user.id });
  const sent = [{ contact: first.contact, message: first.message }];
  for (let i = 0; i < 3; i++) {
    const [contact] = await app.services.db
      .insert(campaignContacts)
      .values({
        campaignId: first.campaign.id,
        userId: owner.user.id,
        email: `lead-${randomUUID().slice(0, 8)}@example.com`,
      })
      .returning();
    const message = await addOutboxMessage(app, {
      campaign: first.campaign,
      contactId: contact!.id,
      email: contact!.email,
      accountId: first.account.id,
      state: 'sent',
    });
    sent.push({ contact: contact!, message });
  }
  return { owner, account: first.account, sent };
}

async function accountRow(id: string) {
  const [row] = await app.services.db.select().from(senderAccounts).where(eq(senderAccounts.id, id));
  return row!;
}

async function poll(accountId: string, server: TestImapServer, auth?: { user: string; pass: string }) {
  return pollSenderMailbox({
    db: app.services.db,
    log: app.log,
    account: await accountRow(accountId),
    openImapClient: async () => server.client(auth),
  });
}

describe('pollSenderMailbox (hoodiecrow IMAP server on loopback)', () => {
  it('reads new mail once, applies it, never marks it read, then reads only what arrives later', async () => {
    const { owner, account, sent } = await mailboxWithSentMessages();
    const [reply, ooo, bounced, later] = sent as [
      (typeof sent)[0],
      (typeof sent)[0],
      (typeof sent)[0],
      (typeof sent)[0],
    ];
    const server = await startImapServer({
      uidValidity: 4242,
      messages: [
        // Older than the first poll's 7-day lookback: never read.
        {
          raw: answerTo('human-reply.eml', { messageId: later.message.messageId! }),
          internalDate: new Date(Date.now() - 30 * DAY_MS),
        },
        { raw: answerTo('human-reply.eml', { messageId: reply.message.messageId! }) },
        { raw: answerTo('outlook-ooo.eml', { messageId: ooo.message.messageId! }) },
        { raw: answerTo('gmail-dsn-hard.eml', { messageId: bounced.message.messageId! }) },
      ],
    });
    servers.push(server);

    expect(await poll(account.id, server)).toEqual({ fetched: 3 });
    expect((await contactRow(app, reply.contact.id)).status).toBe('replied');
    expect((await contactRow(app, ooo.contact.id)).status).toBe('paused');
    expect((await contactRow(app, bounced.contact.id)).status).toBe('bounced');
    expect((await outboxRow(app, bounced.message.id)).state).toBe('bounced');
    expect(
      await isSuppressed({ db: app.services.db, userId: owner.user.id, email: bounced.contact.email }),
    ).toBe(true);
    expect((await contactRow(app, later.contact.id)).status).toBe('active');
    let polled = await accountRow(account.id);
    expect(polled).toMatchObject({ imapUidValidity: 4242, imapLastUid: 4, imapError: null });
    expect(polled.imapCheckedAt).not.toBeNull();
    // Read-only: the owner's mail stays unread.
    expect([...server.flags().values()].every((flags) => !flags.includes('\\Seen'))).toBe(true);

    // Nothing new: nothing read, nothing recorded twice.
    expect(await poll(account.id, server)).toEqual({ fetched: 0 });
    expect(await eventsOf(app, reply.message.id)).toHaveLength(1);

    // A new message arrives: only it is read.
    const uid = server.append(answerTo('unsubscribe-reply.eml', { messageId: later.message.messageId! }));
    expect(await poll(account.id, server)).toEqual({ fetched: 1 });
    expect((await contactRow(app, later.contact.id)).status).toBe('unsubscribed');
    polled = await accountRow(account.id);
    expect(polled.imapLastUid).toBe(uid);
    for (const { message } of sent) expect(await eventsOf(app, message.id)).toHaveLength(1);
  });

  it('starts over from the last 7 days when UIDVALIDITY changes, without applying anything twice', async () => {
    const { account, sent } = await mailboxWithSentMessages();
    const server = await startImapServer({
      uidValidity: 7,
      messages: sent.slice(0, 2).map(({ message }) => ({
        raw: answerTo('human-reply.eml', { messageId: message.messageId! }),
      })),
    });
    servers.push(server);
    expect(await poll(account.id, server)).toEqual({ fetched: 2 });

    // The server renumbered its mailbox: our saved UIDs mean nothing any more.
    await app.services.db
      .update(senderAccounts)
      .set({ imapUidValidity: 6, imapLastUid: 99 })
      .where(eq(senderAccounts.id, account.id));
    server.append(answerTo('human-reply.eml', { messageId: sent[2]!.message.messageId! }));
    expect(await poll(account.id, server)).toEqual({ fetched: 3 });
    expect(await accountRow(account.id)).toMatchObject({ imapUidValidity: 7, imapLastUid: 3 });
    for (const { message } of sent.slice(0, 3)) expect(await eventsOf(app, message.id)).toHaveLength(1);
    expect((await contactRow(app, sent[2]!.contact.id)).status).toBe('replied');
  });

  it('records a safe error and throws nothing when the server refuses the password', async () => {
    const { account, sent } = await mailboxWithSentMessages();
    const server = await startImapServer({
      uidValidity: 1,
      messages: [{ raw: answerTo('human-reply.eml', { messageId: sent[0]!.message.messageId! }) }],
    });
    servers.push(server);
    expect(await poll(account.id, server, { user: 'testuser', pass: 'wrong' })).toEqual({ fetched: 0 });
    const failed = await accountRow(account.id);
    expect(failed.imapError).toBe(SMTP_ERROR_MESSAGES.auth);
    expect(failed.imapCheckedAt).not.toBeNull();
    expect(failed.imapLastUid).toBeNull();
    expect((await contactRow(app, sent[0]!.contact.id)).status).toBe('active');

    // The next good poll clears the error and catches up.
    expect(await poll(account.id, server)).toEqual({ fetched: 1 });
    expect((await accountRow(account.id)).imapError).toBeNull();
  });

  it('records a safe error when nothing listens at the address', async () => {
    const { account } = await mailboxWithSentMessages();
    const server = await startImapServer({ uidValidity: 1, messages: [] });
    await server.close();
    expect(await poll(account.id, server)).toEqual({ fetched: 0 });
    expect((await accountRow(account.id)).imapError).toBe(SMTP_ERROR_MESSAGES.unreachable);
  });
});
