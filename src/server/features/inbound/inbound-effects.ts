import type { Database } from '@server/db/client';
import { campaignContacts, emailEvents, outboxArchive, outboxMessages } from '@server/db/schema/index';
import type { InboundKind } from '@shared/inbound';
import type { CampaignContactStatus, EmailEventType } from '@shared/sending';
import { formatPausedUntil } from '@shared/zoned-time';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { addSuppression } from '../suppression/suppression.service';
import type { InboundClassification } from './classify-inbound';
import { outOfOfficePausedUntil } from './out-of-office-pause';

/*
 * What a matched inbound message does to the campaign it answers. Runs inside the caller's transaction,
 * together with the inbound_messages row, so a message is either fully applied or not at all.
 */

/** The outbox message an inbound mail answers, with what the effects need of its contact. */
export interface MatchedMessage {
  id: string;
  userId: string;
  campaignId: string;
  campaignContactId: string;
  stepId: string | null;
  senderAccountId: string | null;
  toEmail: string;
  state: string;
  contactTimeZone: string | null;
  campaignTimeZone: string;
}

export interface EffectInput {
  tx: Database;
  kind: InboundKind;
  match: MatchedMessage;
  classification: InboundClassification;
  /** The mailbox the mail arrived in (events fall back to it when the message lost its account). */
  inboundAccountId: string | null;
  subject: string;
  fromAddress: string | null;
  at: Date;
}

const DETAIL_MAX = 300;
/** A status a reply, bounce or unsubscribe never overwrites: the stronger fact stays. */
const FINAL_FOR_REPLY: CampaignContactStatus[] = ['replied', 'bounced', 'unsubscribed'];
const FINAL_FOR_BOUNCE: CampaignContactStatus[] = ['bounced', 'unsubscribed'];

export async function applyInboundEffects(input: EffectInput): Promise<string> {
  switch (input.kind) {
    case 'reply':
      return applyReply(input);
    case 'out_of_office':
      return applyOutOfOffice(input);
    case 'bounce_hard':
      return applyHardBounce(input);
    case 'bounce_soft':
      return applySoftBounce(input);
    case 'complaint':
      return applyUnsubscribe(input, 'complained');
    case 'unsubscribe_request':
      return applyUnsubscribe(input, 'unsubscribed');
    default:
      return 'Matched a campaign message; this kind of mail changes nothing';
  }
}

async function applyReply(input: EffectInput): Promise<string> {
  const { tx, match, at } = input;
  const changed = await setContactStatus(tx, match, 'replied', FINAL_FOR_REPLY, at);
  const cancelled = await cancelQueued(tx, match, 'The contact replied', at);
  await recordEvent(input, 'replied', input.subject || null, { from: input.fromAddress });
  return changed
    ? `Reply from ${input.fromAddress ?? 'the contact'}: their sequence stopped${cancelledNote(cancelled)}`
    : `Reply from ${input.fromAddress ?? 'the contact'} recorded (their sequence had already ended)`;
}

async function applyOutOfOffice(input: EffectInput): Promise<string> {
  const { tx, match, at, classification } = input;
  const pausedUntil = outOfOfficePausedUntil({
    returnDate: classification.returnDate,
    timeZone: match.contactTimeZone ?? match.campaignTimeZone,
    at,
  });
  const [paused] = await tx
    .update(campaignContacts)
    .set({ status: 'paused', pausedUntil, statusChangedAt: at, updatedAt: at })
    .where(
      and(
        eq(campaignContacts.id, match.campaignContactId),
        inArray(campaignContacts.status, ['active', 'paused']),
      ),
    )
    .returning({ id: campaignContacts.id });
  if (paused) {
    // The dispatcher also defers paused contacts; moving the rows keeps them off its claims meanwhile.
    await tx
      .update(outboxMessages)
      .set({
        sendAfter: sql`greatest(${outboxMessages.sendAfter}, ${pausedUntil.toISOString()}::timestamptz)`,
        updatedAt: at,
      })
      .where(
        and(
          eq(outboxMessages.campaignContactId, match.campaignContactId),
          eq(outboxMessages.state, 'queued'),
        ),
      );
  }
  const returnDay = classification.returnDate?.toISOString().slice(0, 10) ?? null;
  await recordEvent(input, 'out_of_office', input.subject || null, {
    returnDate: returnDay,
    pausedUntil: paused ? pausedUntil.toISOString() : null,
  });
  if (!paused) return 'Out-of-office recorded (the contact is no longer active, nothing to pause)';
  const resumes = formatPausedUntil(pausedUntil, match.campaignTimeZone);
  return classification.returnDate
    ? `Out of office until ${formatReturnDay(classification.returnDate)}: the contact is ${resumes}`
    : `Out of office with no return date: the contact is ${resumes}`;
}

async function applyHardBounce(input: EffectInput): Promise<string> {
  const { tx, match, at, classification } = input;
  const reason =
    [classification.statusCode, classification.diagnostic].filter(Boolean).join(' ') || 'Bounced';
  const bounced = { state: 'bounced' as const, lastError: reason.slice(0, DETAIL_MAX), updatedAt: at };
  const marked = await tx
    .update(outboxMessages)
    .set(bounced)
    .where(and(eq(outboxMessages.id, match.id), eq(outboxMessages.state, 'sent')))
    .returning({ id: outboxMessages.id });
  // A bounce report can come after the message was archived (a week after it went).
  if (marked.length === 0) {
    await tx
      .update(outboxArchive)
      .set(bounced)
      .where(and(eq(outboxArchive.id, match.id), eq(outboxArchive.state, 'sent')));
  }
  await setContactStatus(tx, match, 'bounced', FINAL_FOR_BOUNCE, at);
  // The address we mailed is what gets suppressed (a report may name the forward it bounced at).
  await addSuppression({
    db: tx,
    userId: match.userId,
    email: match.toEmail,
    reason: 'bounced',
    source: 'bounce_report',
    note: classification.statusCode,
  });
  const cancelled = await cancelQueued(tx, match, 'The address bounced', at);
  await recordEvent(input, 'bounced', classification.diagnostic, {
    hard: true,
    statusCode: classification.statusCode,
    diagnostic: classification.diagnostic,
    recipient: classification.bouncedRecipient,
    ...(input.kind !== input.classification.kind ? { escalatedFromSoft: true } : {}),
  });
  const escalated = input.kind !== classification.kind ? ' after repeated soft bounces' : '';
  return `Hard bounce${classification.statusCode ? ` (${classification.statusCode})` : ''}${escalated}: ${match.toEmail} is suppressed${cancelledNote(cancelled)}`;
}

async function applySoftBounce(input: EffectInput): Promise<string> {
  const { classification } = input;
  await recordEvent(input, 'bounced', classification.diagnostic, {
    hard: false,
    statusCode: classification.statusCode,
    diagnostic: classification.diagnostic,
    recipient: classification.bouncedRecipient,
  });
  return `Soft bounce${classification.statusCode ? ` (${classification.statusCode})` : ''} recorded; the address stays on the list`;
}

/** A complaint or an unsubscribe request: honoured at once and forever, like the unsubscribe link. */
async function applyUnsubscribe(input: EffectInput, type: 'complained' | 'unsubscribed'): Promise<string> {
  const { tx, match, at } = input;
  await addSuppression({
    db: tx,
    userId: match.userId,
    email: match.toEmail,
    reason: type,
    source: type === 'complained' ? 'complaint' : 'unsubscribe_reply',
  });
  const changed = await setContactStatus(tx, match, 'unsubscribed', ['unsubscribed'], at);
  const cancelled = await cancelQueued(
    tx,
    match,
    type === 'complained' ? 'The recipient reported the mail as spam' : 'The recipient unsubscribed',
    at,
  );
  // A complaint always counts; a second unsubscribe (link, then reply) is the same promise, not a new one.
  if (type === 'complained' || changed) {
    await recordEvent(input, type, input.classification.diagnostic ?? (input.subject || null), {
      via: input.classification.unsubscribeToken
        ? 'mailto'
        : type === 'complained'
          ? 'feedback_loop'
          : 'reply',
    });
  }
  const verb = type === 'complained' ? 'Spam complaint' : 'Unsubscribe request';
  return `${verb}: ${match.toEmail} is suppressed and unsubscribed${cancelledNote(cancelled)}`;
}

async function setContactStatus(
  tx: Database,
  match: MatchedMessage,
  status: CampaignContactStatus,
  keepIf: CampaignContactStatus[],
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .update(campaignContacts)
    // Replied, bounced or unsubscribed: no next step, and the next-step index (migration 0072: every row
    // with one, whatever its status) does not keep an entry for a contact that will never be due.
    .set({ status, nextStepAt: null, statusChangedAt: at, updatedAt: at })
    .where(and(eq(campaignContacts.id, match.campaignContactId), notInArray(campaignContacts.status, keepIf)))
    .returning({ id: campaignContacts.id });
  return rows.length > 0;
}

async function cancelQueued(tx: Database, match: MatchedMessage, reason: string, at: Date): Promise<number> {
  const rows = await tx
    .update(outboxMessages)
    .set({ state: 'cancelled', lastError: reason, updatedAt: at })
    .where(
      and(eq(outboxMessages.campaignContactId, match.campaignContactId), eq(outboxMessages.state, 'queued')),
    )
    .returning({ id: outboxMessages.id });
  return rows.length;
}

async function recordEvent(
  input: EffectInput,
  type: EmailEventType,
  detail: string | null,
  metadata: Record<string, unknown>,
): Promise<void> {
  const { match } = input;
  await input.tx.insert(emailEvents).values({
    userId: match.userId,
    campaignId: match.campaignId,
    stepId: match.stepId,
    campaignContactId: match.campaignContactId,
    outboxMessageId: match.id,
    senderAccountId: match.senderAccountId ?? input.inboundAccountId,
    type,
    occurredAt: input.at,
    detail: detail ? detail.slice(0, DETAIL_MAX) : null,
    metadata,
  });
}

function cancelledNote(count: number): string {
  if (count === 0) return '';
  return count === 1 ? '; 1 queued message cancelled' : `; ${count} queued messages cancelled`;
}

/** The day an out-of-office says the contact is back, as people write it: "Tue 1 Dec 2026". */
function formatReturnDay(day: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
    .format(day)
    .replace(',', '');
}
