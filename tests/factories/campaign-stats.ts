import { randomBytes, randomUUID } from 'node:crypto';
import {
  campaignContacts,
  campaignSteps,
  campaignStepVariants,
  campaigns,
  emailEvents,
  inboundMessages,
  outboxMessages,
} from '@server/db/schema/index';
import type { InboxCategory } from '@shared/inbox';
import type { FastifyInstance } from 'fastify';

/*
 * A campaign as the engine leaves it after some sending, written straight with Drizzle: steps and
 * variants, contacts, outbox messages and the events the dispatcher, tracking and inbound would record.
 */

type Db = FastifyInstance['services']['db'];
export type CampaignRow = typeof campaigns.$inferSelect;
export type ContactRow = typeof campaignContacts.$inferSelect;
export type MessageRow = typeof outboxMessages.$inferSelect;
type EventType = (typeof emailEvents.$inferInsert)['type'];

export async function seedCampaign(
  db: Db,
  userId: string,
  options: {
    name?: string;
    status?: CampaignRow['status'];
    steps?: string[][];
    startedAt?: Date | null;
  } = {},
) {
  const [campaign] = await db
    .insert(campaigns)
    .values({
      userId,
      name: options.name ?? `Campaign ${randomUUID().slice(0, 8)}`,
      status: options.status ?? 'active',
      startedAt: options.startedAt === undefined ? new Date() : options.startedAt,
    })
    .returning();
  const steps: { id: string; position: number }[] = [];
  for (const [i, keys] of (options.steps ?? []).entries()) {
    const [step] = await db
      .insert(campaignSteps)
      .values({ campaignId: campaign!.id, userId, position: i + 1, delayDays: i === 0 ? 0 : 3 })
      .returning();
    await db.insert(campaignStepVariants).values(
      keys.map((key) => ({
        stepId: step!.id,
        campaignId: campaign!.id,
        key: key as 'A',
        subject: `Step ${i + 1} ${key}`,
        bodyHtml: '<p>Hello</p>',
        splitPercent: Math.floor(100 / keys.length),
      })),
    );
    steps.push({ id: step!.id, position: i + 1 });
  }
  return { campaign: campaign!, steps };
}

export async function seedContact(
  db: Db,
  campaign: CampaignRow,
  values: Partial<typeof campaignContacts.$inferInsert> & { email: string },
): Promise<ContactRow> {
  const [row] = await db
    .insert(campaignContacts)
    .values({ campaignId: campaign.id, userId: campaign.userId, ...values })
    .returning();
  return row!;
}

export async function seedMessage(
  db: Db,
  campaign: CampaignRow,
  contact: ContactRow,
  values: {
    stepId?: string | null;
    variantKey?: string | null;
    state?: MessageRow['state'];
    sendAfter?: Date;
  },
): Promise<MessageRow> {
  const state = values.state ?? 'sent';
  const [row] = await db
    .insert(outboxMessages)
    .values({
      token: randomBytes(16).toString('base64url'),
      userId: campaign.userId,
      campaignId: campaign.id,
      campaignContactId: contact.id,
      stepId: values.stepId ?? null,
      variantKey: values.variantKey ?? null,
      toEmail: contact.email,
      subject: 'Hello',
      html: '<p>Hello</p>',
      state,
      sendAfter: values.sendAfter ?? new Date(),
      sentAt: state === 'sent' ? new Date() : null,
    })
    .returning();
  return row!;
}

export async function seedEvent(
  db: Db,
  message: MessageRow,
  type: EventType,
  values: { at?: Date; machine?: boolean; detail?: string } = {},
): Promise<void> {
  await db.insert(emailEvents).values({
    userId: message.userId,
    campaignId: message.campaignId,
    stepId: message.stepId,
    campaignContactId: message.campaignContactId,
    outboxMessageId: message.id,
    type,
    occurredAt: values.at ?? new Date(),
    machine: values.machine ?? false,
    machineReason: values.machine ? 'apple_mpp' : null,
    detail: values.detail ?? null,
  });
}

export async function seedInbound(
  db: Db,
  message: MessageRow,
  values: {
    kind: string;
    subject?: string;
    text?: string;
    at?: Date;
    from?: string;
    category?: InboxCategory | null;
  },
) {
  const [row] = await db
    .insert(inboundMessages)
    .values({
      userId: message.userId,
      campaignId: message.campaignId,
      campaignContactId: message.campaignContactId,
      outboxMessageId: message.id,
      kind: values.kind,
      fromAddress: values.from ?? message.toEmail,
      subject: values.subject ?? 'Re: Hello',
      textBody: values.text ?? 'Thanks, let us talk next week.',
      receivedAt: values.at ?? new Date(),
      category: values.category ?? null,
    })
    .returning();
  return row!;
}
