import type { Database } from '@server/db/client';
import { inboundMessages, inboxReplies, outboxAll } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import type { HostLookup, SenderNetwork } from '@server/lib/network-guard';
import type { ThreadEntry } from '@shared/inbox';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { sendOneOffEmail } from '../sender-accounts/sender-accounts.service';
import { makeMessageId } from '../sending/sending.service';
import { replyAccountOf } from './inbox.service';

/*
 * A reply written in the inbox: sent through the account the conversation came through (its own SMTP,
 * one of its sends for today, refused at its cap), as a reply in the thread — "Re: " and the subject,
 * In-Reply-To the answer's Message-ID, References the conversation so far — with the account's signature,
 * and kept in the thread. Its Message-ID is stored, so the contact's next answer finds its way back.
 */

/** References keep the first id and the most recent ones, as RFC 5322 allows. */
const MAX_REFERENCES = 10;
const QUOTED_LINES = 40;

export async function sendInboxReply(options: {
  db: Database;
  userId: string;
  id: string;
  text: string;
  encryptionKey: Buffer;
  network: SenderNetwork;
  devMailboxPort: number | null;
  ehloName?: string | null;
  lookup?: HostLookup;
}): Promise<ThreadEntry> {
  const { db, userId } = options;
  const [answered] = await db
    .select({
      inbound: inboundMessages,
      outboxMessageId: outboxAll.id,
      outboxSubject: outboxAll.subject,
      outboxMessageIdHeader: outboxAll.messageId,
      outboxReferences: outboxAll.threadReferences,
      toEmail: outboxAll.toEmail,
      toName: outboxAll.toName,
    })
    .from(inboundMessages)
    .leftJoin(outboxAll, eq(outboxAll.id, inboundMessages.outboxMessageId))
    .where(
      and(
        eq(inboundMessages.id, options.id),
        eq(inboundMessages.userId, userId),
        isNotNull(inboundMessages.campaignId),
      ),
    )
    .limit(1);
  if (!answered) throw notFound('Message not found');
  const { inbound } = answered;
  const account = await replyAccountOf(db, userId, inbound.id);
  if (!account) {
    throw new AppError('conflict', 'The sender account this conversation came through no longer exists.');
  }
  if (account.status !== 'active') {
    throw new AppError('conflict', `${account.label} is paused. Resume it in Settings to reply from it.`);
  }
  const to = inbound.fromAddress ?? answered.toEmail;
  if (!to) throw new AppError('conflict', 'This message has no address to reply to.');

  // Earlier replies from the app belong in References too, so the conversation stays one thread.
  const earlier = inbound.campaignContactId
    ? await db
        .select({ messageId: inboxReplies.messageId })
        .from(inboxReplies)
        .where(
          and(eq(inboxReplies.userId, userId), eq(inboxReplies.campaignContactId, inbound.campaignContactId)),
        )
        .orderBy(asc(inboxReplies.sentAt))
    : [];
  const answeredId = inbound.messageIdHeader?.startsWith('sha256:') ? null : inbound.messageIdHeader;
  const references = limitReferences(
    dedupe([
      ...(answered.outboxReferences ?? []),
      ...(answered.outboxMessageIdHeader ? [answered.outboxMessageIdHeader] : []),
      ...earlier.map((r) => r.messageId),
      ...(answeredId ? [answeredId] : []),
    ]),
  );
  const subject = replySubject(inbound.subject || answered.outboxSubject || '');
  const signature = account.signature?.trim();
  const at = now();
  const body = [
    options.text.trim(),
    ...(signature ? ['', '-- ', signature] : []),
    '',
    quoteOf(inbound.textBody ?? '', inbound.fromAddress, inbound.receivedAt),
  ].join('\n');
  const messageId = makeMessageId(account.fromEmail);
  await sendOneOffEmail({
    db,
    account,
    encryptionKey: options.encryptionKey,
    network: options.network,
    devMailboxPort: options.devMailboxPort,
    ehloName: options.ehloName,
    lookup: options.lookup,
    mail: {
      from: { name: account.fromName, address: account.fromEmail },
      to,
      ...(account.replyTo ? { replyTo: account.replyTo } : {}),
      subject,
      text: body,
      html: textToHtml(body),
      messageId: `<${messageId}>`,
      date: at,
      ...(answeredId ? { inReplyTo: `<${answeredId}>` } : {}),
      references: references.map((id) => `<${id}>`),
    },
  });
  const [stored] = await db
    .insert(inboxReplies)
    .values({
      userId,
      inboundMessageId: inbound.id,
      campaignId: inbound.campaignId,
      campaignContactId: inbound.campaignContactId,
      outboxMessageId: answered.outboxMessageId,
      senderAccountId: account.id,
      messageId,
      inReplyTo: answeredId,
      threadReferences: references,
      fromAddress: account.fromEmail,
      toAddress: to,
      subject,
      textBody: body,
      sentAt: at,
    })
    .returning();
  await db
    .update(inboundMessages)
    .set({ readAt: at })
    .where(and(eq(inboundMessages.id, inbound.id), eq(inboundMessages.userId, userId)));
  return {
    id: stored!.id,
    type: 'replied',
    at: at.toISOString(),
    from: stored!.fromAddress,
    to: stored!.toAddress,
    subject,
    text: body,
    category: null,
  };
}

/** "Re: " before a subject, once. */
export function replySubject(subject: string): string {
  const trimmed = subject.replace(/[\r\n]+/g, ' ').trim();
  if (!trimmed) return 'Re:';
  return /^re\s*:/i.test(trimmed) ? trimmed : `Re: ${trimmed}`;
}

function limitReferences(all: string[]): string[] {
  if (all.length <= MAX_REFERENCES) return all;
  return [all[0]!, ...all.slice(all.length - (MAX_REFERENCES - 1))];
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}

function quoteOf(text: string, from: string | null, at: Date): string {
  const lines = text.trim().split(/\r?\n/).slice(0, QUOTED_LINES);
  const when = at.toUTCString().replace('GMT', 'UTC');
  return [`On ${when}, ${from ?? 'the contact'} wrote:`, ...lines.map((line) => `> ${line}`)].join('\n');
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function textToHtml(text: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((block) => `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return `<!doctype html><html><body>${paragraphs}</body></html>`;
}
