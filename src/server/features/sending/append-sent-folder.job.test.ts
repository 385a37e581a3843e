import { randomUUID } from 'node:crypto';
import { senderAccounts, sentFolderCopies } from '@server/db/schema/index';
import type { JobServices } from '@server/jobs/define-job';
import { encryptSecret } from '@server/lib/crypto';
import { createUser } from '@tests/factories/users';
import { IMAP_TEST_USER, startImapServer, type TestImapServer } from '@tests/fakes/imap-server';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendSentFolderJob } from './append-sent-folder.job';
import { createDispatcher } from './dispatch-outbox.job';

/*
 * The worker's side of Sent-folder copies: the dispatcher's transports hand what they sent to the recorder,
 * and the job appends it. A real SMTP sink and IMAP server on loopback (ephemeral ports).
 */

let app: FastifyInstance;
let sink: SmtpSink;
let imap: TestImapServer;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink();
  imap = await startImapServer({ uidValidity: 1, messages: [], folders: { Sent: { specialUse: '\\Sent' } } });
});
afterAll(async () => {
  await imap.close();
  await sink.close();
  await app.close();
});

describe('Sent-folder copies in the worker', () => {
  it("the dispatcher's transports record what they sent, and the job copies it to the Sent folder", async () => {
    const key = app.services.secrets.encryptionKey;
    const owner = await createUser(app);
    const id = randomUUID().slice(0, 8);
    const [account] = await app.services.db
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
        smtpPasswordEnc: encryptSecret('smtp-password', key),
        imapEnabled: true,
        imapHost: '127.0.0.1',
        imapPort: imap.port,
        imapSecurity: 'none',
        imapUser: IMAP_TEST_USER.user,
        imapPasswordEnc: encryptSecret(IMAP_TEST_USER.pass, key),
      })
      .returning();
    const services: JobServices = {
      ...app.services,
      env: { ...app.services.env, SENDER_NETWORK: 'loopback' },
    };
    const dispatcher = createDispatcher(services, app.log);
    const raw = `From: ada-${id}@kanofoods.test\r\nTo: bola@example.com\r\nSubject: Hi\r\nMessage-ID: <${id}@kanofoods.test>\r\n\r\nHello\r\n`;
    try {
      const transport = await dispatcher.transports.get(account!);
      await transport.send({ from: account!.fromEmail, to: ['bola@example.com'] }, raw);
    } finally {
      dispatcher.close();
    }
    const waiting = () =>
      app.services.db
        .select({ id: sentFolderCopies.id })
        .from(sentFolderCopies)
        .where(eq(sentFolderCopies.senderAccountId, account!.id));
    await expect.poll(async () => (await waiting()).length, { timeout: 5_000 }).toBe(1);

    await appendSentFolderJob.run({
      services,
      log: app.log,
      payload: { senderAccountId: account!.id },
      signal: new AbortController().signal,
      state: undefined,
    });
    expect(imap.mailbox('Sent').map((m) => m.raw)).toEqual([raw]);
    expect(await waiting()).toEqual([]);
  });
});
