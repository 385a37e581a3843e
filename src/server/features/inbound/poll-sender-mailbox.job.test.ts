import { senderAccounts } from '@server/db/schema/index';
import { NETWORK_GUARD_MESSAGES } from '@server/lib/network-guard';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { closedLoopbackPort } from '@tests/support/closed-port';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTP_ERROR_MESSAGES } from '../sender-accounts/sender-accounts.service';
import { pollSenderMailboxJob } from './poll-sender-mailbox.job';

/*
 * The job's wiring: the account's mailbox is reached through the app's openImapClient, so the SSRF
 * guard applies to polls as it does to connection tests, and failures end up as a safe imap_error.
 */

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

async function imapAccount(imapHost: string, imapPort: number) {
  const owner = await createUser(app);
  const { account } = await createCampaignWithMessage(app, { userId: owner.user.id });
  await app.services.db
    .update(senderAccounts)
    .set({ imapEnabled: true, imapHost, imapPort, imapSecurity: 'none', imapCheckedAt: null })
    .where(eq(senderAccounts.id, account.id));
  return account.id;
}

async function poll(senderAccountId: string) {
  await pollSenderMailboxJob.run({
    services: app.services,
    log: app.log,
    payload: { senderAccountId },
    signal: new AbortController().signal,
    state: undefined,
  });
  const [row] = await app.services.db
    .select()
    .from(senderAccounts)
    .where(eq(senderAccounts.id, senderAccountId));
  return row!;
}

describe('poll-sender-mailbox job', () => {
  it('refuses a mailbox host on a metadata address, with a safe error and no exception', async () => {
    const row = await poll(await imapAccount('169.254.169.254', 143));
    expect(row.imapError).toBe(NETWORK_GUARD_MESSAGES.notAllowed);
    expect(row.imapCheckedAt).not.toBeNull();
  });

  it('reports a loopback port with nothing listening as a connection failure', async () => {
    const row = await poll(await imapAccount('127.0.0.1', await closedLoopbackPort()));
    expect(row.imapError).toBe(SMTP_ERROR_MESSAGES.unreachable);
  });
});
