import type { Database } from '@server/db/client';
import { devMailMessages, inboxReplies, outboxAll, senderAccounts } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { notFound } from '@server/lib/errors';
import type { SystemMailer } from '@server/lib/mailer';
import {
  INBOUND_MESSAGES,
  type InboundKind,
  type InboundResult,
  type SimulatedInboundKind,
} from '@shared/inbound';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { buildSimulatedMail, extractMessageIds, processInboundMessage } from '../inbound/inbound.service';

/*
 * The development mailbox's "simulate" buttons: answer a caught campaign message as its recipient (or
 * their mail server) would, and run the answer through the real inbound processing, scoped to the owner
 * of the campaign message it answers.
 */

const EXPECTED_KIND: Record<SimulatedInboundKind, InboundKind> = {
  reply: 'reply',
  bounce: 'bounce_hard',
  out_of_office: 'out_of_office',
  unsubscribe: 'unsubscribe_request',
};

const ADDRESS = /[^\s<>"',;:]+@[^\s<>"',;:]+/;

export async function simulateDevMailAnswer(options: {
  db: Database;
  log: FastifyBaseLogger;
  id: string;
  kind: SimulatedInboundKind;
  senderHealth?: { mailer: SystemMailer; appUrl: string };
}): Promise<InboundResult> {
  const { db } = options;
  const [caught] = await db.select().from(devMailMessages).where(eq(devMailMessages.id, options.id)).limit(1);
  if (!caught) throw notFound('Message not found');
  const notCampaign = {
    kind: EXPECTED_KIND[options.kind],
    matched: false,
    detail: INBOUND_MESSAGES.notACampaignMessage,
  };

  const messageId = extractMessageIds(
    caught.headers.find((h) => h.key.toLowerCase() === 'message-id')?.value,
  )[0];
  if (!messageId) return notCampaign;
  const [sent] = await db
    .select({
      messageId: outboxAll.messageId,
      userId: outboxAll.userId,
      senderAccountId: outboxAll.senderAccountId,
      toEmail: outboxAll.toEmail,
      subject: outboxAll.subject,
      sentAt: outboxAll.sentAt,
      accountEmail: senderAccounts.fromEmail,
    })
    .from(outboxAll)
    .leftJoin(senderAccounts, eq(senderAccounts.id, outboxAll.senderAccountId))
    .where(inArray(outboxAll.messageId, [...new Set([messageId, messageId.toLowerCase()])]))
    .limit(1);
  if (!sent?.messageId) return (await simulateAnswerToInboxReply(options, messageId, caught)) ?? notCampaign;

  const at = now();
  const raw = buildSimulatedMail({
    kind: options.kind,
    at,
    original: {
      messageId: sent.messageId,
      subject: caught.subject || sent.subject,
      from: ADDRESS.exec(caught.fromAddress)?.[0] ?? sent.accountEmail ?? 'sender@localhost',
      to: sent.toEmail,
      sentAt: sent.sentAt ?? caught.receivedAt,
      text: caught.text,
    },
  });
  return processInboundMessage({
    db,
    log: options.log,
    raw,
    senderAccountId: sent.senderAccountId,
    userId: sent.userId,
    senderHealth: options.senderHealth,
  });
}

/**
 * A caught reply the user wrote in the inbox: the contact answers it, and the answer goes through the
 * same inbound path, where it finds its conversation by the reply's Message-ID.
 */
async function simulateAnswerToInboxReply(
  options: Parameters<typeof simulateDevMailAnswer>[0],
  messageId: string,
  caught: typeof devMailMessages.$inferSelect,
): Promise<InboundResult | null> {
  const [reply] = await options.db
    .select()
    .from(inboxReplies)
    .where(inArray(inboxReplies.messageId, [...new Set([messageId, messageId.toLowerCase()])]))
    .limit(1);
  if (!reply) return null;
  const raw = buildSimulatedMail({
    kind: options.kind,
    at: now(),
    original: {
      messageId: reply.messageId,
      subject: reply.subject,
      from: reply.fromAddress,
      to: reply.toAddress,
      sentAt: reply.sentAt,
      text: caught.text,
    },
  });
  return processInboundMessage({
    db: options.db,
    log: options.log,
    raw,
    senderAccountId: reply.senderAccountId,
    userId: reply.userId,
    senderHealth: options.senderHealth,
  });
}
