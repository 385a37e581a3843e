import { AppError, errorResponses } from '@server/lib/errors';
import { requireRole, requireSession } from '@server/lib/http';
import {
  acceptScrapeResultSchema,
  createScrapeJobSchema,
  scrapeJobDetailSchema,
  scrapeJobListSchema,
  scrapeJobSchema,
  scrapeResultPageSchema,
  scrapeResultQuerySchema,
  scrapeResultSchema,
} from '@shared/scraper';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditActor } from '../admin/audit.service';
import {
  acceptScrapeResult,
  changeScrapeJobState,
  createScrapeJob,
  getScrapeJobDetail,
  listScrapeJobs,
  listScrapeResults,
  rejectScrapeResult,
} from './scraper.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

/** Data entry officers review what the crawls found; super admins may too. */
async function requireReviewer(request: FastifyRequest) {
  const session = await requireSession(request);
  if (session.user.role !== 'data_entry' && session.user.role !== 'super_admin') {
    throw new AppError('forbidden', 'You do not have permission to do that.');
  }
  return session.user;
}

/** The scraper (/admin/scraper) and its review queue (/data-entry). */
export async function scraperRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, queue, env } = app.services;
  const errors = errorResponses(400, 401, 403, 404, 409);
  const params = z.object({ id: z.uuid() });
  const adminTags = ['admin'];

  app.get(
    '/api/admin/scraper/jobs',
    { schema: { tags: adminTags, response: { 200: scrapeJobListSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return { jobs: await listScrapeJobs({ db }) };
    },
  );

  app.post(
    '/api/admin/scraper/jobs',
    {
      schema: { tags: adminTags, body: createScrapeJobSchema, response: { 201: scrapeJobSchema, ...errors } },
    },
    async (request, reply) => {
      const actor = await requireSuperAdmin(request);
      const job = await createScrapeJob({
        db,
        queue,
        network: env.SCRAPER_NETWORK,
        actor,
        input: request.body,
      });
      reply.code(201);
      return job;
    },
  );

  app.get(
    '/api/admin/scraper/jobs/:id',
    { schema: { tags: adminTags, params, response: { 200: scrapeJobDetailSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return getScrapeJobDetail({ db, id: request.params.id });
    },
  );

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    app.post(
      `/api/admin/scraper/jobs/:id/${action}`,
      { schema: { tags: adminTags, params, response: { 200: scrapeJobSchema, ...errors } } },
      async (request) => {
        const actor = await requireSuperAdmin(request);
        return changeScrapeJobState({ db, queue, actor, id: request.params.id, action });
      },
    );
  }

  const reviewTags = ['data-entry'];
  app.get(
    '/api/scraper/results',
    {
      schema: {
        tags: reviewTags,
        querystring: scrapeResultQuerySchema,
        response: { 200: scrapeResultPageSchema, ...errors },
      },
    },
    async (request) => {
      await requireReviewer(request);
      return listScrapeResults({ db, query: request.query });
    },
  );

  app.post(
    '/api/scraper/results/:id/accept',
    {
      schema: {
        tags: reviewTags,
        params,
        body: acceptScrapeResultSchema,
        response: { 200: scrapeResultSchema, ...errors },
      },
    },
    async (request) => {
      const user = await requireReviewer(request);
      return acceptScrapeResult({ db, reviewerId: user.id, id: request.params.id, edits: request.body });
    },
  );

  app.post(
    '/api/scraper/results/:id/reject',
    { schema: { tags: reviewTags, params, response: { 200: scrapeResultSchema, ...errors } } },
    async (request) => {
      const user = await requireReviewer(request);
      return rejectScrapeResult({ db, reviewerId: user.id, id: request.params.id });
    },
  );
}
