import type { campaigns } from '@server/db/schema';
import { campaignContacts, emailEvents, outboxMessages, senderAccounts } from '@server/db/schema';
import { now } from '@server/lib/clock';
import { rowsOf } from '@server/lib/list-cursor';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  certificateProblemOf,
  classifySmtpError,
  SMTP_ERROR_MESSAGES,
} from '../sender-accounts/sender-accounts.service';
import {
  recordAuthFailure,
  recordSendSuccess,
  setSenderFailing,
} from '../sender-accounts/sender-status.service';
import { addSuppression } from '../suppression/suppression.service';
import { releaseCampaignSlots } from './campaign-cap';
import { checkCampaignHealth } from './campaign-health';
import type { DispatchContext, OutboxRow } from './dispatch';
import { MAX_SEND_ATTEMPTS, REDELIVERED_DETAIL, REDELIVERY_NOTE, retryBackoffMs } from './retry-policy';
import { releaseSenderSlot, type SenderAccountRow } from './sender-allocation';
import { checkSenderBounceRate } from './sender-health';

/*
 * What happens to a message after the dispatcher tried (or declined) to send it: the outbox state
 * machine's transitions and the events analytics reads. Every transition out of 'sending' clears the
 * lease; deferrals give the attempt back (a message waiting for its window has not been tried).
 */

export interface DispatchedMessage {
  message: OutboxRow;
  account: SenderAccountRow;
  campaign: typeof campaigns.$inferSelect;
  /** The account-local day the slot was counted on (to give it back). */
  day: string;
  /** The campaign-local day a slot of the campaign's own daily cap was taken on; null without a cap. */
  campaignDay: string | null;
}

export interface DeliveryFailure {
  error: unknown;
}

export { MAX_SEND_ATTEMPTS, RETRY_BACKOFF_MS } from './retry-policy';

const ACCOUNT_COOLDOWN_MS = { connection: 5 * 60_000, auth: 10 * 60_000 } as const;

type EventInput = typeof emailEvents.$inferInsert;

function eventFor(message: OutboxRow, type: EventInput['type'], extra: Partial<EventInput> = {}): EventInput {
  return {
    userId: message.userId,
    campaignId: message.campaignId,
    stepId: message.stepId,
    campaignContactId: message.campaignContactId,
    outboxMessageId: message.id,
    senderAccountId: message.senderAccountId,
    type,
    occurredAt: now(),
    ...extra,
  };
}

export async function insertEvents(ctx: Pick<DispatchContext, 'db'>, events: EventInput[]): Promise<void> {
  for (let start = 0; start < events.length; start += 1_000) {
    await ctx.db.insert(emailEvents).values(events.slice(start, start + 1_000));
  }
}

/** Puts messages back in the queue for later, unchanged otherwise. Only rows this worker still holds. */
export async function recordDeferrals(
  ctx: DispatchContext,
  deferrals: { id: string; until: Date; reason: string | null; hold?: boolean }[],
): Promise<void> {
  if (deferrals.length === 0) return;
  const ids = deferrals.map((d) => d.id);
  const untils = deferrals.map((d) => d.until.toISOString());
  const reasons = deferrals.map((d) => d.reason);
  const holds = deferrals.map((d) => d.hold === true);
  await ctx.db.execute(sql`
    UPDATE outbox_messages AS o
    SET state = 'queued', phase = NULL, lease_owner = NULL, lease_until = NULL,
        attempts = greatest(o.attempts - 1, 0), send_after = v.until, held = v.hold,
        last_error = coalesce(v.reason, o.last_error), updated_at = ${now().toISOString()}::timestamptz
    FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(untils)}::timestamptz[], ${sql.param(reasons)}::text[],
      ${sql.param(holds)}::boolean[])
      AS v(id, until, reason, hold)
    WHERE o.id = v.id AND o.state = 'sending' AND o.lease_owner = ${ctx.workerId}`);
}

/** Messages whose contact left the sequence (cancelled) or whose address is suppressed. */
export async function recordSkipped(
  ctx: DispatchContext,
  input: { cancelled: OutboxRow[]; suppressed: OutboxRow[] },
): Promise<void> {
  const at = now();
  const clear = { phase: null, leaseOwner: null, leaseUntil: null, updatedAt: at } as const;
  if (input.cancelled.length > 0) {
    await ctx.db
      .update(outboxMessages)
      .set({ state: 'cancelled', ...clear })
      .where(
        inArray(
          outboxMessages.id,
          input.cancelled.map((m) => m.id),
        ),
      );
  }
  if (input.suppressed.length > 0) {
    await ctx.db
      .update(outboxMessages)
      .set({ state: 'suppressed', ...clear })
      .where(
        inArray(
          outboxMessages.id,
          input.suppressed.map((m) => m.id),
        ),
      );
    await insertEvents(
      ctx,
      input.suppressed.map((m) => eventFor(m, 'suppressed')),
    );
  }
}

/** The server accepted these: sent, with one event each. */
export async function recordSent(
  ctx: Pick<DispatchContext, 'db' | 'onStepMessagesSent'>,
  sent: { dispatched: DispatchedMessage; response: string }[],
): Promise<void> {
  if (sent.length === 0) return;
  const at = now();
  // Two arrays rather than a VALUES row per message: one statement text whatever the group's size (each
  // size was a statement of its own for PostgreSQL to parse and plan), and two parameters to build.
  const ids: string[] = new Array(sent.length);
  const responses: string[] = new Array(sent.length);
  for (let i = 0; i < sent.length; i++) {
    ids[i] = sent[i]!.dispatched.message.id;
    responses[i] = sent[i]!.response;
  }
  const stamp = at.toISOString();
  const hasSteps = sent.some((s) => s.dispatched.message.stepId);
  const redelivered = sql`o.last_error IS NOT NULL AND o.last_error LIKE ${`${REDELIVERY_NOTE}%`}`;
  // A message's first acceptance, with its one 'sent' event: analytics counts 'sent' events as they come
  // (migration 0070), so a message must never get a second. Only this statement writes smtp_response and
  // nothing clears it, so a row without one has no event yet; two recorders of one message (a lease ran
  // out mid-delivery and another worker sent it again) take turns on the row lock, and the second sees
  // the first's response and writes nothing here.
  const markSentAndLog = sql`
    WITH sent AS (
      -- Not guarded by the lease owner: if our lease expired and the row was recovered meanwhile, it was
      -- still sent, and saying so is what stops a second send.
      UPDATE outbox_messages AS o
      SET state = 'sent', phase = NULL, lease_owner = NULL, lease_until = NULL, sent_at = ${stamp}::timestamptz,
          smtp_response = coalesce(v.response, ''),
          -- A redelivery after a lost worker keeps its note: the one place a duplicate could come from.
          last_error = CASE WHEN ${redelivered} THEN o.last_error ELSE NULL END,
          updated_at = ${stamp}::timestamptz
      FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(responses)}::text[]) AS v(id, response)
      WHERE o.id = v.id AND o.smtp_response IS NULL
      RETURNING o.id, o.user_id, o.campaign_id, o.step_id, o.campaign_contact_id, o.sender_account_id,
        ${redelivered} AS redelivered),
    logged AS (
      INSERT INTO email_events (user_id, campaign_id, step_id, campaign_contact_id, outbox_message_id,
        sender_account_id, type, detail, occurred_at)
      SELECT user_id, campaign_id, step_id, campaign_contact_id, id, sender_account_id, 'sent',
        CASE WHEN redelivered THEN ${REDELIVERED_DETAIL} END, ${stamp}::timestamptz
      FROM sent)
    SELECT count(*)::int AS n FROM sent`;
  // Rows accepted before (the rare case: another worker recorded them first, or an accepted message was
  // put back in the queue and sent again) are sent all the same, keeping their first acceptance's time,
  // response and event; a row already 'sent' is left as it is.
  const markSentAgain = sql`
    UPDATE outbox_messages AS o
    SET state = 'sent', phase = NULL, lease_owner = NULL, lease_until = NULL,
        last_error = CASE WHEN ${redelivered} THEN o.last_error ELSE NULL END, updated_at = ${stamp}::timestamptz
    WHERE o.id = ANY(${sql.param(ids)}::uuid[]) AND o.state <> 'sent' AND o.smtp_response IS NOT NULL`;
  // One statement marks the batch sent and writes its events (one round trip, no per-event objects).
  const write = async (db: DispatchContext['db']) => {
    const [first] = rowsOf<{ n: number }>(await db.execute(markSentAndLog));
    if (Number(first?.n ?? 0) < ids.length) await db.execute(markSentAgain);
  };
  if (!hasSteps) {
    await write(ctx.db);
  } else {
    await ctx.db.transaction(async (trx) => {
      const tx = trx as unknown as DispatchContext['db'];
      await write(tx);
      // Campaign sequences (#5): the contact's next step is due its delay after this send, or the contact
      // has completed the sequence. In the same transaction, so no moment exists in which the message is
      // sent but the contact has nothing pending (the campaign would look finished).
      await ctx.onStepMessagesSent({
        db: tx,
        sentAt: at,
        messages: sent.map((s) => ({
          campaignContactId: s.dispatched.message.campaignContactId,
          campaignId: s.dispatched.message.campaignId,
          stepId: s.dispatched.message.stepId,
        })),
      });
    });
  }
  const recovered = new Map<string, SenderAccountRow>();
  for (const s of sent)
    if (s.dispatched.account.authFailures > 0) recovered.set(s.dispatched.account.id, s.dispatched.account);
  for (const account of recovered.values()) await recordSendSuccess({ db: ctx.db, accountId: account.id });
}

function isRecipientRejection(error: unknown): boolean {
  const e = error as { command?: string; rejected?: unknown[] };
  return e?.command === 'RCPT TO' || (Array.isArray(e?.rejected) && e.rejected.length > 0);
}

function isSenderRejection(error: unknown): boolean {
  return (error as { command?: string })?.command === 'MAIL FROM';
}

/**
 * A send failed. Decides between retry (temporary), bounce (the recipient refused), final failure and
 * an account problem (authentication, a sender address the server refuses), and records it.
 * Answers true when the message reached a final state.
 */
export async function recordDeliveryFailure(
  ctx: DispatchContext,
  dispatched: DispatchedMessage,
  failure: DeliveryFailure,
): Promise<boolean> {
  const { message, account } = dispatched;
  const at = now();
  const classified = classifySmtpError(failure.error);
  const reason = classified.responseCode
    ? `${classified.safeMessage} (SMTP ${classified.responseCode})`
    : classified.safeMessage;
  const withAccount = { ...message, senderAccountId: account.id };
  ctx.log.warn(
    {
      outboxMessageId: message.id,
      senderAccountId: account.id,
      kind: classified.kind,
      code: classified.responseCode,
    },
    'send failed',
  );

  if (classified.kind === 'permanent' && isRecipientRejection(failure.error)) {
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(outboxMessages)
        .set({
          state: 'bounced',
          phase: null,
          leaseOwner: null,
          leaseUntil: null,
          sentAt: at,
          lastError: reason,
          updatedAt: at,
        })
        .where(eq(outboxMessages.id, message.id));
      await endContact(tx, message, 'bounced');
      await addSuppression({
        db: tx,
        userId: message.userId,
        email: message.toEmail,
        reason: 'bounced',
        source: 'smtp',
      });
      await insertEvents({ db: tx }, [
        eventFor(withAccount, 'bounced', {
          detail: reason,
          metadata: { hard: true, responseCode: classified.responseCode, during: 'smtp' },
        }),
      ]);
    });
    await checkSenderBounceRate({
      db: ctx.db,
      mailer: ctx.mailer,
      appUrl: ctx.env.APP_URL,
      accountId: account.id,
    });
    await checkCampaignHealth({
      db: ctx.db,
      mailer: ctx.mailer,
      appUrl: ctx.env.APP_URL,
      campaignId: message.campaignId,
      log: ctx.log,
    });
    return true;
  }

  // The message did not leave: give its slots back (the account's, and the campaign's daily cap).
  await releaseSenderSlot({ db: ctx.db, accountId: account.id, day: dispatched.day });
  if (dispatched.campaignDay) {
    await releaseCampaignSlots(ctx.db, {
      campaignId: message.campaignId,
      day: dispatched.campaignDay,
      count: 1,
    });
  }
  if (classified.kind === 'auth') {
    ctx.transports.discard(account.id);
    await coolDown(ctx, account.id, at, ACCOUNT_COOLDOWN_MS.auth);
    await recordAuthFailure({
      db: ctx.db,
      mailer: ctx.mailer,
      appUrl: ctx.env.APP_URL,
      accountId: account.id,
    });
    await requeue(ctx, message, at, reason, { countAttempt: false });
    return false;
  }
  if (certificateProblemOf(failure.error) === 'certChanged') {
    // The server shows another certificate than the one the owner trusted: nothing more goes through
    // it until they look at the new one (the account's test shows it), as the message promises.
    ctx.transports.discard(account.id);
    await setSenderFailing({
      db: ctx.db,
      mailer: ctx.mailer,
      appUrl: ctx.env.APP_URL,
      accountId: account.id,
      reason: SMTP_ERROR_MESSAGES.certChanged,
    });
    await requeue(ctx, message, at, reason, { countAttempt: false });
    return false;
  }
  if (classified.kind === 'permanent' && isSenderRejection(failure.error)) {
    await setSenderFailing({
      db: ctx.db,
      mailer: ctx.mailer,
      appUrl: ctx.env.APP_URL,
      accountId: account.id,
      reason: `The mail server refused to send as ${account.fromEmail}`,
    });
    await requeue(ctx, message, at, reason, { countAttempt: false });
    return false;
  }
  if (classified.kind === 'permanent') {
    await markFailed(ctx, withAccount, at, reason);
    return true;
  }
  // Temporary: 4xx, timeouts, refused or dropped connections, TLS trouble.
  if (classified.kind !== 'temporary') {
    ctx.transports.discard(account.id);
    await coolDown(ctx, account.id, at, ACCOUNT_COOLDOWN_MS.connection);
  }
  if (message.attempts >= MAX_SEND_ATTEMPTS) {
    await markFailed(ctx, withAccount, at, `${reason}; gave up after ${message.attempts} attempts`);
    return true;
  }
  const backoff = retryBackoffMs(message.attempts);
  await requeue(ctx, message, new Date(at.getTime() + backoff), reason, { countAttempt: true });
  // The operator's error rates count deferrals per hour; the outbox row only keeps the latest one.
  await insertEvents(ctx, [eventFor(withAccount, 'deferred', { detail: reason })]);
  return false;
}

async function requeue(
  ctx: DispatchContext,
  message: OutboxRow,
  sendAfter: Date,
  reason: string,
  options: { countAttempt: boolean },
): Promise<void> {
  await ctx.db
    .update(outboxMessages)
    .set({
      state: 'queued',
      phase: null,
      leaseOwner: null,
      leaseUntil: null,
      sendAfter,
      lastError: reason,
      updatedAt: now(),
      ...(options.countAttempt ? {} : { attempts: sql`greatest(${outboxMessages.attempts} - 1, 0)` }),
    })
    .where(and(eq(outboxMessages.id, message.id), eq(outboxMessages.state, 'sending')));
}

async function markFailed(ctx: DispatchContext, message: OutboxRow, at: Date, reason: string): Promise<void> {
  await ctx.db
    .update(outboxMessages)
    .set({
      state: 'failed',
      phase: null,
      leaseOwner: null,
      leaseUntil: null,
      lastError: reason,
      updatedAt: at,
    })
    .where(eq(outboxMessages.id, message.id));
  await insertEvents(ctx, [eventFor(message, 'failed', { detail: reason })]);
}

async function coolDown(ctx: DispatchContext, accountId: string, at: Date, ms: number): Promise<void> {
  await ctx.db
    .update(senderAccounts)
    .set({ cooldownUntil: new Date(at.getTime() + ms) })
    .where(eq(senderAccounts.id, accountId));
}

/** Ends a contact's sequence and cancels what was still queued for them. */
export async function endContact(
  db: DispatchContext['db'],
  message: Pick<OutboxRow, 'campaignContactId'>,
  status: 'bounced' | 'unsubscribed' | 'replied',
): Promise<void> {
  const at = now();
  await db
    .update(campaignContacts)
    // No next step once ended: the next-step index keeps only rows with one (migration 0072).
    .set({ status, nextStepAt: null, statusChangedAt: at, updatedAt: at })
    .where(eq(campaignContacts.id, message.campaignContactId));
  await db
    .update(outboxMessages)
    .set({ state: 'cancelled', updatedAt: at })
    .where(
      and(
        eq(outboxMessages.campaignContactId, message.campaignContactId),
        eq(outboxMessages.state, 'queued'),
      ),
    );
}
