import { randomUUID } from 'node:crypto';
import type { Database } from '@server/db/client';
import { campaignContacts, campaignSenderAccounts, campaigns, senderAccounts } from '@server/db/schema/index';
import { scheduleNextSteps } from '@server/features/campaigns/campaigns.service';
import type { DispatchContext } from '@server/features/sending/dispatch';
import { queueMessages } from '@server/features/sending/outbox.service';
import { createTransportCache } from '@server/features/sending/transport-cache';
import { encryptSecret } from '@server/lib/crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';

/*
 * Rows for the sending engine's tests: sender accounts pointing at a loopback SMTP sink (as the
 * development mailbox account does), a campaign that sends around the clock with no gap, contacts and
 * queued messages, and a dispatch context like a worker's.
 */

export type CampaignRow = typeof campaigns.$inferSelect;
export type SenderRow = typeof senderAccounts.$inferSelect;

export async function createSinkAccount(
  app: FastifyInstance,
  userId: string,
  overrides: Partial<typeof senderAccounts.$inferInsert> & { password?: string } = {},
): Promise<SenderRow> {
  const { password, ...rest } = overrides;
  const slug = randomUUID().slice(0, 8);
  const [row] = await app.services.db
    .insert(senderAccounts)
    .values({
      userId,
      label: `Sink ${slug}`,
      fromName: 'Ada Okafor',
      fromEmail: `ada-${slug}@sender.test`,
      postalAddress: '12 Marina Road, Lagos, Nigeria',
      smtpHost: '127.0.0.1',
      smtpPort: 2525,
      smtpSecurity: 'none',
      smtpUser: `user-${slug}`,
      smtpPasswordEnc: encryptSecret(password ?? 'sink-password', app.services.secrets.encryptionKey),
      dailyCap: 300,
      isDevMailbox: true,
      ...rest,
    })
    .returning();
  return row!;
}

export async function createSendingCampaign(
  app: FastifyInstance,
  userId: string,
  accounts: SenderRow[],
  overrides: Partial<typeof campaigns.$inferInsert> = {},
): Promise<CampaignRow> {
  const [campaign] = await app.services.db
    .insert(campaigns)
    .values({
      userId,
      name: `Campaign ${randomUUID().slice(0, 8)}`,
      status: 'active',
      windowStartMinute: 0,
      windowEndMinute: 1440,
      sendDays: [1, 2, 3, 4, 5, 6, 7],
      gapMinSeconds: 0,
      gapMaxSeconds: 0,
      ...overrides,
    })
    .returning();
  if (accounts.length > 0) {
    await app.services.db
      .insert(campaignSenderAccounts)
      .values(accounts.map((a) => ({ campaignId: campaign!.id, senderAccountId: a.id })));
  }
  return campaign!;
}

/** Adds `count` contacts to the campaign and queues one message for each. */
export async function queueForContacts(
  app: FastifyInstance,
  campaign: CampaignRow,
  count: number,
  options: { domain?: string; emails?: string[]; timeZone?: string | null; html?: string } = {},
): Promise<{ contactIds: string[]; messageIds: string[]; emails: string[] }> {
  const emails =
    options.emails ??
    Array.from(
      { length: count },
      (_, i) => `lead${i}-${randomUUID().slice(0, 6)}@${options.domain ?? 'example.com'}`,
    );
  const contacts = await app.services.db
    .insert(campaignContacts)
    .values(
      emails.map((email, i) => ({
        campaignId: campaign.id,
        userId: campaign.userId,
        email,
        firstName: `Lead${i}`,
        timeZone: options.timeZone ?? null,
      })),
    )
    .returning({ id: campaignContacts.id, email: campaignContacts.email });
  const queued = await queueMessages({
    db: app.services.db,
    queue: null,
    appUrl: app.services.env.APP_URL,
    campaign,
    messages: contacts.map((c) => ({
      campaignContactId: c.id,
      toEmail: c.email,
      subject: 'Partnership with Kano Foods',
      html:
        options.html ??
        '<html><body><p>Hello, see <a href="https://kanofoods.example.com/offer">our offer</a>.</p></body></html>',
    })),
  });
  return { contactIds: contacts.map((c) => c.id), messageIds: queued.ids, emails };
}

/** A worker's dispatch context, draining only `userId`'s messages (test files share one database). */
export function dispatchContext(
  app: FastifyInstance,
  sinkPort: number,
  userId: string,
  overrides: { db?: Database; batchSize?: number; workerId?: string } = {},
): DispatchContext {
  return {
    db: overrides.db ?? app.services.db,
    env: {
      APP_URL: app.services.env.APP_URL,
      SEND_LEASE_SECONDS: 120,
      DISPATCH_BATCH_SIZE: overrides.batchSize ?? 100,
      DISPATCH_CONCURRENCY: 1,
    },
    mailer: app.services.mailer,
    queue: null,
    transports: createTransportCache({
      encryptionKey: app.services.secrets.encryptionKey,
      network: 'loopback',
      devMailboxPort: sinkPort,
    }),
    log: pino({ level: 'silent' }),
    workerId: overrides.workerId ?? `test-${randomUUID().slice(0, 8)}`,
    onStepMessagesSent: scheduleNextSteps,
    onlyUserId: userId,
  };
}
