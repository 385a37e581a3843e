import type { Database } from '@server/db/client';
import { plainRowReader } from '@server/db/plain-rows';
import { outboxMessages } from '@server/db/schema';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { DispatchedMessage } from './delivery-outcomes';
import type { DispatchContext, OutboxRow } from './dispatch';
import { resolveSharedBodies } from './outbox-bodies';

/*
 * The two writes of a batch's claim. The due rows are only locked when they are picked (no write), and
 * everything the dispatcher decides about them before the first byte leaves — the lease, the attempt,
 * the account, the Message-ID and what the message took of the caps — is written in one UPDATE per row
 * at the end of that same transaction. Claiming first and recording the allocation later wrote every
 * row twice (bench/dispatch: a full row version and its index entries each); a row now gets one version
 * on its way out and one when it is recorded sent.
 */

/** Claimed rows are read without drizzle's per-row mapping (plain-rows.ts). */
const outboxRows = plainRowReader(outboxMessages);

/**
 * Locks up to a batch of due messages (not held) for the open transaction `ctx.db`, skipping
 * rows another worker holds. Nothing is written: until the claim is recorded, the row lock alone keeps
 * other workers off, and a worker that dies meanwhile leaves the rows exactly as they were.
 *
 * The pick must walk the due index (`outbox_messages_due_idx`, queued rows by send_after) in order and
 * stop after a batch: then a claim costs the same with 100 or 1,000,000 messages waiting, and concurrent
 * workers skip each other's locked rows instead of all reading the same ones. Left to itself the planner
 * often misjudges a freshly filled outbox (its statistics lag behind a campaign that just queued 20,000
 * messages) and reads every queued row of the campaign, then sorts them: a claim then cost 20–70 ms and
 * the whole campaign O(n²) (bench/dispatch). Sorting and bitmap scans are switched off for this one
 * statement (and on again for the rest of the transaction), which leaves only the ordered index walk.
 *
 * The campaign's status is not looked at here: a paused campaign's queued rows are held, off the index
 * (schema/sending.ts, held). They used to stay on it and be stepped over at one campaign lookup each, by
 * every claim: a paused campaign of 200,000 due messages made each claim read 200,030 rows and take
 * 238 ms instead of ~1 ms (dispatch-paused.test.ts). A row of a campaign that is not active and not held
 * (queued after the pause by a writer that had not seen it, or put back by a batch in flight) is claimed
 * once and judged (dispatch.ts judge): held if the campaign is paused, cancelled if it ended.
 */
export async function pickDueMessages(ctx: DispatchContext, at: Date): Promise<OutboxRow[]> {
  await ctx.db.execute(
    sql`SELECT set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`,
  );
  const rows = outboxRows.read(
    await ctx.db.execute(sql`
      SELECT ${outboxRows.selection} FROM outbox_messages
      WHERE ${outboxMessages.state} = 'queued' AND NOT ${outboxMessages.held}
        AND ${outboxMessages.sendAfter} <= ${at.toISOString()}::timestamptz
        ${onlyUsersSql(ctx)}
      ORDER BY ${outboxMessages.sendAfter}
      LIMIT ${ctx.env.DISPATCH_BATCH_SIZE}
      FOR UPDATE SKIP LOCKED`),
  );
  await ctx.db.execute(
    sql`SELECT set_config('enable_sort', 'on', true), set_config('enable_bitmapscan', 'on', true)`,
  );
  // A newsletter's rows name their shared body: read once per worker, not detoasted row by row.
  return resolveSharedBodies(ctx.db, rows);
}

/** A picked row as the claim records it: leased to this worker, its attempt counted. */
export function asClaimed(message: OutboxRow, ctx: DispatchContext, at: Date): OutboxRow {
  return {
    ...message,
    state: 'sending',
    phase: 'claimed',
    leaseOwner: ctx.workerId,
    leaseUntil: leaseUntilFrom(ctx, at),
    attempts: message.attempts + 1,
    updatedAt: at,
  };
}

export interface AllocatedMessage {
  dispatched: DispatchedMessage;
  /** The hour of the recipient domain's pace this message took, if the campaign has one. */
  paceHour: Date | null;
}

/**
 * Records the claim of every picked row in one statement: leased to this worker with its attempt
 * counted, and for the allocated ones their account, Message-ID and the slots they took (so recovery
 * can give them back). The first messages of each account — those its connections take at once, and
 * one ahead each — are recorded as 'delivering' in the same write; the others 'allocated', marked
 * delivering just before a connection takes them (deliver.ts). Rows not allocated (deferred, skipped,
 * faulted) are recorded 'claimed' and then given their outcome in the same transaction, by the writers
 * that expect a claimed row. Answers the ids recorded as delivering.
 */
export async function recordClaims(
  ctx: DispatchContext,
  input: { claimed: OutboxRow[]; allocated: AllocatedMessage[]; at: Date },
): Promise<Set<string>> {
  if (input.claimed.length === 0) return new Set();
  const connectionsPerAccount = ctx.transports.connectionsPerAccount;
  const firstWave = new Set<string>();
  const perAccount = new Map<string, number>();
  const allocatedById = new Map<string, AllocatedMessage>();
  for (const a of input.allocated) {
    const accountId = a.dispatched.account.id;
    const taken = perAccount.get(accountId) ?? 0;
    if (taken < 2 * connectionsPerAccount) firstWave.add(a.dispatched.message.id);
    perAccount.set(accountId, taken + 1);
    allocatedById.set(a.dispatched.message.id, a);
  }
  // Seven arrays, not a VALUES row of seven parameters per message: the statement's text is the same
  // for every batch (PostgreSQL parses and plans one statement, not one per batch size) and the worker
  // builds seven parameters instead of seven hundred (drizzle's query building was ~6% of its CPU).
  const n = input.claimed.length;
  const ids: string[] = new Array(n);
  const accountIds: (string | null)[] = new Array(n);
  const messageIds: (string | null)[] = new Array(n);
  const slotDays: (string | null)[] = new Array(n);
  const campaignSlotDays: (string | null)[] = new Array(n);
  const paceHours: (string | null)[] = new Array(n);
  const firstWaves: boolean[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const id = input.claimed[i]!.id;
    const a = allocatedById.get(id);
    ids[i] = id;
    accountIds[i] = a ? a.dispatched.account.id : null;
    messageIds[i] = a ? (a.dispatched.message.messageId ?? null) : null;
    slotDays[i] = a ? a.dispatched.day : null;
    campaignSlotDays[i] = a ? a.dispatched.campaignDay : null;
    paceHours[i] = a?.paceHour ? a.paceHour.toISOString() : null;
    firstWaves[i] = firstWave.has(id);
  }
  const stamp = input.at.toISOString();
  // The row lock taken when the rows were picked is still held: no other writer can have moved them.
  await ctx.db.execute(sql`
    UPDATE outbox_messages AS o
    SET state = 'sending', lease_owner = ${ctx.workerId},
        lease_until = ${leaseUntilFrom(ctx, input.at).toISOString()}::timestamptz,
        attempts = o.attempts + 1, updated_at = ${stamp}::timestamptz,
        phase = CASE WHEN v.account_id IS NULL THEN 'claimed' WHEN v.first_wave THEN 'delivering' ELSE 'allocated' END,
        sender_account_id = coalesce(v.account_id, o.sender_account_id),
        message_id = coalesce(v.message_id, o.message_id),
        slot_day = CASE WHEN v.account_id IS NULL THEN o.slot_day ELSE v.slot_day END,
        campaign_slot_day = CASE WHEN v.account_id IS NULL THEN o.campaign_slot_day ELSE v.campaign_slot_day END,
        pace_hour = CASE WHEN v.account_id IS NULL THEN o.pace_hour ELSE v.pace_hour END
    FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(accountIds)}::uuid[], ${sql.param(messageIds)}::text[],
      ${sql.param(slotDays)}::date[], ${sql.param(campaignSlotDays)}::date[], ${sql.param(paceHours)}::timestamptz[],
      ${sql.param(firstWaves)}::boolean[])
      AS v(id, account_id, message_id, slot_day, campaign_slot_day, pace_hour, first_wave)
    WHERE o.id = v.id`);
  return firstWave;
}

function leaseUntilFrom(ctx: DispatchContext, at: Date): Date {
  return new Date(at.getTime() + ctx.env.SEND_LEASE_SECONDS * 1000);
}

function onlyUsersSql(ctx: DispatchContext) {
  if (!ctx.onlyUserId) return sql``;
  return sql`AND ${outboxMessages.userId} = ANY(${sql.param([ctx.onlyUserId].flat())}::text[])`;
}

export function isDeadlock(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '40P01' || e?.cause?.code === '40P01';
}

/** True on PostgreSQL (a pool of connections); false on PGlite, which is a single connection. */
export function hasOwnConnections(db: Database): boolean {
  return (db as unknown as { $client?: unknown }).$client instanceof pg.Pool;
}
