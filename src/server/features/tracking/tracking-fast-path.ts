import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastPath } from '@server/lib/http-server';
import type { TrackingAnswer, TrackingResponder } from './tracking-responder';

/*
 * The open pixel and click redirect answered straight on Node's HTTP server, before Fastify.
 *
 * They are the hottest requests the app serves (every open and click of every message), and with the
 * message in the token cache the work is a map lookup and a push into the write buffer. Fastify's
 * per-request machinery (request and reply objects, hooks, route lookup, a child logger, the reply's
 * serialisation) cost more than that: bench/tracking's server CPU per hit fell by about a third without it.
 *
 * The answers come from the same responder the Fastify routes use (tracking-responder.ts), so the two
 * paths cannot differ. Paths this parser does not take as plainly well-formed (percent-encoding, extra
 * segments) and other methods fall through to Fastify, which decodes, routes and answers them.
 */

const OPEN_PREFIX = '/t/o/';
const CLICK_PREFIX = '/t/c/';
const PREFIX_LENGTH = 5;

/*
 * Binary bodies (the pixel) as latin1 strings, made once per buffer: Node writes a string body together
 * with the headers in one write, where a Buffer goes out as a second chunk of a writev.
 */
const latin1Bodies = new WeakMap<Buffer, string>();

function latin1(body: Buffer): string {
  let text = latin1Bodies.get(body);
  if (text === undefined) {
    text = body.toString('latin1');
    latin1Bodies.set(body, text);
  }
  return text;
}

function write(response: ServerResponse, answer: TrackingAnswer): void {
  response.writeHead(answer.status, answer.headers);
  const { body } = answer;
  if (body === null) response.end();
  else if (typeof body === 'string') response.end(body);
  else response.end(latin1(body), 'latin1');
}

function send(response: ServerResponse, answer: TrackingAnswer | Promise<TrackingAnswer>): void {
  if (!(answer instanceof Promise)) {
    write(response, answer);
    return;
  }
  // The responder maps lookup failures to answers; anything else thrown on the way must not become an
  // unhandled rejection (which ends the process) as it would be caught by Fastify on the routes.
  answer.then(
    (settled) => write(response, settled),
    () => {
      if (!response.headersSent) response.writeHead(500, { 'content-length': '0' });
      response.end();
    },
  );
}

export function createTrackingFastPath(options: {
  responder: TrackingResponder;
  /** The client's address as the app sees it (TRUST_PROXY applied), for bot detection. */
  clientIp: (request: IncomingMessage) => string;
}): FastPath {
  const { responder } = options;

  function hitRequest(request: IncomingMessage) {
    return { method: request.method ?? 'GET', ip: options.clientIp(request), headers: request.headers };
  }

  return (request, response) => {
    const { method, url } = request;
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined) return false;
    const isOpen = url.startsWith(OPEN_PREFIX);
    if (!isOpen && !url.startsWith(CLICK_PREFIX)) return false;
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url.slice(PREFIX_LENGTH) : url.slice(PREFIX_LENGTH, queryAt);
    if (path === '' || path.includes('%')) return false;

    const slash = path.indexOf('/');
    if (isOpen) {
      if (slash !== -1) return false;
      send(response, responder.open(path, hitRequest(request)));
      return true;
    }
    if (slash < 1 || slash === path.length - 1 || path.indexOf('/', slash + 1) !== -1) return false;
    send(response, responder.click(path.slice(0, slash), path.slice(slash + 1), hitRequest(request)));
    return true;
  };
}
