import { imapIdleLeases, senderAccounts } from '@server/db/schema/index';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { startImapServer, type TestImapServer } from '@tests/fakes/imap-server';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createImapIdleManager, type ImapIdleManager } from './imap-idle';

/*
 * IMAP IDLE against a real IMAP server on loopback (hoodiecrow, which supports IDLE): a worker keeps one
 * connection per account it holds, and a new message (EXISTS) triggers that account's poll at once.
 */

let app: FastifyInstance;
const servers: TestImapServer[] = [];
const managers: ImapIdleManager[] = [];
const log = pino({ level: 'silent' });

beforeAll(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => app.close());

async function imapAccount(changes: Partial<typeof senderAccounts.$inferInsert> = {}) {
  const owner = await createUser(app);
  const { account } = await createCampaignWithMessage(app, { userId: owner.user.id });
  await app.services.db
    .update(senderAccounts)
    .set({ imapEnabled: true, imapHost: '127.0.0.1', imapPort: 143, imapSecurity: 'none', ...changes })
    .where(eq(senderAccounts.id, account.id));
  return account.id;
}

async function until<T>(check: () => T | Promise<T>, timeoutMs = 5_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const RAW = (subject: string) =>
  `From: lead@example.com\r\nTo: me@example.com\r\nSubject: ${subject}\r\nMessage-ID: <${subject}@example.com>\r\n\r\nHello\r\n`;

function manager(options: {
  owner: string;
  servers: Map<string, TestImapServer>;
  maxConnections?: number;
  onNewMail?: (accountId: string) => Promise<boolean>;
  failFirst?: number;
  only?: string[];
}) {
  let failures = options.failFirst ?? 0;
  const m = createImapIdleManager({
    db: app.services.db,
    log,
    owner: options.owner,
    maxConnections: options.maxConnections ?? 10,
    refreshMs: 100,
    leaseMs: 1_000,
    backoff: { baseMs: 20, maxMs: 200 },
    // Tests share the database: each manager looks only at its own accounts.
    onlyAccountIds: options.only,
    openImapClient: async (account) => {
      if (failures > 0) {
        failures--;
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      }
      const server = options.servers.get(account.id);
      if (!server) throw new Error('no server for this account');
      return server.client();
    },
    onNewMail: options.onNewMail ?? (async () => true),
  });
  managers.push(m);
  return m;
}

async function server() {
  const s = await startImapServer({ uidValidity: 7, messages: [] });
  servers.push(s);
  return s;
}

describe('IMAP IDLE manager', () => {
  it('triggers the account poll within moments of new mail, and closes its connection on shutdown', async () => {
    const accountId = await imapAccount();
    const mailbox = await server();
    const triggered: string[] = [];
    const m = manager({
      owner: 'worker-a',
      servers: new Map([[accountId, mailbox]]),
      only: [accountId],
      onNewMail: async (id) => {
        triggered.push(id);
        return true;
      },
    });
    m.start();
    await until(() => m.status().connected.includes(accountId));
    mailbox.append(RAW('first'));
    await until(() => triggered.length > 0);
    expect(triggered).toEqual([accountId]);

    await m.close();
    expect(m.status()).toEqual({ held: [], connected: [] });
    const leases = await app.services.db
      .select()
      .from(imapIdleLeases)
      .where(eq(imapIdleLeases.senderAccountId, accountId));
    expect(leases).toEqual([]);
  });

  it('lets only one worker hold an account; another takes over when it stops', async () => {
    const accountId = await imapAccount();
    const mailbox = await server();
    const servers = new Map([[accountId, mailbox]]);
    const a = manager({ owner: 'worker-a', servers, only: [accountId] });
    a.start();
    await until(() => a.status().connected.includes(accountId));
    const b = manager({ owner: 'worker-b', servers, only: [accountId] });
    b.start();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(b.status().held).toEqual([]);

    await a.close();
    await until(() => b.status().connected.includes(accountId));
  });

  it('holds at most maxConnections accounts per worker', async () => {
    const ids = [await imapAccount(), await imapAccount(), await imapAccount()];
    const mailbox = await server();
    const m = manager({
      owner: 'worker-small',
      servers: new Map(ids.map((id) => [id, mailbox])),
      maxConnections: 2,
      only: ids,
    });
    m.start();
    await until(() => m.status().connected.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(m.status().held).toHaveLength(2);
  });

  it('reconnects with backoff after failed connections', async () => {
    const accountId = await imapAccount();
    const mailbox = await server();
    const m = manager({
      owner: 'worker-retry',
      servers: new Map([[accountId, mailbox]]),
      failFirst: 3,
      only: [accountId],
    });
    m.start();
    await until(() => m.status().connected.includes(accountId));
  });

  it('lets go of an account whose IMAP is turned off or that is paused', async () => {
    const accountId = await imapAccount();
    const mailbox = await server();
    const m = manager({ owner: 'worker-c', servers: new Map([[accountId, mailbox]]), only: [accountId] });
    m.start();
    await until(() => m.status().connected.includes(accountId));
    await app.services.db
      .update(senderAccounts)
      .set({ status: 'paused' })
      .where(eq(senderAccounts.id, accountId));
    await until(() => m.status().held.length === 0);
  });
});
