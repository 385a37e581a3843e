import http, { type IncomingMessage, type ServerResponse } from 'node:http';

/** Answers a request itself and returns true, or returns false having touched nothing. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/** Fastify's own defaults for the server it would otherwise create (fastify/lib/server.js). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * The app's HTTP server, for Fastify's `serverFactory`: each request is first offered to the fast path
 * (installed once the services exist, hence a getter), then handed to Fastify. Lets the open pixel and
 * click redirect skip the framework (see features/tracking/tracking-fast-path.ts).
 */
export function createHttpServerWithFastPath(
  fastifyHandler: (request: IncomingMessage, response: ServerResponse) => void,
  fastPath: () => FastPath | null,
): http.Server {
  const server = http.createServer((request, response) => {
    const handle = fastPath();
    if (handle?.(request, response)) return;
    fastifyHandler(request, response);
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return server;
}
