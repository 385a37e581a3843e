import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database } from '@server/db/client';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** One open or click waiting in the buffer. The owner, campaign, step, contact and account come from
 * the outbox row at insert time. */
export interface TrackingHit {
  outboxMessageId: string;
  /** The message's owner and place, from the token cache: the COPY path writes them as they are. */
  owner: {
    userId: string;
    campaignId: string;
    stepId: string | null;
    campaignContactId: string;
    senderAccountId: string | null;
  };
  type: 'opened' | 'clicked';
  occurredAt: Date;
  /** The clicked URL. */
  detail: string | null;
  machine: boolean;
  machineReason: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown> | null;
}

export const USER_AGENT_MAX_LENGTH = 512;

/** An array literal of values that need no quoting (uuids from the database, numbers). */
function plainArray(values: readonly (string | number)[]): string {
  return `{${values.join(',')}}`;
}

/** A text[] literal: every element quoted, with backslash and double quote escaped. */
function textArray(values: readonly string[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    literal += `${i === 0 ? '' : ','}"${values[i]!.replace(/["\\]/g, '\\$&')}"`;
  }
  return `${literal}}`;
}

/** Distinct values numbered from 1 (PostgreSQL arrays start at 1; index 0 reads as NULL). */
class Numbering<T> {
  readonly values: T[] = [];
  private readonly numbers = new Map<T, number>();
  of(value: T | null): number {
    if (value === null) return 0;
    let n = this.numbers.get(value);
    if (n === undefined) {
      n = this.values.push(value);
      this.numbers.set(value, n);
    }
    return n;
  }
}

/**
 * The PGlite path (and PostgreSQL's when COPY fails): one INSERT … SELECT unnest per batch, whatever its
 * size (no parameter limit, one cached plan). Parsing the parameters was a third of the statement's cost
 * when every row carried its uuids, timestamp and user agent as text, so the batch goes as numbers into
 * small tables: each message once (its owner as the token cache holds it, as COPY writes it: no join
 * with the outbox), each distinct string once (user ids, types, URLs, user agents, metadata), times as
 * milliseconds after the earliest. Rows come out of unnest in arrival order, so ids follow arrival.
 * A hit of a message deleted meanwhile is still written (email_events has no foreign keys); the owner's
 * events go with the owner (purge-deleted-account-events). Resolves with the number of events stored.
 */
export async function insertTrackingHits(options: {
  db: Database;
  hits: readonly TrackingHit[];
}): Promise<number> {
  const { hits } = options;
  if (hits.length === 0) return 0;
  const words = new Numbering<string>();
  const messages = new Numbering<string>();
  const steps = new Numbering<string>();
  const senders = new Numbering<string>();
  const messageUsers: number[] = [];
  const messageSteps: number[] = [];
  const messageSenders: number[] = [];
  const messageCampaigns: string[] = [];
  const messageContacts: string[] = [];
  let base = Number.POSITIVE_INFINITY;
  for (const hit of hits) base = Math.min(base, hit.occurredAt.getTime());
  const rowMessages: number[] = new Array(hits.length);
  const types: number[] = new Array(hits.length);
  const offsets: number[] = new Array(hits.length);
  const details: number[] = new Array(hits.length);
  const machines: string[] = new Array(hits.length);
  const reasons: number[] = new Array(hits.length);
  const agents: number[] = new Array(hits.length);
  const metadata: number[] = new Array(hits.length);
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i]!;
    const known = messages.values.length;
    const m = messages.of(hit.outboxMessageId);
    if (m > known) {
      messageUsers.push(words.of(hit.owner.userId));
      messageCampaigns.push(hit.owner.campaignId);
      messageSteps.push(steps.of(hit.owner.stepId));
      messageContacts.push(hit.owner.campaignContactId);
      messageSenders.push(senders.of(hit.owner.senderAccountId));
    }
    rowMessages[i] = m;
    types[i] = words.of(hit.type);
    offsets[i] = hit.occurredAt.getTime() - base;
    details[i] = words.of(hit.detail);
    machines[i] = hit.machine ? 't' : 'f';
    reasons[i] = words.of(hit.machineReason);
    agents[i] = words.of(hit.userAgent);
    metadata[i] = words.of(hit.metadata === null ? null : JSON.stringify(hit.metadata));
  }
  const p = <T>(value: T) => sql.param(value);
  // The small tables sit in a subquery the planner pulls up: each reference stays a parameter, read
  // per row by subscript (no per-row parsing).
  const result = await options.db.execute(sql`
    INSERT INTO email_events (user_id, campaign_id, step_id, campaign_contact_id, outbox_message_id,
      sender_account_id, type, occurred_at, detail, machine, machine_reason, user_agent, metadata)
    SELECT t.words[t.users[h.m]], t.campaigns[h.m], t.steps[t.message_steps[h.m]], t.contacts[h.m],
      t.messages[h.m], t.senders[t.message_senders[h.m]], t.words[h.type],
      to_timestamp((t.base + h.ms)::float8 / 1000), t.words[h.detail], h.machine, t.words[h.reason],
      t.words[h.agent], t.words[h.metadata]::jsonb
    FROM (SELECT ${p(textArray(words.values))}::text[] AS words, ${p(plainArray(messages.values))}::uuid[] AS messages,
        ${p(plainArray(messageUsers))}::int4[] AS users, ${p(plainArray(messageCampaigns))}::uuid[] AS campaigns,
        ${p(plainArray(messageContacts))}::uuid[] AS contacts, ${p(plainArray(messageSteps))}::int4[] AS message_steps,
        ${p(plainArray(steps.values))}::uuid[] AS steps, ${p(plainArray(messageSenders))}::int4[] AS message_senders,
        ${p(plainArray(senders.values))}::uuid[] AS senders, ${p(String(base))}::int8 AS base) t,
      unnest(${p(plainArray(rowMessages))}::int4[], ${p(plainArray(types))}::int4[], ${p(plainArray(offsets))}::int8[],
        ${p(plainArray(details))}::int4[], ${p(plainArray(machines))}::boolean[], ${p(plainArray(reasons))}::int4[],
        ${p(plainArray(agents))}::int4[], ${p(plainArray(metadata))}::int4[])
        AS h(m, type, ms, detail, machine, reason, agent, metadata)`);
  return Number((result as unknown as { rowCount?: number | null }).rowCount ?? 0);
}

const COPY_SQL = `COPY email_events (user_id, campaign_id, step_id, campaign_contact_id, outbox_message_id,
  sender_account_id, type, occurred_at, detail, machine, machine_reason, user_agent, metadata) FROM STDIN`;

const COPY_SPECIAL = /[\\\t\n\r]/;

/** A value in COPY's text format: \N for null; backslash, tab, newline and carriage return escaped. */
function copyValue(value: string | null): string {
  if (value === null) return '\\N';
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/**
 * The first six columns of a message's rows (owner and ids), as COPY text. The owner object is one per
 * cached message (tracking.service.ts), so the text is built once per message, not once per hit; the
 * message id is checked because nothing stops a caller from sharing an owner between messages.
 */
const rowPrefixes = new WeakMap<TrackingHit['owner'], { messageId: string; prefix: string }>();

function rowPrefix(hit: TrackingHit): string {
  const cached = rowPrefixes.get(hit.owner);
  if (cached !== undefined && cached.messageId === hit.outboxMessageId) return cached.prefix;
  const { owner } = hit;
  const prefix = `${copyValue(owner.userId)}\t${copyValue(owner.campaignId)}\t${copyValue(owner.stepId)}\t${copyValue(owner.campaignContactId)}\t${copyValue(hit.outboxMessageId)}\t${copyValue(owner.senderAccountId)}\t`;
  rowPrefixes.set(owner, { messageId: hit.outboxMessageId, prefix });
  return prefix;
}

const utf8 = new TextEncoder();
/** Rows encoded per slice: a slice takes well under a millisecond, and requests are served in between. */
const ENCODE_SLICE_ROWS = 200;

/**
 * Rows `start` to `end` as COPY text, UTF-8 encoded. The rows are joined into one string and encoded
 * once: encoding row by row made a Buffer view per row.
 */
function encodeCopyRows(hits: readonly TrackingHit[], start: number, end: number): Buffer {
  let text = '';
  // Hits arrive tens to the millisecond under load: each distinct time is formatted once.
  let lastTime = Number.NaN;
  let lastIso = '';
  for (let i = start; i < end; i++) {
    const h = hits[i]!;
    const time = h.occurredAt.getTime();
    if (time !== lastTime) {
      lastTime = time;
      lastIso = h.occurredAt.toISOString();
    }
    text += `${rowPrefix(h)}${h.type}\t${lastIso}\t${copyValue(h.detail)}\t${h.machine ? 't' : 'f'}\t${copyValue(h.machineReason)}\t${copyValue(h.userAgent)}\t${copyValue(h.metadata === null ? null : JSON.stringify(h.metadata))}\n`;
  }
  // UTF-8 takes at most three bytes per UTF-16 code unit.
  const buffer = Buffer.allocUnsafe(text.length * 3);
  return buffer.subarray(0, utf8.encodeInto(text, buffer).written);
}

/**
 * The COPY payload in slices, with a turn of the event loop between them: a batch of 1,000 encoded in
 * one go held every pixel and redirect for a couple of milliseconds, 25 times a second under load.
 */
async function* copyPayload(hits: readonly TrackingHit[]): AsyncGenerator<Buffer> {
  for (let start = 0; start < hits.length; start += ENCODE_SLICE_ROWS) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    yield encodeCopyRows(hits, start, Math.min(start + ENCODE_SLICE_ROWS, hits.length));
  }
}

/**
 * The PostgreSQL path: one COPY per batch with the ids the token cache already holds. About three times
 * cheaper per row for the database than INSERT … SELECT unnest, which matters because every open and
 * click is a row (bench/tracking). A hit of a message deleted meanwhile is still written: email_events
 * keeps only the owner as a foreign key, and only drafts (which have no messages) can be deleted.
 */
export async function copyTrackingHits(options: {
  pool: pg.Pool;
  hits: readonly TrackingHit[];
}): Promise<number> {
  const { hits } = options;
  if (hits.length === 0) return 0;
  const client = await options.pool.connect();
  try {
    await pipeline(Readable.from(copyPayload(hits)), client.query(copyFrom(COPY_SQL)));
  } finally {
    client.release();
  }
  return hits.length;
}
