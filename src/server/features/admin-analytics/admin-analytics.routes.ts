import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  businessAnalyticsSchema,
  businessRangeQuerySchema,
  databaseMonitorSchema,
  systemAnalyticsSchema,
  systemRangeQuerySchema,
} from '@shared/admin-analytics';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getBusinessAnalytics } from './business-analytics.service';
import { getDatabaseMonitor } from './database-monitor.service';
import { getSystemAnalytics } from './system-analytics.service';

/** System Analytics, Analytics and the Database Monitor (issue #15): read-only, super admins only. */
export async function adminAnalyticsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, database } = app.services;
  const tags = ['admin'];
  const errors = errorResponses(400, 401, 403);

  app.get(
    '/api/admin/system-analytics',
    {
      schema: {
        tags,
        querystring: systemRangeQuerySchema,
        response: { 200: systemAnalyticsSchema, ...errors },
      },
    },
    async (request) => {
      await requireRole(request, 'super_admin');
      return getSystemAnalytics({ db, range: request.query.range });
    },
  );

  app.get(
    '/api/admin/analytics',
    {
      schema: {
        tags,
        querystring: businessRangeQuerySchema,
        response: { 200: businessAnalyticsSchema, ...errors },
      },
    },
    async (request) => {
      await requireRole(request, 'super_admin');
      return getBusinessAnalytics({ db, range: request.query.range });
    },
  );

  app.get(
    '/api/admin/database-monitor',
    { schema: { tags, response: { 200: databaseMonitorSchema, ...errors } } },
    async (request) => {
      await requireRole(request, 'super_admin');
      return getDatabaseMonitor({ db, engine: database.kind });
    },
  );
}
