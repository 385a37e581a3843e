import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import { analyticsQuerySchema, analyticsSchema } from '@shared/analytics';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getAnalytics } from './analytics.service';

/** The subscriber's analytics page (/analytics): the caller's own numbers only. */
export async function analyticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  // Deals recorded in USD, ZAR… are reported in naira; the rates are fetched only when such a deal exists.
  const rates = app.services.currencyRates;

  app.get(
    '/api/analytics',
    {
      // A grouped read over up to 90 days of events: cheap for one page view, not for a loop.
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: {
        tags: ['analytics'],
        querystring: analyticsQuerySchema,
        response: { 200: analyticsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return getAnalytics({
        db,
        user,
        days: request.query.days,
        campaignId: request.query.campaignId,
        loadRates: async () => (await rates.getRates()).rates,
      });
    },
  );
}
