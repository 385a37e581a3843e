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

/**
 * Writes hits in one statement: eight array parameters unnested into rows, whatever the batch size (no
 * parameter limit, one cached plan). The join takes user, campaign, step, contact and account from the
 * outbox row itself, so the event always matches its message, and a hit whose message was deleted
 * meanwhile (its user or campaign gone) is skipped instead of failing the whole batch on a foreign key.
 * Resolves with the number of events stored.
 */
export async function insertTrackingHits(options: {
  db: Database;
  hits: readonly TrackingHit[];
}): Promise<number> {
  const { hits } = options;
  if (hits.length === 0) return 0;
  const ids: string[] = new Array(hits.length);
  const types: string[] = new Array(hits.length);
  const times: string[] = new Array(hits.length);
  const details: (string | null)[] = new Array(hits.length);
  const machines: boolean[] = new Array(hits.length);
  const reasons: (string | null)[] = new Array(hits.length);
  const userAgents: (string | null)[] = new Array(hits.length);
  const metadata: (string | null)[] = new Array(hits.length);
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i]!;
    ids[i] = hit.outboxMessageId;
    types[i] = hit.type;
    times[i] = hit.occurredAt.toISOString();
    details[i] = hit.detail;
    machines[i] = hit.machine;
    reasons[i] = hit.machineReason;
    userAgents[i] = hit.userAgent;
    metadata[i] = hit.metadata === null ? null : JSON.stringify(hit.metadata);
  }
  const result = await options.db.execute(sql`
    WITH inserted AS (
      INSERT INTO email_events (user_id, campaign_id, step_id, campaign_contact_id, outbox_message_id,
        sender_account_id, type, occurred_at, detail, machine, machine_reason, user_agent, metadata)
      SELECT o.user_id, o.campaign_id, o.step_id, o.campaign_contact_id, o.id, o.sender_account_id,
        h.type, h.occurred_at, h.detail, h.machine, h.machine_reason, h.user_agent, h.metadata
      FROM unnest(${sql.param(ids)}::uuid[], ${sql.param(types)}::text[], ${sql.param(times)}::timestamptz[],
        ${sql.param(details)}::text[], ${sql.param(machines)}::boolean[], ${sql.param(reasons)}::text[],
        ${sql.param(userAgents)}::text[], ${sql.param(metadata)}::jsonb[]) WITH ORDINALITY
        AS h(outbox_message_id, type, occurred_at, detail, machine, machine_reason, user_agent, metadata, ord)
      JOIN outbox_all o ON o.id = h.outbox_message_id
      -- Ids in arrival order, whatever order the join produced.
      ORDER BY h.ord
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM inserted`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
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
