import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  PAGE_VIEW_BEACON_PATH,
  pageViewBeaconSchema,
  trafficQuerySchema,
  websiteTrafficSchema,
} from '@shared/site-traffic';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getWebsiteTraffic, recordPageView } from './site-traffic.service';

/** A beacon is a path and a referrer: anything much larger is not one. */
const BEACON_BODY_LIMIT_BYTES = 4096;
/** Per address: a person reading the site sends a few a minute; a script sending more is cut off. */
const BEACON_RATE_LIMIT = { max: 60, timeWindow: 60_000 };

/** The public site's page-view beacon (no session, no cookie) and the admin's Website Traffic screen. */
export async function siteTrafficRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env } = app.services;
  const appHost = new URL(env.APP_URL).hostname;

  app.post(
    PAGE_VIEW_BEACON_PATH,
    {
      bodyLimit: BEACON_BODY_LIMIT_BYTES,
      config: { rateLimit: BEACON_RATE_LIMIT },
      schema: {
        tags: ['traffic'],
        body: pageViewBeaconSchema,
        response: { 204: z.null(), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      // The answer is the same whether the view was counted, a bot's, or opted out: nothing to learn.
      await recordPageView({
        db,
        beacon: request.body,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        headers: request.headers,
        ownHosts: [appHost, request.hostname],
      });
      reply.header('cache-control', 'no-store');
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/admin/website-traffic',
    {
      schema: {
        tags: ['admin'],
        querystring: trafficQuerySchema,
        response: { 200: websiteTrafficSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      await requireRole(request, 'super_admin');
      return getWebsiteTraffic({ db, range: request.query.range });
    },
  );
}
