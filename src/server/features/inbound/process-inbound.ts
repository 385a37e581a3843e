import { createHash } from 'node:crypto';
import type { Database } from '@server/db/client';
import {
  campaignContacts,
  campaigns,
  emailEvents,
  inboundMessages,
  inboxReplies,
  outboxAll,
  senderAccounts,
} from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { notFound } from '@server/lib/errors';
import type { SystemMailer } from '@server/lib/mailer';
import { INBOUND_MESSAGES, type InboundKind, type InboundResult } from '@shared/inbound';
import { and, desc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type ParsedMail, simpleParser } from 'mailparser';
import { checkCampaignHealth, checkSenderBounceRate } from '../sending/sending.service';
import { extractMessageIds } from './bounce-report';
import { categorizeInbound } from './categorize-inbound';
import { classifyInbound, freshText, type InboundClassification } from './classify-inbound';
import { applyInboundEffects, type MatchedMessage } from './inbound-effects';

/*
 * One message from a sender account's mailbox (or the development mailbox's simulation): parse, classify,
 * find the campaign message it answers — only among the mailbox owner's own messages, so one user's
 * mailbox can never touch another user's campaign — then store it and apply its effects in one
 * transaction. The (account, Message-ID) unique index makes a second look at the same mail a no-op.
 */

/** Larger mail is cut here before parsing: what classification needs sits at the start. */
export const MAX_INBOUND_BYTES = 2 * 1024 * 1024;
const TEXT_BODY_MAX = 20_000;
const SOFT_BOUNCE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** The third soft bounce of an address within the window counts as hard. */
const SOFT_BOUNCES_TO_ESCALATE = 3;
/** A bounce report with no Message-ID we know is matched by address among this many recent sends. */
const RECIPIENT_FALLBACK_LIMIT = 1;

export interface ProcessInboundOptions {
  db: Database;
  log: FastifyBaseLogger;
  raw: Buffer | string;
  /** The mailbox it arrived in; scopes matching to that account's owner. */
  senderAccountId?: string | null;
  /** The owner; scopes matching when there is no account (or must agree with it). */
  userId?: string;
  /** When given, a hard bounce re-checks the sending account's bounce rate (and may pause it). */
  senderHealth?: { mailer: SystemMailer; appUrl: string };
}

export async function processInboundMessage(options: ProcessInboundOptions): Promise<InboundResult> {
  const { db, log } = options;
  const raw = capRaw(options.raw);
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true });
  } catch (error) {
    log.warn({ err: error }, 'inbound mail could not be parsed');
    return { kind: 'other', matched: false, detail: INBOUND_MESSAGES.unreadable };
  }
  const at = now();
  const classification = classifyInbound({ parsed, raw, receivedAt: at });

  const ownerId = await resolveOwner(db, options.senderAccountId ?? null, options.userId);
  const match = await findMatchingMessage({
    db,
    ownerId,
    accountId: options.senderAccountId ?? null,
    classification,
  });
  const userId = ownerId ?? match?.userId ?? null;
  if (!userId) return { kind: classification.kind, matched: false, detail: INBOUND_MESSAGES.unmatched };

  const kind = match ? await effectiveKind(db, classification, match, at) : classification.kind;
  const fromAddress = parsed.from?.value[0]?.address?.toLowerCase() ?? null;
  const subject = (parsed.subject ?? '').slice(0, 998);

  const outcome = await db.transaction(async (tx) => {
    // Mail that answers nothing we sent is the user's own business: only its Message-ID is kept (so a
    // second look at the mailbox skips it), never who wrote it or what it says.
    const textBody = freshText(parsed.text ?? '').slice(0, TEXT_BODY_MAX);
    const content = match
      ? {
          fromAddress,
          subject,
          textBody,
          details: detailsOf(classification, kind),
          category: categorizeInbound({ kind, subject, text: textBody }),
          categorySource: 'rule' as const,
        }
      : { fromAddress: null, subject: null, textBody: null, details: {} };
    const [stored] = await tx
      .insert(inboundMessages)
      .values({
        userId,
        senderAccountId: options.senderAccountId ?? null,
        outboxMessageId: match?.id ?? null,
        campaignId: match?.campaignId ?? null,
        campaignContactId: match?.campaignContactId ?? null,
        kind,
        messageIdHeader: messageIdOf(parsed, raw),
        ...content,
        receivedAt: at,
      })
      .onConflictDoNothing({
        target: [inboundMessages.senderAccountId, inboundMessages.messageIdHeader],
        where: isNotNull(inboundMessages.messageIdHeader),
      })
      .returning({ id: inboundMessages.id });
    if (!stored) return { detail: INBOUND_MESSAGES.duplicate, applied: false };
    if (!match) return { detail: INBOUND_MESSAGES.unmatched, applied: false };
    const detail = await applyInboundEffects({
      tx: tx as unknown as Database,
      kind,
      match,
      classification,
      inboundAccountId: options.senderAccountId ?? null,
      subject,
      fromAddress,
      at,
    });
    return { detail, applied: true };
  });

  if (outcome.applied && kind === 'bounce_hard' && match?.senderAccountId && options.senderHealth) {
    await checkSenderBounceRate({ db, ...options.senderHealth, accountId: match.senderAccountId }).catch(
      (error) => log.error({ err: error, accountId: match.senderAccountId }, 'bounce-rate check failed'),
    );
  }
  // A campaign whose bounces or complaints pass its limits pauses itself.
  if (outcome.applied && (kind === 'bounce_hard' || kind === 'complaint') && match && options.senderHealth) {
    await checkCampaignHealth({ db, ...options.senderHealth, campaignId: match.campaignId, log }).catch(
      (error) => log.error({ err: error, campaignId: match.campaignId }, 'campaign health check failed'),
    );
  }
  return { kind, matched: match !== null, detail: outcome.detail };
}

function capRaw(raw: Buffer | string): Buffer | string {
  if (typeof raw === 'string') return raw.length > MAX_INBOUND_BYTES ? raw.slice(0, MAX_INBOUND_BYTES) : raw;
  return raw.length > MAX_INBOUND_BYTES ? raw.subarray(0, MAX_INBOUND_BYTES) : raw;
}

async function resolveOwner(
  db: Database,
  accountId: string | null,
  userId: string | undefined,
): Promise<string | null> {
  if (!accountId) return userId ?? null;
  const [account] = await db
    .select({ userId: senderAccounts.userId })
    .from(senderAccounts)
    .where(and(eq(senderAccounts.id, accountId), userId ? eq(senderAccounts.userId, userId) : undefined))
    .limit(1);
  if (!account) throw notFound('Sender account not found');
  return account.userId;
}

const matchColumns = {
  id: outboxAll.id,
  userId: outboxAll.userId,
  campaignId: outboxAll.campaignId,
  campaignContactId: outboxAll.campaignContactId,
  stepId: outboxAll.stepId,
  senderAccountId: outboxAll.senderAccountId,
  toEmail: outboxAll.toEmail,
  state: outboxAll.state,
  messageId: outboxAll.messageId,
  contactTimeZone: campaignContacts.timeZone,
  campaignTimeZone: campaigns.timeZone,
};

/**
 * The referenced message, most telling reference first (the report's original, then In-Reply-To, then
 * References newest first); an unsubscribe mailto by its token; a bounce with no usable reference by
 * the address among the owner's latest sends.
 */
async function findMatchingMessage(options: {
  db: Database;
  ownerId: string | null;
  accountId: string | null;
  classification: InboundClassification;
}): Promise<MatchedMessage | null> {
  const { db, ownerId, classification } = options;
  const owned = (condition: SQL) => (ownerId ? and(condition, eq(outboxAll.userId, ownerId))! : condition);
  const select = () =>
    db
      .select(matchColumns)
      .from(outboxAll)
      .innerJoin(campaignContacts, eq(campaignContacts.id, outboxAll.campaignContactId))
      .innerJoin(campaigns, eq(campaigns.id, outboxAll.campaignId));

  if (classification.unsubscribeToken) {
    const [row] = await select()
      .where(owned(eq(outboxAll.token, classification.unsubscribeToken)))
      .limit(1);
    if (row) return toMatch(row);
  }

  const references = classification.referencedMessageIds;
  if (references.length > 0) {
    // Stored ids are ours, written as generated; replies usually keep the case, some mail systems do not.
    const variants = [...new Set(references.flatMap((id) => [id, id.toLowerCase()]))];
    const rows = await select().where(owned(inArray(outboxAll.messageId, variants)));
    const rank = (messageId: string | null) => {
      const index = references.findIndex((id) => id.toLowerCase() === messageId?.toLowerCase());
      return index === -1 ? Number.MAX_SAFE_INTEGER : index;
    };
    const best = rows.sort((a, b) => rank(a.messageId) - rank(b.messageId))[0];
    if (best) return toMatch(best);
    // An answer to a reply the user sent from the inbox, from a client that kept only In-Reply-To: the
    // conversation's campaign message stands for it.
    const [fromInbox] = await select()
      .innerJoin(inboxReplies, eq(inboxReplies.outboxMessageId, outboxAll.id))
      .where(owned(inArray(inboxReplies.messageId, variants)))
      .limit(1);
    if (fromInbox) return toMatch(fromInbox);
  }

  const isReport = ['bounce_hard', 'bounce_soft', 'complaint'].includes(classification.kind);
  if (isReport && classification.bouncedRecipient && ownerId) {
    const rows = await select()
      .where(
        and(
          eq(campaignContacts.userId, ownerId),
          sql`lower(${campaignContacts.email}) = ${classification.bouncedRecipient.toLowerCase()}`,
          eq(outboxAll.userId, ownerId),
          inArray(outboxAll.state, ['sent', 'bounced']),
          options.accountId ? eq(outboxAll.senderAccountId, options.accountId) : undefined,
        ),
      )
      .orderBy(desc(outboxAll.sentAt))
      .limit(RECIPIENT_FALLBACK_LIMIT);
    if (rows[0]) return toMatch(rows[0]);
  }
  return null;
}

function toMatch(row: MatchedMessage & { messageId: string | null }): MatchedMessage {
  const { messageId: _messageId, ...match } = row;
  return match;
}

/** A soft bounce becomes hard when the same address soft-bounced twice already in the last 7 days. */
async function effectiveKind(
  db: Database,
  classification: InboundClassification,
  match: MatchedMessage,
  at: Date,
): Promise<InboundKind> {
  if (classification.kind !== 'bounce_soft') return classification.kind;
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(emailEvents)
    .innerJoin(outboxAll, eq(outboxAll.id, emailEvents.outboxMessageId))
    .innerJoin(campaignContacts, eq(campaignContacts.id, outboxAll.campaignContactId))
    .where(
      and(
        eq(campaignContacts.userId, match.userId),
        sql`lower(${campaignContacts.email}) = ${match.toEmail.toLowerCase()}`,
        eq(emailEvents.type, 'bounced'),
        sql`${emailEvents.metadata}->>'hard' = 'false'`,
        sql`${emailEvents.occurredAt} >= ${new Date(at.getTime() - SOFT_BOUNCE_WINDOW_MS).toISOString()}::timestamptz`,
      ),
    );
  return Number(row?.count ?? 0) + 1 >= SOFT_BOUNCES_TO_ESCALATE ? 'bounce_hard' : 'bounce_soft';
}

/**
 * The mail's own Message-ID, or a digest of its bytes when it has none, so that a second look at a mail
 * without one is still recognised.
 */
function messageIdOf(parsed: ParsedMail, raw: Buffer | string): string {
  const id = extractMessageIds(parsed.messageId)[0];
  if (id) return id.slice(0, 500);
  return `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

function detailsOf(classification: InboundClassification, kind: InboundKind): Record<string, unknown> {
  return {
    classifiedAs: classification.kind,
    ...(kind !== classification.kind ? { escalatedFromSoft: true } : {}),
    referencedMessageIds: classification.referencedMessageIds.slice(0, 10),
    bouncedRecipient: classification.bouncedRecipient,
    statusCode: classification.statusCode,
    diagnostic: classification.diagnostic,
    returnDate: classification.returnDate?.toISOString().slice(0, 10) ?? null,
  };
}
