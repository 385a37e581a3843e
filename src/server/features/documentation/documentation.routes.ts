import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '../../../shared/auth';
import { runbookParamsSchema, runbookSchema, runbookSummarySchema } from '../../../shared/documentation';
import { requireRole } from '../../lib/http';
import { getRunbook, listRunbooks } from './documentation.service';

/** /admin/documentation: the operator's runbooks, super admins only. */
export async function documentationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

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
