import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import { costOptimizationSchema, costQuerySchema } from '@shared/cost-optimization';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getCostOptimization } from './cost-optimization.service';

/** The admin's Cost Optimization screen (read only; super admins only). */
export async function costOptimizationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, database } = app.services;

  app.get(
    '/api/admin/cost-optimization',
    {
      schema: {
        tags: ['admin'],
        querystring: costQuerySchema,
        response: { 200: costOptimizationSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      await requireRole(request, 'super_admin');
      return getCostOptimization({ db, engine: database.kind, userFilter: request.query.user || undefined });
    },
  );
}
