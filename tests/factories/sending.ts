import { randomBytes, randomUUID } from 'node:crypto';
import { campaignContacts, campaigns, outboxMessages, senderAccounts } from '@server/db/schema/index';
import { encryptSecret } from '@server/lib/crypto';
import type { OutboxState } from '@shared/sending';
import type { FastifyInstance } from 'fastify';

/*
 * One sent message as the tracking endpoints see it: a sender account, a campaign, a contact and an
 * outbox row with its public token and tracked links, written straight with Drizzle.
 */

export type OutboxRow = typeof outboxMessages.$inferSelect;

export interface CampaignWithMessage {
  campaign: typeof campaigns.$inferSelect;
  contact: typeof campaignContacts.$inferSelect;
  account: typeof senderAccounts.$inferSelect;
  message: OutboxRow;
  token: string;
}

export function newTestToken(): string {
  return randomBytes(16).toString('base64url');
}

export async function createCampaignWithMessage(
  app: FastifyInstance,
  options: {
    userId: string;
    email?: string;
    links?: string[];
    state?: OutboxState;
    /** When it was sent; default an hour ago (clicks are not "too fast"). */
    sentAt?: Date | null;
    fromName?: string;
  },
): Promise<CampaignWithMessage> {
  const { db } = app.services;
  const slug = randomUUID().slice(0, 8);
  const email = options.email ?? `lead-${slug}@example.com`;
  const [account] = await db
    .insert(senderAccounts)
    .values({
      userId: options.userId,
      label: `Sender ${slug}`,
      fromName: options.fromName ?? 'Ada Okafor',
      fromEmail: `ada-${slug}@sender.test`,
      postalAddress: '12 Marina Road, Lagos, Nigeria',
      smtpHost: '127.0.0.1',
      smtpPort: 2525,
      smtpSecurity: 'none',
      smtpUser: `user-${slug}`,
      smtpPasswordEnc: encryptSecret('test-password', app.services.secrets.encryptionKey),
    })
    .returning();
  const [campaign] = await db
    .insert(campaigns)
    .values({ userId: options.userId, name: `Campaign ${slug}`, status: 'active' })
    .returning();
  const [contact] = await db
    .insert(campaignContacts)
    .values({ campaignId: campaign!.id, userId: options.userId, email, firstName: 'Bola' })
    .returning();
  const message = await addOutboxMessage(app, {
    campaign: campaign!,
    contactId: contact!.id,
    email,
    accountId: account!.id,
    links: options.links ?? [
      'https://kanofoods.example.com/offer?ref=mail',
      'https://kanofoods.example.com/about',
    ],
    state: options.state ?? 'sent',
    sentAt: options.sentAt === undefined ? new Date(Date.now() - 3_600_000) : options.sentAt,
  });
  return { campaign: campaign!, contact: contact!, account: account!, message, token: message.token };
}

/** Another message of the same campaign and contact (a follow-up step, queued or sent). */
export async function addOutboxMessage(
  app: FastifyInstance,
  options: {
    campaign: typeof campaigns.$inferSelect;
    contactId: string;
    email: string;
    accountId?: string | null;
    links?: string[];
    state?: OutboxState;
    sentAt?: Date | null;
  },
): Promise<OutboxRow> {
  const token = newTestToken();
  const state = options.state ?? 'queued';
  const [message] = await app.services.db
    .insert(outboxMessages)
    .values({
      token,
      userId: options.campaign.userId,
      campaignId: options.campaign.id,
      campaignContactId: options.contactId,
      stepId: randomUUID(),
      toEmail: options.email,
      subject: 'Partnership with Kano Foods',
      html: '<p>Hello</p>',
      messageId: `${randomUUID()}@sender.test`,
      links: options.links ?? [],
      senderAccountId: options.accountId ?? null,
      state,
      sentAt: options.sentAt ?? (state === 'sent' ? new Date(Date.now() - 3_600_000) : null),
    })
    .returning();
  return message!;
}
