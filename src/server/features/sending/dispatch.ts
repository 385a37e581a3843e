import type { Database } from '@server/db/client';
import { campaignContacts, campaigns, outboxMessages } from '@server/db/schema';
import type { Env } from '@server/env';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { groupCommit } from '@server/lib/group-commit';
import type { SystemMailer } from '@server/lib/mailer';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { getDefaultTrackingDomain } from '../platform-settings/platform-settings.service';
import { filterSuppressed } from '../suppression/suppression.service';
import { allocateCampaignGroup, type Deferral, giveBackSlots } from './allocate-group';
import { composeForAccount, deliverAll, markAllocated, type ReadyMessage } from './deliver';
import {
  type DeliveryFailure,
  type DispatchedMessage,
  recordDeferrals,
  recordDeliveryFailure,
  recordSent,
  recordSkipped,
} from './delivery-outcomes';
import { type DispatchFault, type DispatchStage, recordFaults } from './dispatch-faults';
import { wakeDispatchers } from './outbox.service';
import { nextSendTime } from './send-window';
import type { SenderAccountRow } from './sender-allocation';
import { recordSenderSwitches, type SenderSwitch } from './sender-switch';
import type { TransportCache } from './transport-cache';

/*
 * The dispatcher: claims due outbox rows with a lease, applies every rule that can only be judged at
 * the moment of sending (the contact's state, suppression, the window in the recipient's time zone,
 * the campaign's daily cap, the per-domain pace, Least Used rotation under each account's cap), sends
 * through pooled SMTP transports and records the outcome. docs/sending.md tells the whole story,
 * including how an interrupted worker's messages are recovered.
 */

export type OutboxRow = typeof outboxMessages.$inferSelect;
type CampaignRow = typeof campaigns.$inferSelect;

/** A sent message that belongs to a campaign step (newsletter and bulk messages have no step). */
export interface SentStepMessage {
  campaignContactId: string;
  campaignId: string;
  stepId: string | null;
}

/** What happens to a contact's sequence once its step message is sent; `db` is the open transaction. */
export type SentStepHook = (input: {
  db: Database;
  sentAt: Date;
  messages: SentStepMessage[];
}) => Promise<void>;

export interface DispatchContext {
  db: Database;
  env: Pick<Env, 'APP_URL' | 'SEND_LEASE_SECONDS' | 'DISPATCH_BATCH_SIZE' | 'DISPATCH_CONCURRENCY'>;
  mailer: SystemMailer;
  queue: Queue | null;
  transports: TransportCache;
  log: FastifyBaseLogger;
  /** Names this process in leases, so a stale worker cannot release a row another one recovered. */
  workerId: string;
  /**
   * Campaign sequencing, handed in where the dispatcher is composed (campaigns' `scheduleNextSteps`), so
   * the sending engine does not import campaigns. Runs in the transaction that marks step messages sent.
   */
  onStepMessagesSent: SentStepHook;
  /**
   * Only this user's messages. Workers never set it; tests that share one PostgreSQL database do, so a
   * drain in one test file cannot take another file's messages.
   */
  onlyUserId?: string | string[];
  /**
   * Fault injection for tests: called with each message at each stage of dispatch; a throw there is
   * handled as a real failure of that stage would be. Never set in production.
   */
  failpoint?: (stage: DispatchStage, message: OutboxRow) => void;
}

export interface DrainSummary {
  claimed: number;
  sent: number;
  deferred: number;
  failed: number;
  skipped: number;
}

const DAY_MS = 24 * 60 * 60_000;

export { NO_ACTIVE_SENDER_NOTE } from './allocate-group';

/** Contacts in these states get nothing more from the campaign. */
const ENDED_CONTACT_STATES = new Set(['replied', 'bounced', 'unsubscribed', 'stopped', 'completed']);

/**
 * Sends due messages until none is due, the time budget is spent or the signal aborts (graceful stop:
 * the batch in flight is finished and recorded, nothing new is claimed).
 *
 * With `waitForDueMs`, a drain that finds nothing due but something due within that time (an account
 * resting between sends for its random gap) stays and looks again every second, instead of leaving it
 * to a later wake: short gaps are kept to the second, and messages queued meanwhile go out at once.
 */
export async function drainOutbox(
  ctx: DispatchContext,
  options: { signal?: AbortSignal; maxMs?: number; waitForDueMs?: number } = {},
): Promise<DrainSummary> {
  const started = Date.now();
  const maxMs = options.maxMs ?? 50_000;
  const summary: DrainSummary = { claimed: 0, sent: 0, deferred: 0, failed: 0, skipped: 0 };
  let idleSince: number | null = null;
  while (!options.signal?.aborted && Date.now() - started < maxMs) {
    const claimed = await claimDueMessages(ctx);
    if (claimed.length === 0) {
      const waitForDueMs = options.waitForDueMs ?? 0;
      if (waitForDueMs <= 0) break;
      idleSince ??= Date.now();
      const next = await nextDueAt(ctx);
      const dueInMs = next ? next.getTime() - now().getTime() : Number.POSITIVE_INFINITY;
      if (dueInMs > waitForDueMs - (Date.now() - idleSince) || Date.now() - started + dueInMs > maxMs) break;
      await sleep(Math.min(Math.max(dueInMs, 50), 1_000), options.signal);
      continue;
    }
    idleSince = null;
    summary.claimed += claimed.length;
    const batch = await dispatchBatch(ctx, claimed);
    summary.sent += batch.sent;
    summary.deferred += batch.deferred;
    summary.failed += batch.failed;
    summary.skipped += batch.skipped;
  }
  await scheduleNextWake(ctx);
  return summary;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Leases up to a batch of due messages of active campaigns to this worker.
 *
 * The claim must walk the due index (`outbox_messages_due_idx`, queued rows by send_after) in order and
 * stop after a batch: then a claim costs the same with 100 or 1,000,000 messages waiting, and concurrent
 * workers skip each other's locked rows instead of all reading the same ones. Left to itself the planner
 * often misjudges a freshly filled outbox (its statistics lag behind a campaign that just queued 20,000
 * messages) and reads every queued row of the campaign, then sorts them: a claim then cost 20–70 ms and
 * the whole campaign O(n²) (bench/dispatch). Sorting and bitmap scans are switched off for this one
 * transaction, which leaves only the ordered index walk. The campaign's status is looked up per row by
 * its primary key rather than joined, so no plan can start from the campaigns instead (due messages of a
 * paused campaign are stepped over at one key lookup each).
 */
export async function claimDueMessages(ctx: DispatchContext): Promise<OutboxRow[]> {
  const at = now();
  const leaseUntil = new Date(at.getTime() + ctx.env.SEND_LEASE_SECONDS * 1000);
  return ctx.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    await tx.execute(
      sql`SELECT set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`,
    );
    return tx
      .update(outboxMessages)
      .set({
        state: 'sending',
        phase: 'claimed',
        leaseOwner: ctx.workerId,
        leaseUntil,
        attempts: sql`${outboxMessages.attempts} + 1`,
        updatedAt: at,
      })
      .where(
        sql`${outboxMessages.id} IN (
          SELECT o.id FROM outbox_messages o
          WHERE o.state = 'queued' AND o.send_after <= ${at.toISOString()}::timestamptz
            AND (SELECT c.status FROM campaigns c WHERE c.id = o.campaign_id) = 'active'
            ${onlyUsersSql(ctx, sql`o.user_id`)}
          ORDER BY o.send_after
          LIMIT ${ctx.env.DISPATCH_BATCH_SIZE}
          FOR UPDATE OF o SKIP LOCKED)`,
      )
      .returning();
  });
}

interface BatchResult {
  sent: number;
  deferred: number;
  failed: number;
  skipped: number;
}

/** Judges, allocates, sends and records one claimed batch. One message's trouble is only its own. */
export async function dispatchBatch(ctx: DispatchContext, claimed: OutboxRow[]): Promise<BatchResult> {
  const at = now();
  const result: BatchResult = { sent: 0, deferred: 0, failed: 0, skipped: 0 };
  const campaignIds = [...new Set(claimed.map((m) => m.campaignId))];
  const campaignRows = await ctx.db.select().from(campaigns).where(inArray(campaigns.id, campaignIds));
  const campaignById = new Map(campaignRows.map((c) => [c.id, c]));
  const contactRows = await ctx.db
    .select({
      id: campaignContacts.id,
      status: campaignContacts.status,
      pausedUntil: campaignContacts.pausedUntil,
      timeZone: campaignContacts.timeZone,
    })
    .from(campaignContacts)
    .where(inArray(campaignContacts.id, [...new Set(claimed.map((m) => m.campaignContactId))]));
  const contactById = new Map(contactRows.map((c) => [c.id, c]));

  const deferrals: Deferral[] = [];
  const faults: DispatchFault[] = [];
  const resumedContacts = new Set<string>();
  const cancelled: OutboxRow[] = [];
  const suppressed: OutboxRow[] = [];
  let candidates: OutboxRow[] = [];

  for (const message of claimed) {
    try {
      ctx.failpoint?.('schedule', message);
      const verdict = judge(
        message,
        campaignById.get(message.campaignId),
        contactById.get(message.campaignContactId),
        at,
      );
      if (verdict.kind === 'send') {
        candidates.push(message);
        if (verdict.resumesContact) resumedContacts.add(message.campaignContactId);
      } else if (verdict.kind === 'cancel') cancelled.push(message);
      else deferrals.push({ id: message.id, until: verdict.until, reason: null });
    } catch (error) {
      faults.push({ message, stage: 'schedule', error });
    }
  }

  // Suppression is checked now, not when the message was queued: an unsubscribe a minute ago counts.
  const suppressedIds = new Set<string>();
  const unchecked = new Set<string>();
  const checkSuppressed = async (userId: string, messages: OutboxRow[]) => {
    for (const m of messages) ctx.failpoint?.('suppression', m);
    const blocked = await filterSuppressed({ db: ctx.db, userId, emails: messages.map((m) => m.toEmail) });
    for (const m of messages) if (blocked.has(m.toEmail)) suppressedIds.add(m.id);
  };
  for (const [userId, messages] of groupBy(candidates, (m) => m.userId)) {
    try {
      await checkSuppressed(userId, messages);
    } catch {
      // One at a time, so that only the message that fails waits.
      for (const m of messages) {
        try {
          await checkSuppressed(userId, [m]);
        } catch (error) {
          unchecked.add(m.id);
          faults.push({ message: m, stage: 'suppression', error });
        }
      }
    }
  }
  suppressed.push(...candidates.filter((m) => suppressedIds.has(m.id)));
  candidates = candidates.filter((m) => !suppressedIds.has(m.id) && !unchecked.has(m.id));

  const toSend: { dispatched: DispatchedMessage; paceHour: Date | null }[] = [];
  const switches: SenderSwitch[] = [];
  for (const [campaignId, messages] of groupBy(candidates, (m) => m.campaignId)) {
    const campaign = campaignById.get(campaignId)!;
    let groups = [await allocateCampaignGroup(ctx, campaign, messages, at)];
    if (groups[0]!.faults.length > 0 && messages.length > 1) {
      // The group failed as a whole (and gave back what it took): one at a time, so only the message
      // that fails waits.
      groups = [];
      for (const m of messages) groups.push(await allocateCampaignGroup(ctx, campaign, [m], at));
    }
    for (const group of groups) {
      deferrals.push(...group.deferrals);
      faults.push(...group.faults);
      toSend.push(...group.toSend);
      switches.push(...group.switches);
    }
  }

  if (resumedContacts.size > 0) {
    // Their return date has passed: they are back in the sequence.
    await ctx.db
      .update(campaignContacts)
      .set({ status: 'active', pausedUntil: null, statusChangedAt: at, updatedAt: at })
      .where(and(inArray(campaignContacts.id, [...resumedContacts]), eq(campaignContacts.status, 'paused')));
  }
  await recordDeferrals(ctx, deferrals);
  result.deferred += deferrals.length;
  await recordSkipped(ctx, { cancelled, suppressed });
  result.skipped += cancelled.length + suppressed.length;

  // The exact bytes of each message, before anything is recorded as allocated: a message that cannot
  // be built gives its slots back and waits or fails alone.
  const ready: ReadyMessage[] = [];
  const defaultTrackingDomain = toSend.length > 0 ? await getDefaultTrackingDomain({ db: ctx.db }) : null;
  for (const { dispatched, paceHour } of toSend) {
    try {
      ctx.failpoint?.('compose', dispatched.message);
      ready.push(composeForAccount(ctx, dispatched, paceHour, defaultTrackingDomain));
    } catch (error) {
      await giveBackSlots(ctx, dispatched, paceHour);
      faults.push({ message: dispatched.message, stage: 'compose', error });
    }
  }
  const failedForGood = await recordFaults(ctx, faults);
  result.failed += failedForGood;
  result.deferred += faults.length - failedForGood;
  if (ready.length === 0) return result;

  const connectionsPerAccount = ctx.transports.connectionsPerAccount;
  const delivering = await markAllocated(ctx, ready, connectionsPerAccount);
  const composed = new Set(ready.map((r) => r.dispatched.message.id));
  await recordSenderSwitches(
    ctx,
    switches.filter((s) => composed.has(s.dispatched.message.id)),
  ).catch((error: unknown) => ctx.log.warn({ err: error }, 'could not record a change of mailbox'));
  // Each accepted message is recorded as soon as the server says 250, in small group commits, not when
  // the whole batch is done: a worker killed mid-batch then leaves only the messages whose 250 was
  // still on its way to the database to be sent again (docs/sending.md, "When a worker dies").
  const acknowledged = groupCommit((group: SentMessage[]) => recordSent(ctx, group));
  const lease = keepLeases(
    ctx,
    ready.map((r) => r.dispatched.message.id),
  );
  const failures: { dispatched: DispatchedMessage; failure: DeliveryFailure }[] = [];
  try {
    await deliverAll(ctx, ready, {
      connectionsPerAccount,
      delivering,
      onOutcome: (message, outcome) => {
        if (outcome.ok) acknowledged.add({ dispatched: message.dispatched, response: outcome.response });
        else failures.push({ dispatched: message.dispatched, failure: outcome.failure });
      },
      onLost: (message, error) =>
        ctx.log.warn(
          { err: error, outboxMessageId: message.dispatched.message.id },
          'message not sent: this worker no longer holds it',
        ),
    });
    result.sent += await acknowledged.drain();
  } finally {
    lease.stop();
  }
  for (const { dispatched, failure } of failures) {
    try {
      ctx.failpoint?.('record', dispatched.message);
      const final = await recordDeliveryFailure(ctx, dispatched, failure);
      if (final) result.failed++;
      else result.deferred++;
    } catch (error) {
      // Left leased: the recovery job puts it back in the queue when the lease runs out.
      ctx.log.error(
        { err: error, outboxMessageId: dispatched.message.id, campaignId: dispatched.message.campaignId },
        'could not record a failed send',
      );
    }
  }
  return result;
}

type Verdict =
  | { kind: 'send'; resumesContact: boolean }
  | { kind: 'cancel' }
  | { kind: 'defer'; until: Date };

/** What one claimed message should do now, from its campaign, its contact and the sending window. */
function judge(
  message: OutboxRow,
  campaign: CampaignRow | undefined,
  contact: { status: string; pausedUntil: Date | null; timeZone: string | null } | undefined,
  at: Date,
): Verdict {
  if (campaign?.status !== 'active') return { kind: 'defer', until: message.sendAfter };
  if (!contact || ENDED_CONTACT_STATES.has(contact.status)) return { kind: 'cancel' };
  let resumesContact = false;
  if (contact.status === 'paused') {
    // Out of office until a date: wait for it. Paused with no date (by hand): look again tomorrow.
    if (!contact.pausedUntil || contact.pausedUntil > at) {
      return { kind: 'defer', until: contact.pausedUntil ?? new Date(at.getTime() + DAY_MS) };
    }
    resumesContact = true;
  }
  const timeZone =
    campaign.timezoneMode === 'recipient' && contact.timeZone ? contact.timeZone : campaign.timeZone;
  const opens = nextSendTime({
    at,
    timeZone,
    windowStartMinute: campaign.windowStartMinute,
    windowEndMinute: campaign.windowEndMinute,
    sendDays: campaign.sendDays,
  });
  if (opens.getTime() > at.getTime()) return { kind: 'defer', until: opens };
  return { kind: 'send', resumesContact };
}

type SentMessage = { dispatched: DispatchedMessage; response: string };

/**
 * Renews this worker's lease on a batch while it is being delivered, so a slow server (or a long batch)
 * never lets the recovery job hand messages still in flight to another worker. Only a dead or frozen
 * worker's lease runs out.
 */
function keepLeases(ctx: DispatchContext, ids: string[]): { stop(): void } {
  const leaseMs = ctx.env.SEND_LEASE_SECONDS * 1000;
  const timer = setInterval(() => {
    ctx.db
      .update(outboxMessages)
      .set({ leaseUntil: new Date(now().getTime() + leaseMs) })
      .where(
        and(
          inArray(outboxMessages.id, ids),
          eq(outboxMessages.state, 'sending'),
          eq(outboxMessages.leaseOwner, ctx.workerId),
        ),
      )
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'could not renew the lease of a batch'));
  }, leaseMs / 3);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** When the next queued message of an active campaign comes due (this user's only, in tests). */
async function nextDueAt(ctx: DispatchContext): Promise<Date | null> {
  const [next] = await ctx.db
    .select({ sendAfter: outboxMessages.sendAfter })
    .from(outboxMessages)
    .innerJoin(campaigns, eq(campaigns.id, outboxMessages.campaignId))
    .where(
      and(
        eq(outboxMessages.state, 'queued'),
        eq(campaigns.status, 'active'),
        ctx.onlyUserId ? inArray(outboxMessages.userId, [ctx.onlyUserId].flat()) : undefined,
      ),
    )
    .orderBy(outboxMessages.sendAfter)
    .limit(1);
  return next?.sendAfter ?? null;
}

/**
 * After a drain: if something is due within five minutes (a gap, a deferral), ask for a wake then;
 * anything later is picked up by the every-minute schedule.
 */
async function scheduleNextWake(ctx: DispatchContext): Promise<void> {
  if (!ctx.queue) return;
  const at = now();
  const next = await nextDueAt(ctx);
  if (!next || next.getTime() - at.getTime() > 5 * 60_000) return;
  await wakeDispatchers({
    queue: ctx.queue,
    parallelism: 1,
    startAfter: next > at ? next : undefined,
  });
}

function onlyUsersSql(ctx: DispatchContext, column: ReturnType<typeof sql>) {
  if (!ctx.onlyUserId) return sql``;
  return sql`AND ${column} = ANY(${sql.param([ctx.onlyUserId].flat())}::text[])`;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

export type { SenderAccountRow };
