import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isWellFormedToken } from './tracking.service';
import {
  INVALID_UNSUBSCRIBE_PAGE,
  PAGE_CSS,
  PAGE_STYLESHEET_PATH,
  renderUnsubscribeConfirmPage,
  renderUnsubscribedPage,
  UNAVAILABLE_PAGE,
} from './tracking-pages';
import { PAGE_HEADERS, type TrackingAnswer } from './tracking-responder';
import { getUnsubscribeView, type UnsubscribeView, unsubscribeByToken } from './unsubscribe.service';

/*
 * The public endpoints every sent message points at (no sign-in): the open pixel, click redirects and
 * the unsubscribe page. The token is the message's opaque public id; nothing from the request decides a
 * redirect target.
 */

/**
 * The unsubscribe POST comes from mail providers' servers (RFC 8058 one-click: no cookies, no Origin) and
 * from the confirm page, possibly on a custom tracking domain. The app's Origin check lets exactly this
 * through; it changes nothing but the token's own recipient, so there is nothing to forge.
 */
export function isUnsubscribePost(method: string, url: string): boolean {
  return method === 'POST' && /^\/u\/[^/?#]+(?:\?|$)/.test(url);
}

/*
 * Pixel and click are the hottest routes of the app (every open and click of every message). Most hits
 * are answered before Fastify (tracking-fast-path.ts) with the same responder; these routes serve the
 * rest (and inject() in tests) and skip what only pages need:
 * - helmet: its dozen headers (CSP, HSTS, frame options…) protect documents; a GIF and a redirect need
 *   only the two the responder sets, and computing and writing the rest cost more than the route itself.
 * - request logging: at info level each request writes two log lines; warnings and errors still do.
 */
const HOT_ROUTE_OPTIONS = { logLevel: 'warn', helmet: false } as const;

const UNSUBSCRIBE_BODY_LIMIT = 16 * 1024;

function sendAnswer(reply: FastifyReply, answer: TrackingAnswer): FastifyReply {
  reply.code(answer.status).headers(answer.headers);
  return answer.body === null ? reply.send() : reply.send(answer.body);
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(html);
}

export async function trackingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, trackingResponder: responder } = app.services;
  const tags = ['public-tracking'];

  // RFC 8058 allows multipart/form-data or x-www-form-urlencoded; the body's content never changes what
  // happens (the token does), so any body is read as text (bounded) and only glanced at.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: UNSUBSCRIBE_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/t/o/:file',
    {
      ...HOT_ROUTE_OPTIONS,
      schema: {
        tags,
        summary: 'Open pixel: a 1×1 transparent GIF for <token>.gif, whatever the token; records an open',
        params: z.object({ file: z.string() }),
      },
    },
    async (request, reply) => sendAnswer(reply, await responder.open(request.params.file, request)),
  );

  app.get(
    '/t/c/:token/:index',
    {
      ...HOT_ROUTE_OPTIONS,
      schema: {
        tags,
        summary: "Click redirect: 302 to the message's stored link number <index>; records a click",
        params: z.object({ token: z.string(), index: z.string() }),
      },
    },
    async (request, reply) => {
      const { token, index } = request.params;
      return sendAnswer(reply, await responder.click(token, index, request));
    },
  );

  app.get(
    PAGE_STYLESHEET_PATH,
    { schema: { tags, summary: 'Stylesheet of the unsubscribe and link pages' } },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=86400')
        .send(PAGE_CSS),
  );

  const unsubscribeParams = z.object({ token: z.string() });

  app.get(
    '/u/:token',
    {
      schema: {
        tags,
        summary: 'Unsubscribe confirm page (changes nothing; mail scanners may open it freely)',
        params: unsubscribeParams,
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      if (!isWellFormedToken(token)) return sendPage(reply, 404, INVALID_UNSUBSCRIBE_PAGE);
      let view: UnsubscribeView | null;
      try {
        view = await getUnsubscribeView({ db, token });
      } catch (error) {
        request.log.error({ err: error }, 'unsubscribe page: lookup failed');
        return sendPage(reply, 503, UNAVAILABLE_PAGE);
      }
      if (!view) return sendPage(reply, 404, INVALID_UNSUBSCRIBE_PAGE);
      return sendPage(reply, 200, renderUnsubscribeConfirmPage({ view, actionPath: `/u/${token}` }));
    },
  );

  app.post(
    '/u/:token',
    {
      schema: {
        tags,
        summary:
          'Unsubscribe: RFC 8058 one-click (List-Unsubscribe=One-Click) or the confirm page; idempotent, no sign-in',
        params: unsubscribeParams,
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      if (!isWellFormedToken(token)) return sendPage(reply, 404, INVALID_UNSUBSCRIBE_PAGE);
      const body = typeof request.body === 'string' ? request.body : '';
      let result: Awaited<ReturnType<typeof unsubscribeByToken>>;
      try {
        result = await unsubscribeByToken({
          db,
          token,
          via: body.includes('One-Click') ? 'one_click' : 'page',
          userAgent: request.headers['user-agent'],
        });
      } catch (error) {
        // Nothing was written (one transaction); a 5xx tells a mail provider to try again later.
        request.log.error({ err: error }, 'unsubscribe failed');
        return sendPage(reply, 503, UNAVAILABLE_PAGE);
      }
      if (!result) return sendPage(reply, 404, INVALID_UNSUBSCRIBE_PAGE);
      if (result.changed) request.log.info('recipient unsubscribed');
      return sendPage(reply, 200, renderUnsubscribedPage(result.view));
    },
  );
}
