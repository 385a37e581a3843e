import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { campaignContacts, campaigns, outboxMessages } from '../../db/schema';
import type { Env } from '../../env';
import type { Queue } from '../../jobs/queue';
import { now } from '../../lib/clock';
import { groupCommit } from '../../lib/group-commit';
import type { SystemMailer } from '../../lib/mailer';
import { accountLocalDate } from '../sender-accounts/sender-account-rules';
import { filterSuppressed } from '../suppression/suppression.service';
import { releaseCampaignSlots, takeCampaignSlots } from './campaign-cap';
import {
  type DeliveryFailure,
  type DispatchedMessage,
  recordDeferrals,
  recordDeliveryFailure,
  recordSent,
  recordSkipped,
} from './delivery-outcomes';
import {
  buildMailOptions,
  makeMessageId,
  resolveTrackingBaseUrl,
  unsubscribeMailtoFor,
} from './message-envelope';
import { wakeDispatchers } from './outbox.service';
import { type ComposedMail, composeRawMessage } from './raw-message';
import { localDate, nextSendTime, startOfLocalDay, startOfNextLocalDay } from './send-window';
import { allocateSenders, type SenderAccountRow } from './sender-allocation';
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
   * Only this user's messages. Workers never set it; tests that share one PostgreSQL database do, so a
   * drain in one test file cannot take another file's messages.
   */
  onlyUserId?: string;
}

export interface DrainSummary {
  claimed: number;
  sent: number;
  deferred: number;
  failed: number;
  skipped: number;
}

const DAY_MS = 24 * 60 * 60_000;

export const NO_ACTIVE_SENDER_NOTE =
  'Waiting: none of the campaign’s sender accounts can send (paused or failing). Looked at again every 15 minutes.';

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
            ${ctx.onlyUserId ? sql`AND o.user_id = ${ctx.onlyUserId}` : sql``}
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

/** Judges, allocates, sends and records one claimed batch. */
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

  const deferrals: { id: string; until: Date; reason: string | null }[] = [];
  const resumedContacts = new Set<string>();
  const cancelled: OutboxRow[] = [];
  const suppressed: OutboxRow[] = [];
  let candidates: OutboxRow[] = [];

  for (const message of claimed) {
    const campaign = campaignById.get(message.campaignId);
    const contact = contactById.get(message.campaignContactId);
    if (campaign?.status !== 'active') {
      deferrals.push({ id: message.id, until: message.sendAfter, reason: null });
      continue;
    }
    if (!contact || ENDED_CONTACT_STATES.has(contact.status)) {
      cancelled.push(message);
      continue;
    }
    if (contact.status === 'paused') {
      // Out of office until a date: wait for it. Paused with no date (by hand): look again tomorrow.
      if (!contact.pausedUntil || contact.pausedUntil > at) {
        deferrals.push({
          id: message.id,
          until: contact.pausedUntil ?? new Date(at.getTime() + DAY_MS),
          reason: null,
        });
        continue;
      }
      resumedContacts.add(contact.id);
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
    if (opens.getTime() > at.getTime()) {
      deferrals.push({ id: message.id, until: opens, reason: null });
      continue;
    }
    candidates.push(message);
  }

  // Suppression is checked now, not when the message was queued: an unsubscribe a minute ago counts.
  const byUser = groupBy(candidates, (m) => m.userId);
  const suppressedIds = new Set<string>();
  for (const [userId, messages] of byUser) {
    const blocked = await filterSuppressed({ db: ctx.db, userId, emails: messages.map((m) => m.toEmail) });
    for (const m of messages) if (blocked.has(m.toEmail)) suppressedIds.add(m.id);
  }
  suppressed.push(...candidates.filter((m) => suppressedIds.has(m.id)));
  candidates = candidates.filter((m) => !suppressedIds.has(m.id));

  const toSend: DispatchedMessage[] = [];
  for (const [campaignId, messages] of groupBy(candidates, (m) => m.campaignId)) {
    const campaign = campaignById.get(campaignId)!;
    let allowed = messages;
    // Slots of the campaign's daily cap taken for messages that then wait after all: given back below.
    let campaignDay: string | null = null;
    let unusedCampaignSlots = 0;
    if (campaign.dailyCap !== null) {
      campaignDay = localDate(at, campaign.timeZone);
      const granted = await takeCampaignSlots(ctx.db, {
        campaignId,
        day: campaignDay,
        dayStart: startOfLocalDay(at, campaign.timeZone),
        cap: campaign.dailyCap,
        count: allowed.length,
      });
      const nextDay = startOfNextLocalDay(at, campaign.timeZone);
      for (const m of allowed.slice(granted)) deferrals.push({ id: m.id, until: nextDay, reason: null });
      allowed = allowed.slice(0, granted);
    }
    const pacedHours = new Map<string, Date>();
    if (campaign.domainPacePerHour !== null && allowed.length > 0) {
      const paced: OutboxRow[] = [];
      for (const m of allowed) {
        const pace = await takeDomainPace(ctx.db, campaign, m.toEmail, at);
        if ('nextHour' in pace) {
          deferrals.push({ id: m.id, until: pace.nextHour, reason: null });
          unusedCampaignSlots++;
        } else {
          paced.push(m);
          pacedHours.set(m.id, pace.hourStart);
        }
      }
      allowed = paced;
    }
    if (allowed.length === 0) {
      await giveBackCampaignSlots(ctx, campaignId, campaignDay, unusedCampaignSlots);
      continue;
    }
    const allocation = await allocateSenders({
      db: ctx.db,
      campaignId,
      count: allowed.length,
      at,
      gapMinSeconds: campaign.gapMinSeconds,
      gapMaxSeconds: campaign.gapMaxSeconds,
      // A follow-up replying in its thread goes from the account that sent the message it answers.
      preferredAccountIds: allowed.map((m) => m.threadSenderAccountId),
    });
    const retryAt = allocation.nextAvailableAt ?? new Date(at.getTime() + 15 * 60_000);
    // No account will ever free up (none active): say so on the message, where the campaign shows it.
    const waitReason = allocation.nextAvailableAt ? null : NO_ACTIVE_SENDER_NOTE;
    const unallocated: OutboxRow[] = [];
    allowed.forEach((message, i) => {
      const account = allocation.accounts[i];
      if (!account) {
        const ownAccountFrees = allocation.waitUntil[i];
        deferrals.push(
          ownAccountFrees
            ? { id: message.id, until: ownAccountFrees, reason: null }
            : { id: message.id, until: retryAt, reason: waitReason },
        );
        unallocated.push(message);
        return;
      }
      toSend.push({
        message: { ...message, messageId: message.messageId ?? makeMessageId(account.fromEmail) },
        account,
        campaign,
        day: accountLocalDate(at, account.timeZone),
        campaignDay,
      });
    });
    // Messages no account could take give back what they took of the campaign's cap and domain pace.
    await giveBackCampaignSlots(ctx, campaignId, campaignDay, unusedCampaignSlots + unallocated.length);
    for (const m of unallocated) {
      const hourStart = pacedHours.get(m.id);
      if (hourStart) await releaseDomainPace(ctx.db, campaign, m.toEmail, hourStart);
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
  if (toSend.length === 0) return result;

  await markDelivering(ctx, toSend);
  // Each accepted message is recorded as soon as the server says 250, in small group commits, not when
  // the whole batch is done: a worker killed mid-batch then leaves only the messages whose 250 was
  // still on its way to the database to be sent again (docs/sending.md, "When a worker dies").
  const acknowledged = groupCommit((group: SentMessage[]) => recordSent(ctx, group));
  const lease = keepLeases(
    ctx,
    toSend.map((d) => d.message.id),
  );
  const failures: { dispatched: DispatchedMessage; failure: DeliveryFailure }[] = [];
  try {
    await Promise.all(
      toSend.map(async (dispatched) => {
        const outcome = await sendOne(ctx, dispatched);
        if (outcome.ok) acknowledged.add({ dispatched, response: outcome.response });
        else failures.push({ dispatched, failure: outcome.failure });
      }),
    );
    result.sent += await acknowledged.drain();
  } finally {
    lease.stop();
  }
  for (const { dispatched, failure } of failures) {
    const final = await recordDeliveryFailure(ctx, dispatched, failure);
    if (final) result.failed++;
    else result.deferred++;
  }
  return result;
}

/** Moves the batch to the 'delivering' phase with its account and Message-ID before any byte is sent. */
async function markDelivering(ctx: DispatchContext, batch: DispatchedMessage[]): Promise<void> {
  const values = sql.join(
    batch.map((d) => sql`(${d.message.id}::uuid, ${d.account.id}::uuid, ${d.message.messageId})`),
    sql`, `,
  );
  await ctx.db.execute(sql`
    UPDATE outbox_messages AS o
    SET phase = 'delivering', sender_account_id = v.account_id, message_id = v.message_id,
        updated_at = ${now().toISOString()}::timestamptz
    FROM (VALUES ${values}) AS v(id, account_id, message_id)
    WHERE o.id = v.id`);
}

type SendOutcome = { ok: true; response: string } | { ok: false; failure: DeliveryFailure };
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

async function sendOne(ctx: DispatchContext, d: DispatchedMessage): Promise<SendOutcome> {
  try {
    const transport = await ctx.transports.get(d.account);
    const mail = mailFor(ctx, d);
    // A finished message (see raw-message.ts); the envelope is the addresses buildMailOptions checked.
    const info = await transport.sendMail({
      envelope: { from: mail.from.address, to: [mail.to.address] },
      raw: composeRawMessage(mail),
      // Already in the raw header; given here too or nodemailer makes one up (five calls into OpenSSL).
      messageId: mail.messageId,
    });
    return { ok: true, response: String(info.response ?? '').slice(0, 200) };
  } catch (error) {
    return { ok: false, failure: { error } };
  }
}

function mailFor(ctx: DispatchContext, d: DispatchedMessage): ComposedMail {
  const { message, account, campaign } = d;
  return buildMailOptions({
    messageId: message.messageId!,
    token: message.token,
    appUrl: ctx.env.APP_URL,
    trackingBaseUrl: resolveTrackingBaseUrl({
      appUrl: ctx.env.APP_URL,
      trackingDomain: campaign.trackingDomain,
    }),
    from: { name: account.fromName, email: account.fromEmail },
    replyTo: account.replyTo,
    to: { name: message.toName, email: message.toEmail },
    subject: message.subject,
    html: message.html,
    text: message.text ?? '',
    postalAddress: account.postalAddress,
    senderName: account.fromName,
    unsubscribeMailto: unsubscribeMailtoFor(account, message.token),
    kind: campaign.kind,
    inReplyTo: message.inReplyTo,
    references: message.threadReferences,
  });
}

async function giveBackCampaignSlots(
  ctx: DispatchContext,
  campaignId: string,
  day: string | null,
  count: number,
): Promise<void> {
  if (day && count > 0) await releaseCampaignSlots(ctx.db, { campaignId, day, count });
}

/**
 * Takes one unit of this hour's pace for the recipient's domain, or answers when the next hour starts
 * if the hour is full. Atomic (one upsert guarded by the limit), so concurrent workers share the pace.
 */
async function takeDomainPace(
  db: Database,
  campaign: CampaignRow,
  email: string,
  at: Date,
): Promise<{ hourStart: Date } | { nextHour: Date }> {
  const domain = recipientDomain(email);
  const hourStart = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  const result = await db.execute(sql`
    INSERT INTO domain_pace_counters (user_id, domain, hour_start, sent)
    VALUES (${campaign.userId}, ${domain}, ${hourStart.toISOString()}::timestamptz, 1)
    ON CONFLICT (user_id, domain, hour_start)
    DO UPDATE SET sent = domain_pace_counters.sent + 1
    WHERE domain_pace_counters.sent < ${campaign.domainPacePerHour}
    RETURNING sent`);
  const taken = (result as unknown as { rows: unknown[] }).rows.length > 0;
  return taken ? { hourStart } : { nextHour: new Date(hourStart.getTime() + 3_600_000) };
}

/** Gives back a unit of pace taken for a message that then found no account to send it. */
async function releaseDomainPace(db: Database, campaign: CampaignRow, email: string, hourStart: Date) {
  await db.execute(sql`
    UPDATE domain_pace_counters SET sent = greatest(sent - 1, 0)
    WHERE user_id = ${campaign.userId} AND domain = ${recipientDomain(email)}
      AND hour_start = ${hourStart.toISOString()}::timestamptz`);
}

function recipientDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
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
        ctx.onlyUserId ? eq(outboxMessages.userId, ctx.onlyUserId) : undefined,
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
