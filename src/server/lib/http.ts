import { MESSAGES } from '@shared/auth';
import type { Role } from '@shared/roles';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE_NAMES } from './auth';
import { AppError } from './errors';

// Kept where it was for the routes; services import it from user-dto.ts, which needs no better-auth.
export { toUserDto } from './user-dto';

/** better-auth reads the client address from this header; we always set it, so a client cannot. */
export const CLIENT_IP_HEADER = 'x-tambari-client-ip';

export function requestHeaders(request: FastifyRequest): Headers {
  const headers = fromNodeHeaders(request.headers);
  // request.ip honours X-Forwarded-For only for the TRUST_PROXY hops the operator configured.
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}

/** Copies better-auth's Set-Cookie headers (session create / clear) onto our reply. */
export function forwardAuthCookies(reply: FastifyReply, headers: Headers | null | undefined): void {
  const cookies = headers?.getSetCookie() ?? [];
  if (cookies.length > 0) reply.header('set-cookie', cookies);
}

/**
 * The signed-in session, looked up once per request, and kept a few seconds by the process for the
 * requests that follow with the same cookie (see session-cache.ts for the bound on a revoked session).
 */
export async function getSession(request: FastifyRequest) {
  if (request.sessionCache === undefined) {
    const { auth, sessions } = request.server.services;
    const cookies = request.cookies ?? {};
    request.sessionCache = await sessions.get(
      SESSION_COOKIE_NAMES.map((name) => cookies[name]),
      () => auth.api.getSession({ headers: requestHeaders(request), query: { disableCookieCache: true } }),
    );
    // The request's later lines name their user (the Logs screen filters by it).
    if (request.sessionCache) request.log = request.log.child({ userId: request.sessionCache.user.id });
  }
  return request.sessionCache;
}

export async function requireSession(request: FastifyRequest) {
  const session = await getSession(request);
  if (!session) throw new AppError('unauthorized', MESSAGES.notAuthenticated);
  if (session.user.banned) throw new AppError('forbidden', MESSAGES.suspended);
  return session;
}

export async function requireRole(request: FastifyRequest, role: Role) {
  const session = await requireSession(request);
  if (session.user.role !== role) throw new AppError('forbidden', 'You do not have permission to do that.');
  return session;
}

/**
 * The request limit of the routes that take an email body (campaign steps, newsletters and bulk emails,
 * templates, the personalisation preview). The app's own (BODY_LIMIT_BYTES, 256 KiB) refused bodies the
 * forms accept and state (2 MB, templates 512 KB) with a bare "request body is too large". 2 MB of text
 * is up to 6 MB as UTF-8 JSON (three bytes a character outside Latin scripts, escaped quotes), plus the
 * rest.
 */
export const EMAIL_BODY_REQUEST_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Route options for a route that takes an email body: the larger limit, and the session (and role)
 * checked before the body is read. Fastify reads, parses and validates a body before the handler runs,
 * so with the check only in the handler anyone without an account could make the server take 8 MB
 * requests (found by review). The session is cached on the request: the handler's own check is free.
 */
export function emailBodyRoute(role?: Role) {
  return {
    bodyLimit: EMAIL_BODY_REQUEST_LIMIT_BYTES,
    onRequest: async (request: FastifyRequest) => {
      if (role) await requireRole(request, role);
      else await requireSession(request);
    },
  };
}
