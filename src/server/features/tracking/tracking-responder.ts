import type { FastifyBaseLogger } from 'fastify';
import type { TokenCache } from './token-cache';
import {
  type HitRequest,
  isWellFormedToken,
  recordClick,
  recordOpen,
  type TrackedMessage,
} from './tracking.service';
import type { TrackingBuffer } from './tracking-buffer';
import { INVALID_LINK_PAGE, PIXEL_GIF, UNAVAILABLE_PAGE } from './tracking-pages';

/*
 * What the open pixel and the click redirect answer, independent of the HTTP layer: both the raw fast
 * path (tracking-fast-path.ts) and the Fastify routes (tracking.routes.ts) send these answers, so the two
 * cannot drift apart. A message already in the token cache is answered synchronously (no promise: these
 * are the hottest requests of the app); a first hit waits for the lookup, shared with concurrent hits.
 */

export const NO_STORE = 'no-store, no-cache, must-revalidate, private';

/** The security headers the hot routes and recipient pages draw on (they skip helmet: see tracking.routes.ts). */
export const HOT_ROUTE_HEADERS = {
  'x-content-type-options': 'nosniff',
  // The token stays out of any Referer, and the webmail page the link sat on is not passed on either.
  'referrer-policy': 'no-referrer',
} as const;

/**
 * The recipients' pages carry their own strict policy (also on the hot routes, which skip helmet): no
 * script at all, the stylesheet from this host, forms posting only here, never framed.
 */
export const PAGE_HEADERS = {
  ...HOT_ROUTE_HEADERS,
  'content-type': 'text/html; charset=utf-8',
  'cache-control': NO_STORE,
  'content-security-policy':
    "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
} as const;

/** Link numbers in click paths: up to four digits (a message has at most a few hundred links). */
export const LINK_INDEX_SHAPE = /^\d{1,4}$/;

export interface TrackingAnswer {
  status: number;
  /** Complete, content-length included. */
  headers: Readonly<Record<string, string>>;
  body: Buffer | string | null;
}

function pageAnswer(status: number, html: string): TrackingAnswer {
  return {
    status,
    headers: { ...PAGE_HEADERS, 'content-length': String(Buffer.byteLength(html)) },
    body: html,
  };
}

/*
 * The pixel and the redirect carry only what does something for them: every header is parsed by the
 * mail client or proxy and costs the server too, on the app's hottest responses. Left out: Pragma and
 * Expires (HTTP/1.0 caching, which Cache-Control has replaced for every client and proxy that shows
 * mail), Referrer-Policy on the image (an image loads nothing that would send a Referer), and nosniff on
 * the redirect (it has no body to sniff).
 */
const PIXEL_ANSWER: TrackingAnswer = {
  status: 200,
  headers: {
    'x-content-type-options': HOT_ROUTE_HEADERS['x-content-type-options'],
    'content-type': 'image/gif',
    'cache-control': NO_STORE,
    // Webmail shows the image from its own origin; a same-origin policy would block it.
    'cross-origin-resource-policy': 'cross-origin',
    'content-length': String(PIXEL_GIF.length),
  },
  body: PIXEL_GIF,
};
const INVALID_LINK_ANSWER = pageAnswer(404, INVALID_LINK_PAGE);
const UNAVAILABLE_ANSWER = pageAnswer(503, UNAVAILABLE_PAGE);

function redirectAnswer(target: string): TrackingAnswer {
  return {
    status: 302,
    headers: {
      // The token stays out of the Referer the destination sees.
      'referrer-policy': HOT_ROUTE_HEADERS['referrer-policy'],
      'cache-control': NO_STORE,
      location: target,
      'content-length': '0',
    },
    body: null,
  };
}

export interface TrackingResponder {
  /** `file` is the last path segment, `<token>.gif`. Always the pixel, whatever the token. */
  open(file: string, request: HitRequest): TrackingAnswer | Promise<TrackingAnswer>;
  /** A 302 to the message's stored link number `index`, or a page saying the link is not valid. */
  click(token: string, index: string, request: HitRequest): TrackingAnswer | Promise<TrackingAnswer>;
}

export function createTrackingResponder(options: {
  cache: TokenCache<TrackedMessage>;
  buffer: TrackingBuffer;
  log: FastifyBaseLogger;
}): TrackingResponder {
  const { cache, buffer, log } = options;

  function answerOpen(message: TrackedMessage | null, request: HitRequest): TrackingAnswer {
    if (message) recordOpen({ buffer, message, request });
    return PIXEL_ANSWER;
  }

  function answerClick(message: TrackedMessage | null, index: string, request: HitRequest): TrackingAnswer {
    const target = message ? recordClick({ buffer, message, linkIndex: Number(index), request }) : null;
    return target === null ? INVALID_LINK_ANSWER : redirectAnswer(target);
  }

  return {
    open(file, request) {
      const token = file.endsWith('.gif') ? file.slice(0, -4) : '';
      // Looked up before its shape is checked: only well-formed tokens are ever loaded into the cache,
      // so a cached one needs no check. The pattern was a quarter of the responder's time for a cached
      // message (about 250 -> 190 ns a call, open and click alike).
      const cached = cache.peek(token);
      if (cached !== undefined) return answerOpen(cached, request);
      if (!isWellFormedToken(token)) return PIXEL_ANSWER;
      return cache.load(token).then(
        (message) => answerOpen(message, request),
        (error: unknown) => {
          // The image still answers: a database hiccup must not show a broken image in someone's inbox.
          log.error({ err: error }, 'open pixel: message lookup failed');
          return PIXEL_ANSWER;
        },
      );
    },

    click(token, index, request) {
      if (!LINK_INDEX_SHAPE.test(index)) return INVALID_LINK_ANSWER;
      // As for the pixel: a cached token was checked when it was loaded.
      const cached = cache.peek(token);
      if (cached !== undefined) return answerClick(cached, index, request);
      if (!isWellFormedToken(token)) return INVALID_LINK_ANSWER;
      return cache.load(token).then(
        (message) => answerClick(message, index, request),
        (error: unknown) => {
          log.error({ err: error }, 'click: message lookup failed');
          return UNAVAILABLE_ANSWER;
        },
      );
    },
  };
}
