import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import { databaseDownloadRequestSchema, databaseDownloadSummarySchema } from '@shared/database-download';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getDownloadSummary, startDownload } from './database-download.service';

export async function databaseDownloadRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env } = app.services;
  const tags = ['database-download'];

  app.get(
    '/api/database-download',
    { schema: { tags, response: { 200: databaseDownloadSummarySchema, ...errorResponses(401, 404) } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getDownloadSummary({ db, userId: user.id });
    },
  );

  app.post(
    '/api/database-download',
    {
      // A download reads the directory like a lead search does: the same per-minute limit.
      config: { rateLimit: { max: env.LEADS_RATE_LIMIT_MAX, timeWindow: 60_000 } },
      // No response schema: the body is a CSV stream (errors still use the usual JSON shape).
      schema: { tags, body: databaseDownloadRequestSchema },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const { fileName, rowCount, stream } = await startDownload({
        db,
        userId: user.id,
        actor: { id: user.id, email: user.email, ipAddress: request.ip },
        input: request.body,
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('x-row-count', String(rowCount))
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}
