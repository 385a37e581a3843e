import type { Database } from '@server/db/client';
import { plainRowReader } from '@server/db/plain-rows';
import { campaignContacts, campaigns, outboxMessages } from '@server/db/schema';
import type { Env } from '@server/env';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import {
  type GatherRule,
  groupCommit,
  type SharedGroupCommit,
  sharedGroupCommit,
} from '@server/lib/group-commit';
import type { SystemMailer } from '@server/lib/mailer';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { getDefaultTrackingDomain } from '../platform-settings/platform-settings.service';
import { filterSuppressed } from '../suppression/suppression.service';
import { allocateCampaignGroup, type Deferral, type GroupAllocation, giveBackSlots } from './allocate-group';
import {
  type AllocatedMessage,
  asClaimed,
  hasOwnConnections,
  isDeadlock,
  pickDueMessages,
  recordClaims,
} from './claim-batch';
import { composeForAccount, deliverAll, type ReadyMessage } from './deliver';
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
import type { SharedBody } from './outbox-bodies';
import { nextSendTime } from './send-window';
import type { SenderAccountRow } from './sender-allocation';
import { recordSenderSwitches, type SenderSwitch } from './sender-switch';
import type { TransportCache } from './transport-cache';

/*
 * The dispatcher: claims due outbox rows with a lease, applies every rule that can only be judged at
 * the moment of sending (the contact's state, suppression, the window in the recipient's time zone,
 * the campaign's daily cap, the per-domain pace, Least Used rotation under each account's cap), sends
 * through each account's pooled SMTP connections and records the outcome. docs/sending.md tells the
 * whole story, including how an interrupted worker's messages are recovered.
 */

/**
 * A claimed outbox row, its bodies resolved (outbox-bodies.ts). A row that names a shared body has no
 * html of its own: sharedBodyHtml builds it when something needs it.
 */
export type OutboxRow = typeof outboxMessages.$inferSelect & {
  /** The shared body the row names, once resolved (outbox-bodies.ts resolveSharedBodies). */
  sharedBody?: SharedBody;
};
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
  /**
   * The process's one flush loop for accepted messages (the dispatch job's, shared by its concurrent
   * drains): their 'sent' writes go in the same statements. Without it, each batch has its own.
   */
  sentCommits?: SharedGroupCommit<SentMessage>;
}

export interface DrainSummary {
  claimed: number;
  sent: number;
  deferred: number;
  failed: number;
  skipped: number;
}

const DAY_MS = 24 * 60 * 60_000;

/** A batch's campaigns and contacts are read without drizzle's query builder and mapping (plain-rows.ts). */
const campaignRowsReader = plainRowReader(campaigns);
const contactRowsReader = plainRowReader(campaignContacts, ['id', 'status', 'pausedUntil', 'timeZone']);

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
    const taken = await takeDueBatch(ctx);
    if (!taken) {
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
    summary.claimed += taken.claimed;
    const batch = await sendBatch(ctx, taken);
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

/** A batch taken for sending: claimed, judged and allocated, its claim committed. */
export interface TakenBatch {
  claimed: number;
  /** What the claim's transaction already settled: deferrals, skips and faults. */
  result: BatchResult;
  toSend: AllocatedMessage[];
  switches: SenderSwitch[];
  /** Ids recorded as delivering with the claim. */
  delivering: Set<string>;
}

/**
 * Claims a batch of due messages, judges them and allocates them, in one transaction whose last write
 * records each row's claim and allocation at once (claim-batch.ts): the rows are written once on their
 * way out instead of twice. Answers null when nothing is due.
 *
 * On PostgreSQL the suppression check and the allocation run on connections of their own, each in its
 * own short transaction as before: the sender accounts' locks are held for the allocation only, not
 * until the claim commits (holding them through the claim's write made the workers queue behind each
 * other: bench/dispatch fell from 0.68 to 0.41 of the bare pool). PGlite has a single connection, so
 * there everything runs in the claim's transaction (a query outside it would wait for it forever).
 * Composing happens after the commit, so workers compose in parallel.
 *
 * One claim at a time per process: a claim holds a connection while it borrows a second, and the
 * drains of one process would only queue for the same campaign's accounts anyway.
 */
export async function takeDueBatch(ctx: DispatchContext): Promise<TakenBatch | null> {
  return inClaimTurn(ctx.db, async () => {
    for (let attempt = 1; ; attempt++) {
      const committedAllocations: AllocatedMessage[] = [];
      try {
        return await ctx.db.transaction(async (trx) => {
          const inTx: DispatchContext = { ...ctx, db: trx as unknown as Database };
          const at = now();
          const picked = await pickDueMessages(inTx, at);
          if (picked.length === 0) return null;
          const claimed = picked.map((m) => asClaimed(m, ctx, at));
          const outside = hasOwnConnections(ctx.db) ? { ctx, committedAllocations } : null;
          return judgeAndAllocate(inTx, outside, claimed, at);
        });
      } catch (error) {
        // The claim was rolled back: nothing of the batch is recorded, so what its allocation took
        // (committed on its own connection) is given back; the rows are due again as they were.
        for (const a of committedAllocations) {
          await giveBackSlots(ctx, a.dispatched, a.paceHour).catch((releaseError: unknown) =>
            ctx.log.error({ err: releaseError }, 'could not give back the slots of a failed claim'),
          );
        }
        if (attempt < 3 && isDeadlock(error)) continue;
        throw error;
      }
    }
  });
}

const claimTurns = new WeakMap<object, Promise<unknown>>();

/** Runs `task` after the claims this process already started on `db` (one at a time, in order). */
function inClaimTurn<T>(db: Database, task: () => Promise<T>): Promise<T> {
  const previous = claimTurns.get(db) ?? Promise.resolve();
  const turn = previous.then(task, task);
  claimTurns.set(
    db,
    turn.catch(() => {}),
  );
  return turn;
}

interface BatchResult {
  sent: number;
  deferred: number;
  failed: number;
  skipped: number;
}

/**
 * Judges and allocates one claimed batch inside the claim's transaction, records the claim and
 * allocation, and settles what will not be sent. One message's trouble is only its own.
 */
async function judgeAndAllocate(
  ctx: DispatchContext,
  /** PostgreSQL: the dispatcher on its own connections, and where allocations committed there are kept. */
  outside: { ctx: DispatchContext; committedAllocations: AllocatedMessage[] } | null,
  claimed: OutboxRow[],
  at: Date,
): Promise<TakenBatch> {
  const result: BatchResult = { sent: 0, deferred: 0, failed: 0, skipped: 0 };
  const campaignIds = [...new Set(claimed.map((m) => m.campaignId))];
  const campaignRows = campaignRowsReader.read(
    await ctx.db.execute(
      sql`SELECT ${campaignRowsReader.selection} FROM campaigns WHERE id = ANY(${sql.param(campaignIds)}::uuid[])`,
    ),
  );
  const campaignById = new Map(campaignRows.map((c) => [c.id, c]));
  // One array parameter, not inArray's one per id (a few µs each to build, for every message).
  const contactIds = [...new Set(claimed.map((m) => m.campaignContactId))];
  const contactRows = contactRowsReader.read(
    await ctx.db.execute(
      sql`SELECT ${contactRowsReader.selection} FROM campaign_contacts WHERE id = ANY(${sql.param(contactIds)}::uuid[])`,
    ),
  );
  const contactById = new Map(contactRows.map((c) => [c.id, c]));

  const deferrals: Deferral[] = [];
  const faults: DispatchFault[] = [];
  const resumedContacts = new Set<string>();
  const cancelled: OutboxRow[] = [];
  const suppressed: OutboxRow[] = [];
  const toHold: OutboxRow[] = [];
  let candidates: OutboxRow[] = [];

  for (const message of claimed) {
    try {
      ctx.failpoint?.('schedule', message);
      // Its shared body could not be read (claim-batch.ts): it cannot be composed.
      if (message.html === null && !message.sharedBody)
        throw new Error(`the shared body ${message.bodyId} of the message is missing`);
      const verdict = judge(
        campaignById.get(message.campaignId),
        contactById.get(message.campaignContactId),
        at,
      );
      if (verdict.kind === 'send') {
        candidates.push(message);
        if (verdict.resumesContact) resumedContacts.add(message.campaignContactId);
      } else if (verdict.kind === 'cancel') cancelled.push(message);
      else if (verdict.kind === 'hold') toHold.push(message);
      else deferrals.push({ id: message.id, until: verdict.until, reason: null });
    } catch (error) {
      faults.push({ message, stage: 'schedule', error });
    }
  }

  if (toHold.length > 0) deferrals.push(...(await holdsOf(ctx, toHold)));

  // Suppression is checked now, not when the message was queued: an unsubscribe a minute ago counts.
  const suppressedIds = new Set<string>();
  const unchecked = new Set<string>();
  const check = async (db: Database, userId: string, messages: OutboxRow[]) => {
    for (const m of messages) ctx.failpoint?.('suppression', m);
    const blocked = await filterSuppressed({ db, userId, emails: messages.map((m) => m.toEmail) });
    for (const m of messages) if (blocked.has(m.toEmail)) suppressedIds.add(m.id);
  };
  const checkSuppressed = (userId: string, messages: OutboxRow[]) =>
    outside
      ? check(outside.ctx.db, userId, messages)
      : // In a savepoint: a failed query must not abort the claim's transaction, only this check.
        ctx.db.transaction((sp) => check(sp as unknown as Database, userId, messages));
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

  const toSend: AllocatedMessage[] = [];
  const switches: SenderSwitch[] = [];
  for (const [campaignId, messages] of groupBy(candidates, (m) => m.campaignId)) {
    const campaign = campaignById.get(campaignId)!;
    const allocate = async (group: OutboxRow[]) => {
      if (!outside) return allocateInSavepoint(ctx, campaign, group, at);
      const allocation = await allocateCampaignGroup(outside.ctx, campaign, group, at);
      outside.committedAllocations.push(...allocation.toSend);
      return allocation;
    };
    let groups = [await allocate(messages)];
    if (groups[0]!.faults.length > 0 && messages.length > 1) {
      // The group failed as a whole (and gave back what it took): one at a time, so only the message
      // that fails waits.
      groups = [];
      for (const m of messages) groups.push(await allocate([m]));
    }
    for (const group of groups) {
      deferrals.push(...group.deferrals);
      faults.push(...group.faults);
      toSend.push(...group.toSend);
      switches.push(...group.switches);
    }
  }

  const delivering = await recordClaims(ctx, { claimed, allocated: toSend, at });
  if (resumedContacts.size > 0) {
    // Their return date has passed: they are back in the sequence. After the claim's write, as recording
    // a send does (outbox row, then contact), so the two never wait on each other in a circle.
    await ctx.db
      .update(campaignContacts)
      .set({ status: 'active', pausedUntil: null, statusChangedAt: at, updatedAt: at })
      .where(and(inArray(campaignContacts.id, [...resumedContacts]), eq(campaignContacts.status, 'paused')));
  }
  await recordDeferrals(ctx, deferrals);
  result.deferred += deferrals.length;
  await recordSkipped(ctx, { cancelled, suppressed });
  result.skipped += cancelled.length + suppressed.length;
  const failedForGood = await recordFaults(ctx, faults);
  result.failed += failedForGood;
  result.deferred += faults.length - failedForGood;
  return { claimed: claimed.length, result, toSend, switches, delivering };
}

/**
 * One campaign's allocation in a savepoint: when it faults, the savepoint's rollback gives back
 * everything it took, and a failed query does not abort the claim's transaction.
 */
async function allocateInSavepoint(
  ctx: DispatchContext,
  campaign: CampaignRow,
  messages: OutboxRow[],
  at: Date,
): Promise<GroupAllocation> {
  let group: GroupAllocation | null = null;
  try {
    return await ctx.db.transaction(async (sp) => {
      group = await allocateCampaignGroup({ ...ctx, db: sp as unknown as Database }, campaign, messages, at);
      if (group.faults.length > 0) throw new RolledBack();
      return group;
    });
  } catch (error) {
    if (group) return group;
    return {
      toSend: [],
      deferrals: [],
      faults: messages.map((message) => ({ message, stage: 'allocate' as const, error })),
      switches: [],
    };
  }
}

class RolledBack extends Error {}

/** Composes, sends and records a taken batch, after its claim's transaction committed. */
export async function sendBatch(ctx: DispatchContext, taken: TakenBatch): Promise<BatchResult> {
  const result = { ...taken.result };
  // The exact bytes of each message: a message that cannot be built gives its slots back and waits or
  // fails alone.
  const ready: ReadyMessage[] = [];
  const faults: DispatchFault[] = [];
  const defaultTrackingDomain =
    taken.toSend.length > 0 ? await getDefaultTrackingDomain({ db: ctx.db }) : null;
  for (const { dispatched, paceHour } of taken.toSend) {
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
  const composed = new Set(ready.map((r) => r.dispatched.message.id));
  await recordSenderSwitches(
    ctx,
    taken.switches.filter((s) => composed.has(s.dispatched.message.id)),
  ).catch((error: unknown) => ctx.log.warn({ err: error }, 'could not record a change of mailbox'));
  // Each accepted message is recorded as soon as the server says 250, in small group commits, not when
  // the whole batch is done: a worker killed mid-batch then leaves only the messages whose 250 was
  // still on its way to the database to be sent again (docs/sending.md, "When a worker dies").
  const acknowledged = groupCommit(
    ctx.sentCommits ?? sharedGroupCommit((group: SentMessage[]) => recordSent(ctx, group), SENT_GATHER),
  );
  const lease = keepLeases(
    ctx,
    ready.map((r) => r.dispatched.message.id),
  );
  const failures: { dispatched: DispatchedMessage; failure: DeliveryFailure }[] = [];
  try {
    await deliverAll(ctx, ready, {
      connectionsPerAccount,
      delivering: taken.delivering,
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
  | { kind: 'hold' }
  | { kind: 'defer'; until: Date };

/** Campaign statuses whose queued messages will never be sent. */
const ENDED_CAMPAIGN_STATUSES = new Set(['stopped', 'completed']);

/**
 * Messages of a paused campaign that were not held (queued or put back after the pause by a writer that
 * had not seen it): back to the queue as they were, held, so that no claim meets them again until the
 * campaign resumes. The campaigns are read again under a share lock: a resume committed meanwhile is
 * seen here (its messages go back unheld, due as before), and one not yet committed waits for this claim,
 * so its release, which runs after its status change, finds these rows held. A campaign whose row is
 * locked right now (a resume or a stop in progress) is skipped, not waited for: a stop locks the campaign
 * and then the messages this claim holds, so waiting would deadlock; its messages go back unheld and are
 * judged again a minute later. Rare: never in the claim's usual path.
 */
async function holdsOf(ctx: DispatchContext, messages: OutboxRow[]): Promise<Deferral[]> {
  const ids = [...new Set(messages.map((m) => m.campaignId))];
  const result = (await ctx.db.execute(
    sql`SELECT id, status FROM campaigns WHERE id = ANY(${sql.param(ids)}::uuid[])
        ORDER BY id FOR SHARE SKIP LOCKED`,
  )) as unknown as { rows: { id: string; status: string }[] };
  const read = new Set(result.rows.map((r) => r.id));
  const paused = new Set(result.rows.filter((r) => r.status === 'paused').map((r) => r.id));
  const later = new Date(now().getTime() + 60_000);
  return messages.map((m) =>
    read.has(m.campaignId)
      ? { id: m.id, until: m.sendAfter, reason: null, hold: paused.has(m.campaignId) }
      : { id: m.id, until: later, reason: null, hold: false },
  );
}

/** What one claimed message should do now, from its campaign, its contact and the sending window. */
function judge(
  campaign: CampaignRow | undefined,
  contact: { status: string; pausedUntil: Date | null; timeZone: string | null } | undefined,
  at: Date,
): Verdict {
  if (campaign?.status === 'paused') return { kind: 'hold' };
  if (!campaign || ENDED_CAMPAIGN_STATUSES.has(campaign.status)) return { kind: 'cancel' };
  // A draft or scheduled campaign has nothing queued: should a row turn up, it waits and is looked at
  // again later rather than at every claim.
  if (campaign.status !== 'active') return { kind: 'defer', until: new Date(at.getTime() + 15 * 60_000) };
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

export type SentMessage = { dispatched: DispatchedMessage; response: string };

/**
 * How accepted messages wait for each other before their 'sent' write (group-commit.ts). Each 'sent'
 * statement costs PostgreSQL a fixed ~0.7 ms with its triggers whatever its size plus ~45 µs a row, and
 * written as soon as the previous write ended a group held ~11 rows. So an acceptance waits for others,
 * up to 100 ms or until 200 are waiting, and is written at once when its batch is done (the drain waits
 * for it before claiming again, so the end of a batch never waits for the timer). The price is the crash
 * window: an accepted message may stay unrecorded that long (docs/sending.md, "When a worker dies").
 */
export const SENT_GATHER: GatherRule = { maxItems: 200, maxWaitMs: 100 };

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
export async function nextDueAt(ctx: Pick<DispatchContext, 'db' | 'onlyUserId'>): Promise<Date | null> {
  const only = ctx.onlyUserId
    ? sql`AND o.user_id = ANY(${sql.param([ctx.onlyUserId].flat())}::text[])`
    : sql``;
  const result = (await ctx.db.execute(sql`
    SELECT o.send_after AS "sendAfter" FROM outbox_messages o JOIN campaigns c ON c.id = o.campaign_id
    WHERE o.state = 'queued' AND NOT o.held AND c.status = 'active' ${only}
    ORDER BY o.send_after limit 1`)) as unknown as { rows: { sendAfter: string | Date }[] };
  const next = result.rows[0]?.sendAfter;
  return next === undefined ? null : new Date(next);
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
