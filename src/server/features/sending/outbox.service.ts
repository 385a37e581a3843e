import { randomBytes } from 'node:crypto';
import type { Database } from '@server/db/client';
import type { campaigns } from '@server/db/schema';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { writeSecondsPrefix } from '@server/lib/time-ordered-id';
import { sql } from 'drizzle-orm';
import { getDefaultTrackingDomain } from '../platform-settings/platform-settings.service';
import { prepareQueuedBody } from './message-content';
import { resolveTrackingBaseUrl } from './message-envelope';
import { sharedBodyDigest, storeSharedBodies } from './outbox-bodies';

/*
 * The sending engine's front door: whoever decides that a message should go (a campaign step, a
 * newsletter, a bulk send) renders it and hands it here. From then on the dispatcher owns it: sender
 * choice, window, gaps, caps, suppression at the moment of sending, retries, events.
 */

export type CampaignRow = typeof campaigns.$inferSelect;

export interface QueueMessageInput {
  campaignContactId: string;
  toEmail: string;
  toName?: string | null;
  subject: string;
  html: string;
  text?: string | null;
  stepId?: string | null;
  variantKey?: string | null;
  /** Not before this time (a follow-up's delay); the window, gaps and caps still apply. Default now. */
  sendAfter?: Date;
  /** A reply in the contact's thread (campaigns/thread-reply.ts): the Message-ID it answers… */
  inReplyTo?: string | null;
  /** …the thread's Message-IDs for References, oldest first… */
  threadReferences?: string[] | null;
  /** The account that must send it while it can (the contact's earlier mail came from it). */
  boundSenderAccountId?: string | null;
}

const INSERT_CHUNK = 500;

const TOKEN_RANDOM_BYTES = 16;
const TOKEN_BYTES = 4 + TOKEN_RANDOM_BYTES;

/**
 * `count` unguessable public ids for the messages' pixels, links and unsubscribe pages: 16 random bytes
 * each (from one draw of randomness: one call into OpenSSL instead of one per message) after four bytes
 * of the time in seconds (27 characters). The prefix keeps the tokens of a batch together in
 * outbox_messages_token_key, which every row version of a message writes to: with random tokens each
 * write went to a random leaf page, read back from disk and logged in full after each checkpoint once
 * the outbox outgrew shared_buffers (time-ordered-id.ts).
 */
function newTrackingTokens(count: number, at: number = Date.now()): string[] {
  const bytes = randomBytes(TOKEN_BYTES * count);
  return Array.from({ length: count }, (_, i) => {
    writeSecondsPrefix(bytes, i * TOKEN_BYTES, at);
    return bytes.toString('base64url', i * TOKEN_BYTES, (i + 1) * TOKEN_BYTES);
  });
}

/**
 * A prepared body as it is sent to the database: the HTML, the text part and the tracked links. When
 * `templated`, the HTML holds the call's stand-in token where each message's own token goes, and the
 * database puts it in (see bodyPreparer); otherwise it is one message's HTML as it is stored.
 */
interface QueuedBody {
  html: string;
  text: string;
  links: string[];
  templated: boolean;
  /** A templated body's digest (outbox-bodies.ts), once it is stored as a shared body. */
  digest?: string;
  /** Stored as a shared body by an earlier chunk of this call. */
  stored?: boolean;
}

/** A templated body used by this many messages of a chunk is stored once and named by them. */
const SHARE_FROM_USES = 2;

interface OutboxInsert {
  token: string;
  campaignContactId: string;
  stepId: string | null;
  variantKey: string | null;
  toEmail: string;
  toName: string | null;
  subject: string;
  body: QueuedBody;
  sendAfter: Date;
  inReplyTo: string | null;
  threadReferences: string[] | null;
  boundSenderAccountId: string | null;
}

/**
 * One statement per chunk with one array per column (unnest): a Drizzle multi-row insert built and
 * checked 7,500 parameters per 500 messages, a third of queueing's CPU in bench/dispatch. Ids are
 * answered in the order of the rows, matched by their unique tokens (RETURNING promises no order).
 *
 * Each distinct body goes once per chunk, each row naming its body by position: a newsletter's 500
 * copies share a handful of bodies, and sending every copy's ~8 KB in the arrays cost more than the
 * insert. A templated body that several messages use (or that an earlier chunk stored) is stored once
 * as a shared body (outbox-bodies.ts) and the rows name it, with no bodies of their own: each row is
 * then a few hundred bytes, written and logged at every state change. A body used by one message of
 * the chunk stays in its row (a sequence's one-to-one mail, as before), its HTML the body's with the
 * stand-in replaced by the row's token, as bodyPreparer would have made it.
 */
async function insertOutboxRows(
  db: Database,
  campaign: CampaignRow,
  at: Date,
  standIn: string,
  rows: OutboxInsert[],
): Promise<string[]> {
  const bodies: QueuedBody[] = [];
  const uses: number[] = [];
  const bodyIndex = new Map<QueuedBody, number>();
  const bodyOf = rows.map((row) => {
    let index = bodyIndex.get(row.body);
    if (index === undefined) {
      index = bodies.push(row.body);
      uses.push(0);
      bodyIndex.set(row.body, index);
    }
    uses[index - 1]! += 1;
    return index;
  });
  const shared = bodies.filter((b, i) => b.templated && (b.stored || uses[i]! >= SHARE_FROM_USES));
  if (shared.length === 0)
    return insertOutboxStatement(db, campaign, at, standIn, rows, bodies, bodyOf, null);
  // In a transaction (a savepoint in the caller's): the shared bodies stay locked until the rows naming
  // them are committed.
  return db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    for (const body of shared) body.digest ??= sharedBodyDigest({ ...body, standIn });
    const ids = await storeSharedBodies(
      tx,
      { userId: campaign.userId, campaignId: campaign.id, at },
      shared.map((b) => ({ ...b, standIn, digest: b.digest!, stored: b.stored === true })),
    );
    const bodyIds = new Map(shared.map((b, i) => [b, ids[i]!]));
    for (const body of shared) body.stored = true;
    return insertOutboxStatement(tx, campaign, at, standIn, rows, bodies, bodyOf, bodyIds);
  });
}

async function insertOutboxStatement(
  db: Database,
  campaign: CampaignRow,
  at: Date,
  standIn: string,
  rows: OutboxInsert[],
  bodies: QueuedBody[],
  bodyOf: number[],
  /** The shared bodies' ids: their rows get the id and no bodies of their own. */
  bodyIds: Map<QueuedBody, string> | null,
): Promise<string[]> {
  const column = <T>(pick: (row: OutboxInsert, i: number) => T) => sql.param(rows.map(pick));
  const inline = (b: QueuedBody) => !bodyIds?.has(b);
  const bodyColumn = <T>(pick: (body: QueuedBody) => T) =>
    sql.param(bodies.map((b) => (inline(b) ? pick(b) : null)));
  const stamp = at.toISOString();
  const result = await db.execute(sql`
    INSERT INTO outbox_messages (token, user_id, campaign_id, campaign_contact_id, step_id, variant_key,
      to_email, to_name, subject, html, text, links, body_id, send_after, in_reply_to, thread_references,
      thread_sender_account_id, held, created_at, updated_at)
    SELECT m.token, ${campaign.userId}, ${campaign.id}::uuid, m.contact_id, m.step_id, m.variant_key,
      m.to_email, m.to_name, m.subject,
      CASE WHEN b.templated THEN replace(b.html, ${standIn}::text, m.token) ELSE b.html END,
      b.text, b.links::jsonb, b.body_id, m.send_after, m.in_reply_to,
      m.thread_references::jsonb, m.thread_sender_account_id, h.held, ${stamp}::timestamptz, ${stamp}::timestamptz
    FROM unnest(${column((r) => r.token)}::text[], ${column((r) => r.campaignContactId)}::uuid[],
      ${column((r) => r.stepId)}::uuid[], ${column((r) => r.variantKey)}::text[],
      ${column((r) => r.toEmail)}::text[], ${column((r) => r.toName)}::text[],
      ${column((r) => r.subject)}::text[], ${column((_, i) => bodyOf[i])}::int[],
      ${column((r) => r.sendAfter.toISOString())}::timestamptz[],
      ${column((r) => r.inReplyTo)}::text[],
      ${column((r) => (r.threadReferences ? JSON.stringify(r.threadReferences) : null))}::text[],
      ${column((r) => r.boundSenderAccountId)}::uuid[])
      WITH ORDINALITY AS m(token, contact_id, step_id, variant_key, to_email, to_name, subject, body,
        send_after, in_reply_to, thread_references, thread_sender_account_id, ord)
    JOIN unnest(${bodyColumn((b) => b.html)}::text[], ${bodyColumn((b) => b.text)}::text[],
      ${bodyColumn((b) => JSON.stringify(b.links))}::text[], ${bodyColumn((b) => b.templated)}::boolean[],
      ${sql.param(bodies.map((b) => bodyIds?.get(b) ?? null))}::uuid[])
      WITH ORDINALITY AS b(html, text, links, templated, body_id, ord) ON b.ord = m.body
    -- Queued into a paused campaign (a newsletter goes on queueing): held from the start (holdCampaignMessages).
    CROSS JOIN (SELECT coalesce((SELECT c.status = 'paused' FROM campaigns c WHERE c.id = ${campaign.id}::uuid), false) AS held) h
    ORDER BY m.ord
    RETURNING id, token`);
  const idByToken = new Map(
    (result as unknown as { rows: { id: string; token: string }[] }).rows.map((row) => [row.token, row.id]),
  );
  return rows.map((row) => idByToken.get(row.token)!);
}

/** Distinct bodies remembered per queueMessages call (in count, and in characters held): a few megabytes. */
const PREPARED_BODIES_MAX = 256;
const PREPARED_CHARS_MAX = 4_000_000;

/**
 * prepareQueuedBody for the messages of one call, parsing each distinct body once: a newsletter's copies
 * differ only by their merge-tag values, and most of those repeat (first names, cities). The token is the
 * one input that differs per message, and it only ever lands in the pixel and click URLs, whole and
 * unescaped (TRACKING_PATHS; tokens need no escaping anywhere). So a body is prepared once with a
 * stand-in token — random and unguessable per call, so no author's or contact's text can contain it — and
 * each message gets that result with the stand-in replaced by its own token (by the database, see
 * insertOutboxRows, or for a shared body by whoever reads it: outbox_all, outbox-bodies.ts): the same bytes as preparing it alone (outbox.test.ts compares both ways).
 */
function bodyPreparer(settings: Omit<Parameters<typeof prepareQueuedBody>[0], 'html' | 'text' | 'token'>): {
  standIn: string;
  prepare: (html: string, text: string | null, token: string) => QueuedBody;
} {
  const standIn = newTrackingTokens(1)[0]!;
  // By HTML, then by the given plain-text part (null when it is made from the HTML).
  const byBody = new Map<string, Map<string | null, QueuedBody>>();
  let remembered = 0;
  let chars = 0;
  const direct = (html: string, text: string | null, token: string): QueuedBody => {
    const prepared = prepareQueuedBody({ ...settings, html, text, token });
    return { html: prepared.html, text: prepared.text, links: prepared.links, templated: false };
  };
  const prepare = (html: string, text: string | null, token: string): QueuedBody => {
    if (html.includes(standIn) || text?.includes(standIn)) return direct(html, text, token);
    let byText = byBody.get(html);
    let prepared = byText?.get(text);
    if (prepared === undefined) {
      if (remembered >= PREPARED_BODIES_MAX || chars >= PREPARED_CHARS_MAX) return direct(html, text, token);
      prepared = { ...direct(html, text, standIn), templated: true };
      if (!byText) {
        byText = new Map();
        byBody.set(html, byText);
      }
      byText.set(text, prepared);
      remembered += 1;
      chars += html.length + (text?.length ?? 0) + prepared.html.length + prepared.text.length;
    }
    return prepared;
  };
  return { standIn, prepare };
}

/**
 * Queues rendered messages of one campaign in the outbox and wakes the dispatchers. Tracking (pixel,
 * click links) is applied here once, so the hot send path only adds the per-account envelope.
 */
export async function queueMessages(options: {
  db: Database;
  queue: Queue | null;
  appUrl: string;
  campaign: CampaignRow;
  messages: QueueMessageInput[];
  dispatchConcurrency?: number;
}): Promise<{ queued: number; ids: string[] }> {
  const { db, campaign } = options;
  const trackingBaseUrl = resolveTrackingBaseUrl({
    appUrl: options.appUrl,
    // A campaign without its own tracking domain uses the platform's (Admin → Settings), else APP_URL.
    trackingDomain: campaign.trackingDomain || (await getDefaultTrackingDomain({ db })),
  });
  const at = now();
  const ids: string[] = [];
  const { standIn, prepare } = bodyPreparer({
    trackingBaseUrl,
    trackOpens: campaign.trackOpens,
    trackClicks: campaign.trackClicks,
    bodyFormat: campaign.bodyFormat,
    kind: campaign.kind,
  });
  for (let start = 0; start < options.messages.length; start += INSERT_CHUNK) {
    const chunk = options.messages.slice(start, start + INSERT_CHUNK);
    const tokens = newTrackingTokens(chunk.length);
    const rows = chunk.map((message, i): OutboxInsert => {
      const token = tokens[i]!;
      return {
        token,
        campaignContactId: message.campaignContactId,
        stepId: message.stepId ?? null,
        variantKey: message.variantKey ?? null,
        toEmail: message.toEmail.trim(),
        toName: message.toName ?? null,
        subject: message.subject,
        body: prepare(message.html, message.text ?? null, token),
        sendAfter: message.sendAfter ?? at,
        inReplyTo: message.inReplyTo ?? null,
        threadReferences: message.threadReferences ?? null,
        boundSenderAccountId: message.boundSenderAccountId ?? null,
      };
    });
    ids.push(...(await insertOutboxRows(db, campaign, at, standIn, rows)));
  }
  if (options.queue && ids.length > 0) {
    await wakeDispatchers({ queue: options.queue, parallelism: options.dispatchConcurrency ?? 2 });
  }
  return { queued: ids.length, ids };
}

/**
 * Takes a campaign's queued messages off the dispatcher's due index (schema/sending.ts, held), as they
 * are otherwise: called with its pause, in the same transaction, so that no claim meets them while it is
 * paused. Messages in flight are not touched: one put back later is held by the claim that next meets it
 * (dispatch.ts judge). Costs one write per queued message, once per pause.
 */
export async function holdCampaignMessages(db: Database, campaignId: string): Promise<number> {
  const result = (await db.execute(sql`
    UPDATE outbox_messages SET held = true
    WHERE campaign_id = ${campaignId}::uuid AND state = 'queued' AND NOT held`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return result.rowCount ?? result.affectedRows ?? 0;
}

/**
 * holdCampaignMessages for every paused campaign of a user at once (a suspension pauses them all in one
 * statement): one UPDATE, through the (campaign_id, state) index campaign by campaign, not one per row.
 */
export async function holdPausedMessagesOfUser(db: Database, userId: string): Promise<number> {
  const result = (await db.execute(sql`
    UPDATE outbox_messages o SET held = true
    FROM campaigns c
    WHERE c.user_id = ${userId} AND c.status = 'paused' AND o.campaign_id = c.id
      AND o.state = 'queued' AND NOT o.held`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return result.rowCount ?? result.affectedRows ?? 0;
}

/** Puts a resumed campaign's held messages back on the due index, each due when it was before. */
export async function releaseCampaignMessages(db: Database, campaignId: string): Promise<number> {
  const result = (await db.execute(sql`
    UPDATE outbox_messages SET held = false
    WHERE campaign_id = ${campaignId}::uuid AND held AND state = 'queued'`)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return result.rowCount ?? result.affectedRows ?? 0;
}

/**
 * Asks the workers to drain the outbox now. One job per parallel slot; throttled per second so a
 * burst of enqueues makes a handful of jobs, not thousands. Drains that find nothing due end at once.
 */
export async function wakeDispatchers(options: {
  queue: Queue;
  parallelism: number;
  startAfter?: Date;
}): Promise<void> {
  for (let slot = 0; slot < options.parallelism; slot++) {
    await options.queue.send(
      'dispatch-outbox',
      {},
      {
        singletonKey: `${options.startAfter ? 'later' : 'now'}-${slot}`,
        singletonSeconds: options.startAfter ? 30 : 1,
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
        retryLimit: 0,
      },
    );
  }
}
