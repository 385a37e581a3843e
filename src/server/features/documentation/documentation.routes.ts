import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import { runbookParamsSchema, runbookSchema, runbookSummarySchema } from '@shared/documentation';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getRunbook, listRunbooks } from './documentation.service';

/** /admin/documentation: the operator's runbooks, super admins only. */
export async function documentationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  const errors = errorResponses(400, 401, 403, 404);

  app.get(
    '/api/admin/documentation',
    { schema: { tags, response: { 200: z.array(runbookSummarySchema), ...errors } } },
    async (request) => {
      await requireRole(request, 'super_admin');
      return listRunbooks();
    },
  );

  app.get(
    '/api/admin/documentation/:slug',
    { schema: { tags, params: runbookParamsSchema, response: { 200: runbookSchema, ...errors } } },
    async (request) => {
      await requireRole(request, 'super_admin');
      return getRunbook({ slug: request.params.slug });
    },
  );
}
