import { Readable } from 'node:stream';
import { now } from '@server/lib/clock';
import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  adminExtendSubscriptionSchema,
  adminOrderListQuerySchema,
  adminOrderListSchema,
  adminOrderSchema,
  adminRefundSchema,
  adminSubscriptionListQuerySchema,
  adminSubscriptionListSchema,
  subscriptionSchema,
} from '@shared/payments';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditActor } from '../admin/audit.service';
import {
  adminOrdersCsv,
  extendSubscription,
  listAdminOrders,
  listAdminSubscriptions,
  refundOrder,
} from './billing-admin.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

export async function billingAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['admin'];
  const errors = errorResponses(400, 401, 403, 404);
  const exportLimit = { rateLimit: { max: 20, timeWindow: 60_000 } };

  app.get(
    '/api/admin/orders',
    {
      config: exportLimit,
      schema: {
        tags,
        querystring: adminOrderListQuerySchema,
        response: { 200: adminOrderListSchema, ...errors },
      },
    },
    async (request, reply) => {
      await requireSuperAdmin(request);
      if (request.query.format === 'csv') {
        const day = now().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="tambari-orders-${day}.csv"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(adminOrdersCsv({ db, query: request.query })) as never);
      }
      return listAdminOrders({ db, query: request.query });
    },
  );

  app.post(
    '/api/admin/orders/:id/refund',
    {
      schema: {
        tags,
        params: z.object({ id: z.string().min(1).max(100) }),
        body: adminRefundSchema,
        response: { 200: adminOrderSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return refundOrder({ db, actor, id: request.params.id, ...request.body });
    },
  );

  app.get(
    '/api/admin/subscriptions',
    {
      schema: {
        tags,
        querystring: adminSubscriptionListQuerySchema,
        response: { 200: adminSubscriptionListSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listAdminSubscriptions({ db, query: request.query });
    },
  );

  app.post(
    '/api/admin/subscriptions/:userId/extend',
    {
      schema: {
        tags,
        params: z.object({ userId: z.string().min(1).max(100) }),
        body: adminExtendSubscriptionSchema,
        response: { 200: subscriptionSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return extendSubscription({ db, actor, userId: request.params.userId, ...request.body });
    },
  );
}
