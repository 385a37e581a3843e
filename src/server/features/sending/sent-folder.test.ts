import { randomUUID } from 'node:crypto';
import { senderAccounts, sentFolderCopies } from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { encryptSecret } from '@server/lib/crypto';
import { createUser } from '@tests/factories/users';
import { IMAP_TEST_USER, startImapServer, type TestImapServer } from '@tests/fakes/imap-server';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SMTP_ERROR_MESSAGES } from '../sender-accounts/sender-accounts.service';
import {
  APPEND_SENT_FOLDER_JOB,
  appendPendingSentCopies,
  appendToSentFolder,
  createSentFolderRecorder,
  queueSentFolderAppends,
  recordSentCopies,
  SENT_FOLDER_MESSAGES,
} from './sent-folder';
import { createTransportCache } from './transport-cache';

/*
 * Copies of sent mail in the mailbox's Sent folder: a real SMTP sink and a real IMAP server (hoodiecrow)
 * on loopback, each on an ephemeral port, and the app's database.
 */

let app: FastifyInstance;
let sink: SmtpSink;
const imapServers: TestImapServer[] = [];

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink();
});
afterEach(async () => {
  await Promise.all(imapServers.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await sink.close();
  await app.close();
});

const key = () => app.services.secrets.encryptionKey;

async function startImap(folders: Record<string, { specialUse?: string }>) {
  const server = await startImapServer({ uidValidity: 1, messages: [], folders });
  imapServers.push(server);
  return server;
}

async function account(imap: TestImapServer, overrides: Partial<typeof senderAccounts.$inferInsert> = {}) {
  const owner = await createUser(app);
  const id = randomUUID().slice(0, 8);
  const [row] = await app.services.db
    .insert(senderAccounts)
    .values({
      userId: owner.user.id,
      label: 'Sales',
      fromName: 'Ada',
      fromEmail: `ada-${id}@kanofoods.test`,
      postalAddress: '3 Bompai Road, Kano',
      smtpHost: '127.0.0.1',
      smtpPort: sink.port,
      smtpSecurity: 'none',
      smtpUser: 'ada',
      smtpPasswordEnc: encryptSecret('smtp-password', key()),
      imapEnabled: true,
      imapHost: '127.0.0.1',
      imapPort: imap.port,
      imapSecurity: 'none',
      imapUser: IMAP_TEST_USER.user,
      imapPasswordEnc: encryptSecret(IMAP_TEST_USER.pass, key()),
      ...overrides,
    })
    .returning();
  return row!;
}

async function accountRow(id: string) {
  const [row] = await app.services.db.select().from(senderAccounts).where(eq(senderAccounts.id, id));
  return row!;
}

async function waiting(accountId: string) {
  return app.services.db
    .select()
    .from(sentFolderCopies)
    .where(eq(sentFolderCopies.senderAccountId, accountId));
}

function rawMessage(to: string) {
  const messageId = `${randomUUID()}@kanofoods.test`;
  return {
    messageId,
    raw:
      `From: Ada <ada@kanofoods.test>\r\nTo: ${to}\r\nSubject: Palm oil prices\r\n` +
      `Message-ID: <${messageId}>\r\nDate: Wed, 25 Nov 2026 10:00:00 +0100\r\nMIME-Version: 1.0\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n\r\nHello Bola,\r\n.leading dot stays\r\n',
  };
}

const context = () => ({ db: app.services.db, encryptionKey: key(), network: 'loopback' as const });

describe('copies of sent mail in the Sent folder', () => {
  it('copies what the transport sent, byte for byte, to the folder flagged \\Sent, after the send and off its path', async () => {
    // "Sent" exists too: the SPECIAL-USE flag wins over the name, as in Exchange's "Sent Items".
    const imap = await startImap({ 'Sent Items': { specialUse: '\\Sent' }, Sent: {} });
    const row = await account(imap);
    const sends: { name: string; data: unknown; options: unknown }[] = [];
    const queue = {
      send: async (name: string, data: unknown, options: unknown) => {
        sends.push({ name, data, options });
        return null;
      },
    } as unknown as Queue;
    const recorder = createSentFolderRecorder({ db: app.services.db, queue, log: app.log, flushMs: 60_000 });
    const cache = createTransportCache({
      encryptionKey: key(),
      network: 'loopback',
      devMailboxPort: null,
      onSent: (a, raw) => recorder.add(a, raw),
    });
    const { raw, messageId } = rawMessage('bola@example.com');
    try {
      const transport = await cache.get(row);
      await transport.send({ from: row.fromEmail, to: ['bola@example.com'] }, raw);
    } finally {
      cache.closeAll();
    }
    // Sent and answered; nothing has touched IMAP or even the database yet.
    expect(sink.messages.find((m) => m.messageId === messageId)).toBeDefined();
    expect(imap.mailbox('Sent Items')).toEqual([]);
    expect(await waiting(row.id)).toEqual([]);

    await recorder.flush();
    expect(await waiting(row.id)).toHaveLength(1);
    expect(sends).toEqual([
      { name: APPEND_SENT_FOLDER_JOB, data: { senderAccountId: row.id }, options: { singletonKey: row.id } },
    ]);

    const result = await appendPendingSentCopies({ ...context(), accountId: row.id });
    expect(result).toEqual({ appended: 1, remaining: false, error: null });
    const copies = imap.mailbox('Sent Items');
    expect(copies).toHaveLength(1);
    expect(copies[0]!.raw).toBe(raw);
    expect(copies[0]!.raw).toBe(sink.messages.find((m) => m.messageId === messageId)!.raw);
    expect(copies[0]!.flags).toContain('\\Seen');
    expect(imap.mailbox('Sent')).toEqual([]);
    expect(await waiting(row.id)).toEqual([]);
    const after = await accountRow(row.id);
    expect(after.sentFolderError).toBeNull();
    expect(after.sentFolderAppendedAt).not.toBeNull();

    // Run twice (a retried job): nothing is appended again.
    expect(await appendPendingSentCopies({ ...context(), accountId: row.id })).toMatchObject({ appended: 0 });
    expect(imap.mailbox('Sent Items')).toHaveLength(1);
  });

  it('finds a Sent folder by its usual name on a server without SPECIAL-USE flags', async () => {
    const imap = await startImap({ Drafts: {}, 'Sent Messages': {} });
    const row = await account(imap);
    const { raw } = rawMessage('chidi@example.com');
    expect(await appendToSentFolder({ ...context(), accountId: row.id, raw })).toEqual({
      appended: true,
      error: null,
    });
    expect(imap.mailbox('Sent Messages').map((m) => m.raw)).toEqual([raw]);
  });

  it('shows why on the account when it cannot copy, and never throws', async () => {
    const noFolder = await startImap({ Drafts: {} });
    const a = await account(noFolder);
    expect(
      await appendToSentFolder({ ...context(), accountId: a.id, raw: rawMessage('x@example.com').raw }),
    ).toEqual({
      appended: false,
      error: SENT_FOLDER_MESSAGES.noFolder,
    });
    expect((await accountRow(a.id)).sentFolderError).toBe(SENT_FOLDER_MESSAGES.noFolder);
    // No folder will appear by waiting: nothing is kept for it.
    expect(await waiting(a.id)).toEqual([]);

    const imap = await startImap({ Sent: {} });
    const refused = await account(imap, { imapPasswordEnc: encryptSecret('wrong', key()) });
    const result = await appendToSentFolder({
      ...context(),
      accountId: refused.id,
      raw: rawMessage('y@example.com').raw,
    });
    expect(result).toEqual({ appended: false, error: SMTP_ERROR_MESSAGES.auth });
    expect((await accountRow(refused.id)).sentFolderError).toBe(SMTP_ERROR_MESSAGES.auth);
    // The copy waits for the next try (the sweep), and lands once the mailbox lets us in.
    expect(await waiting(refused.id)).toHaveLength(1);
    await app.services.db
      .update(senderAccounts)
      .set({ imapPasswordEnc: encryptSecret(IMAP_TEST_USER.pass, key()) })
      .where(eq(senderAccounts.id, refused.id));
    expect(await appendPendingSentCopies({ ...context(), accountId: refused.id })).toMatchObject({
      appended: 1,
    });
    expect(imap.mailbox('Sent')).toHaveLength(1);
    expect((await accountRow(refused.id)).sentFolderError).toBeNull();
  });

  it('keeps one queued job per account however many copies arrive, and copies them in batches', async () => {
    const imap = await startImap({ Sent: {} });
    const row = await account(imap);
    const { queue } = app.services;
    await recordSentCopies({
      db: app.services.db,
      copies: [1, 2, 3].map((n) => ({ accountId: row.id, raw: rawMessage(`n${n}@example.com`).raw })),
    });
    await queueSentFolderAppends(queue, [row.id, row.id]);
    await queueSentFolderAppends(queue, [row.id]);
    const jobs = await queue.findJobs<{ senderAccountId: string }>(APPEND_SENT_FOLDER_JOB, {
      key: row.id,
      queued: true,
    });
    expect(jobs.map((job) => job.data)).toEqual([{ senderAccountId: row.id }]);

    // Two to a batch: the job says more are waiting (its handler queues itself again), then finishes.
    expect(await appendPendingSentCopies({ ...context(), accountId: row.id, limit: 2 })).toEqual({
      appended: 2,
      remaining: true,
      error: null,
    });
    expect(await appendPendingSentCopies({ ...context(), accountId: row.id, limit: 2 })).toEqual({
      appended: 1,
      remaining: false,
      error: null,
    });
    expect(imap.mailbox('Sent')).toHaveLength(3);
    expect(await waiting(row.id)).toEqual([]);
  });

  it('copies nothing for an account that turned it off', async () => {
    const imap = await startImap({ Sent: {} });
    const row = await account(imap, { sentFolderEnabled: false });
    const copied: string[] = [];
    const cache = createTransportCache({
      encryptionKey: key(),
      network: 'loopback',
      devMailboxPort: null,
      onSent: (a) => copied.push(a.id),
    });
    try {
      const transport = await cache.get(row);
      await transport.send(
        { from: row.fromEmail, to: ['bola@example.com'] },
        rawMessage('bola@example.com').raw,
      );
    } finally {
      cache.closeAll();
    }
    expect(copied).toEqual([]);
    // Copies left from before it was turned off are dropped, not appended.
    await app.services.db.insert(sentFolderCopies).values({ senderAccountId: row.id, raw: 'x' });
    expect(await appendPendingSentCopies({ ...context(), accountId: row.id })).toMatchObject({ appended: 0 });
    expect(await waiting(row.id)).toEqual([]);
    expect(imap.mailbox('Sent')).toEqual([]);
  });
});
