import type { IncomingHttpHeaders } from 'node:http';
import type { Database } from '@server/db/client';
import { emailEvents, outboxAll } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { and, eq, sql } from 'drizzle-orm';
import { detectMachine, type TrackingHitKind } from './bot-detection';
import { createTokenCache, type TokenCache } from './token-cache';
import type { TrackingBuffer } from './tracking-buffer';
import { type TrackingHit, USER_AGENT_MAX_LENGTH } from './tracking-hits';

/*
 * What a pixel load or a click means: find the message by its public token (cached), judge whether a
 * person or a machine made the hit, and hand the event to the buffer.
 */

export interface TrackedMessage {
  messageId: string;
  userId: string;
  campaignId: string;
  campaignContactId: string;
  stepId: string | null;
  senderAccountId: string | null;
  /** The original URLs as stored, by index (the clicked event's detail). */
  links: readonly string[];
  /** Where each link may redirect: the stored URL normalised, or null when it is not http(s)/mailto/tel. */
  redirects: readonly (string | null)[];
  sentAt: Date | null;
  /** A person's open is on record (from the database at load, then kept up to date by this process). */
  humanOpenSeen: boolean;
}

/** Tokens are 22 base64url characters (16 random bytes); anything far from that shape is not ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

export function isWellFormedToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

const REDIRECT_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/** The URL a click may be sent to: parsed and re-serialised (no raw CR/LF or odd bytes reach Location). */
export function toRedirectUrl(stored: unknown): string | null {
  if (typeof stored !== 'string') return null;
  try {
    const url = new URL(stored);
    return REDIRECT_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

export async function loadTrackedMessage(options: {
  db: Database;
  token: string;
}): Promise<TrackedMessage | null> {
  const [row] = await options.db
    .select({
      messageId: outboxAll.id,
      userId: outboxAll.userId,
      campaignId: outboxAll.campaignId,
      campaignContactId: outboxAll.campaignContactId,
      stepId: outboxAll.stepId,
      senderAccountId: outboxAll.senderAccountId,
      links: outboxAll.links,
      sentAt: outboxAll.sentAt,
      humanOpenSeen: sql<boolean>`exists (${options.db
        .select({ one: sql`1` })
        .from(emailEvents)
        .where(
          and(
            eq(emailEvents.outboxMessageId, outboxAll.id),
            eq(emailEvents.type, 'opened'),
            eq(emailEvents.machine, false),
          ),
        )})`,
    })
    .from(outboxAll)
    .where(eq(outboxAll.token, options.token))
    .limit(1);
  if (!row) return null;
  const links = Array.isArray(row.links) ? row.links : [];
  return { ...row, links, redirects: links.map(toRedirectUrl), humanOpenSeen: Boolean(row.humanOpenSeen) };
}

export const TRACKED_MESSAGE_CACHE = { maxEntries: 50_000, ttlMs: 10 * 60_000, negativeTtlMs: 30_000 };

export function createTrackedMessageCache(options: {
  db: Database;
  maxEntries?: number;
  negativeTtlMs?: number;
}): TokenCache<TrackedMessage> {
  return createTokenCache({
    load: (token) => loadTrackedMessage({ db: options.db, token }),
    maxEntries: options.maxEntries ?? TRACKED_MESSAGE_CACHE.maxEntries,
    ttlMs: TRACKED_MESSAGE_CACHE.ttlMs,
    negativeTtlMs: options.negativeTtlMs ?? TRACKED_MESSAGE_CACHE.negativeTtlMs,
  });
}

/** What the routes pass about the request: no Fastify types here, so the service stays testable. */
export interface HitRequest {
  method: string;
  ip: string;
  headers: IncomingHttpHeaders;
}

/**
 * One owner object per cached message, shared by all its hits: no allocation per hit, and the COPY
 * writer caches each owner's id columns as text once (tracking-hits.ts).
 */
const owners = new WeakMap<TrackedMessage, TrackingHit['owner']>();

function ownerOf(message: TrackedMessage): TrackingHit['owner'] {
  let owner = owners.get(message);
  if (owner === undefined) {
    owner = Object.freeze({
      userId: message.userId,
      campaignId: message.campaignId,
      stepId: message.stepId,
      campaignContactId: message.campaignContactId,
      senderAccountId: message.senderAccountId,
    });
    owners.set(message, owner);
  }
  return owner;
}

function buildHit(options: {
  kind: TrackingHitKind;
  message: TrackedMessage;
  request: HitRequest;
  at: Date;
  detail: string | null;
}): TrackingHit {
  const { headers } = options.request;
  const userAgent = headers['user-agent'];
  const verdict = detectMachine({
    kind: options.kind,
    method: options.request.method,
    userAgent,
    ip: options.request.ip,
    purposeHeaders: [headers.purpose, headers['sec-purpose'], headers['x-purpose'], headers['x-moz']],
    sentAt: options.message.sentAt,
    at: options.at,
  });
  const { message } = options;
  return {
    outboxMessageId: message.messageId,
    owner: ownerOf(message),
    type: options.kind === 'open' ? 'opened' : 'clicked',
    occurredAt: options.at,
    detail: options.detail,
    machine: verdict.machine,
    machineReason: verdict.machineReason,
    userAgent: userAgent === undefined ? null : userAgent.slice(0, USER_AGENT_MAX_LENGTH),
    metadata: null,
  };
}

export function recordOpen(options: {
  buffer: TrackingBuffer;
  message: TrackedMessage;
  request: HitRequest;
}): void {
  const hit = buildHit({
    kind: 'open',
    message: options.message,
    request: options.request,
    at: now(),
    detail: null,
  });
  if (!hit.machine) options.message.humanOpenSeen = true;
  options.buffer.push(hit);
}

/**
 * Records a click and answers where to send the person, or null when the index names no usable link.
 * A person's click on a message with no person's open on record also records an open (flagged
 * metadata.inferred): their client blocked images, but they evidently read the message. Only this
 * process's knowledge is used (no query), so on several web nodes an inferred open may rarely be doubled.
 */
export function recordClick(options: {
  buffer: TrackingBuffer;
  message: TrackedMessage;
  linkIndex: number;
  request: HitRequest;
}): string | null {
  const { message } = options;
  const target = message.redirects[options.linkIndex];
  if (target === undefined || target === null) return null;
  const at = now();
  const click = buildHit({
    kind: 'click',
    message,
    request: options.request,
    at,
    detail: message.links[options.linkIndex] ?? target,
  });
  options.buffer.push(click);
  if (!click.machine && !message.humanOpenSeen) {
    message.humanOpenSeen = true;
    options.buffer.push({ ...click, type: 'opened', detail: null, metadata: { inferred: true } });
  }
  return target;
}

// Subscribe forms render their pages like the unsubscribe page, with the same headers.
export { PAGE_STYLESHEET_PATH, publicPage } from './tracking-pages';
export { PAGE_HEADERS } from './tracking-responder';
