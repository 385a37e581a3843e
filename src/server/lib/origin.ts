import type { FastifyRequest } from 'fastify';

/**
 * Same-origin when the Origin (or, lacking it, the Referer) names this host or a trusted origin.
 * Requests with neither come from non-browser clients, which carry no ambient cookies to abuse.
 */
export function isAllowedOrigin(request: FastifyRequest, trustedOrigins: string[]): boolean {
  const source = request.headers.origin ?? refererOrigin(request.headers.referer);
  if (!source) return true;
  if (source === 'null') return false;
  let origin: URL;
  try {
    origin = new URL(source);
  } catch {
    return false;
  }
  if (trustedOrigins.includes(origin.origin)) return true;
  return origin.host === request.headers.host;
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}
