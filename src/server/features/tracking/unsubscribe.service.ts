import type { Database } from '@server/db/client';
import {
  campaignContacts,
  emailEvents,
  outboxAll,
  outboxMessages,
  senderAccounts,
  users,
} from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { isRetryableTransactionError } from '@server/lib/db-errors';
import { maskEmail } from '@shared/contacts';
import { and, eq, ne } from 'drizzle-orm';
import { addSuppression } from '../suppression/suppression.service';
import { USER_AGENT_MAX_LENGTH } from './tracking-hits';

/*
 * The unsubscribe link of every message (`/u/:token`): a confirm page and the RFC 8058 one-click POST.
 * An unsubscribe is a legal promise, so it is written to the database before the answer, never buffered:
 * the address joins the owner's suppression list (permanent), the contact's sequence ends, and their
 * still-queued messages are cancelled. Doing it twice changes nothing and records nothing new.
 */

export interface UnsubscribeView {
  /** "a***@example.com": enough for the person to recognise their address, not enough to leak it. */
  maskedEmail: string;
  senderName: string;
  unsubscribed: boolean;
}

interface UnsubscribeTarget {
  messageId: string;
  userId: string;
  campaignId: string;
  campaignContactId: string;
  stepId: string | null;
  senderAccountId: string | null;
  toEmail: string;
  senderName: string;
  contactStatus: string;
}

async function findUnsubscribeTarget(db: Database, token: string): Promise<UnsubscribeTarget | null> {
  const [row] = await db
    .select({
      messageId: outboxAll.id,
      userId: outboxAll.userId,
      campaignId: outboxAll.campaignId,
      campaignContactId: outboxAll.campaignContactId,
      stepId: outboxAll.stepId,
      senderAccountId: outboxAll.senderAccountId,
      toEmail: outboxAll.toEmail,
      accountName: senderAccounts.fromName,
      ownerName: users.name,
      contactStatus: campaignContacts.status,
    })
    .from(outboxAll)
    .innerJoin(campaignContacts, eq(campaignContacts.id, outboxAll.campaignContactId))
    .innerJoin(users, eq(users.id, outboxAll.userId))
    .leftJoin(senderAccounts, eq(senderAccounts.id, outboxAll.senderAccountId))
    .where(eq(outboxAll.token, token))
    .limit(1);
  if (!row) return null;
  const { accountName, ownerName, ...rest } = row;
  return { ...rest, senderName: accountName?.trim() || ownerName.trim() || 'the sender' };
}

/** The confirm page's content, or null when no message has this token. */
export async function getUnsubscribeView(options: {
  db: Database;
  token: string;
}): Promise<UnsubscribeView | null> {
  const target = await findUnsubscribeTarget(options.db, options.token);
  if (!target) return null;
  return {
    maskedEmail: maskEmail(target.toEmail),
    senderName: target.senderName,
    unsubscribed: target.contactStatus === 'unsubscribed',
  };
}

/**
 * Unsubscribes the recipient of the message with this token. `changed` is false when they already were
 * (then nothing was written and no event recorded). Null when no message has this token.
 */
export async function unsubscribeByToken(options: {
  db: Database;
  token: string;
  /** 'one_click' for a mail provider's RFC 8058 POST, 'page' for the confirm page's button. */
  via: 'one_click' | 'page';
  userAgent?: string;
}): Promise<{ view: UnsubscribeView; changed: boolean } | null> {
  const target = await findUnsubscribeTarget(options.db, options.token);
  if (!target) return null;
  const at = now();
  const changed = await withTransactionRetry(() =>
    options.db.transaction(async (tx) => {
      // Every write is idempotent; only the contact's status change decides whether this POST is the one
      // that unsubscribed them (two concurrent POSTs: the row lock lets exactly one through).
      await addSuppression({
        db: tx,
        userId: target.userId,
        email: target.toEmail,
        reason: 'unsubscribed',
        source: 'unsubscribe_link',
      });
      const [ended] = await tx
        .update(campaignContacts)
        // No next step once ended: the next-step index keeps only rows with one (migration 0072).
        .set({ status: 'unsubscribed', nextStepAt: null, statusChangedAt: at, updatedAt: at })
        .where(
          and(eq(campaignContacts.id, target.campaignContactId), ne(campaignContacts.status, 'unsubscribed')),
        )
        .returning({ id: campaignContacts.id });
      await tx
        .update(outboxMessages)
        .set({ state: 'cancelled', lastError: 'The recipient unsubscribed', updatedAt: at })
        .where(
          and(
            eq(outboxMessages.campaignContactId, target.campaignContactId),
            eq(outboxMessages.state, 'queued'),
          ),
        );
      if (!ended) return false;
      await tx.insert(emailEvents).values({
        userId: target.userId,
        campaignId: target.campaignId,
        stepId: target.stepId,
        campaignContactId: target.campaignContactId,
        outboxMessageId: target.messageId,
        senderAccountId: target.senderAccountId,
        type: 'unsubscribed',
        occurredAt: at,
        userAgent: options.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
        metadata: { via: options.via },
      });
      return true;
    }),
  );
  return {
    view: { maskedEmail: maskEmail(target.toEmail), senderName: target.senderName, unsubscribed: true },
    changed,
  };
}

/**
 * The dispatcher locks outbox and contact rows in its own order; should the database pick this
 * transaction as a deadlock victim, it is run again rather than failing a legal request.
 */
async function withTransactionRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryableTransactionError(error)) throw error;
    }
  }
}
