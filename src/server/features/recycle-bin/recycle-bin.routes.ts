import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import { messageSchema } from '@shared/auth';
import { recycleBinItemParamsSchema, recycleBinListSchema, recycleBinQuerySchema } from '@shared/recycle-bin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuditActor } from '../admin/audit.service';
import { listRecycleBin, purgeRecycleBinItem, restoreRecycleBinItem } from './recycle-bin.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

/** The admin Recycle Bin: list, restore, purge (super admins only; changes audited). */
export async function recycleBinRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['admin'];
  const errors = errorResponses(400, 401, 403, 404, 409);

  app.get(
    '/api/admin/recycle-bin',
    {
      schema: {
        tags,
        querystring: recycleBinQuerySchema,
        response: { 200: recycleBinListSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listRecycleBin({ db, query: request.query });
    },
  );

  app.post(
    '/api/admin/recycle-bin/:type/:id/restore',
    { schema: { tags, params: recycleBinItemParamsSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const { name } = await restoreRecycleBinItem({ db, actor, ...request.params });
      return { message: `“${name}” was restored.` };
    },
  );

  app.delete(
    '/api/admin/recycle-bin/:type/:id',
    { schema: { tags, params: recycleBinItemParamsSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const { name } = await purgeRecycleBinItem({ db, actor, ...request.params });
      return { message: `“${name}” was deleted for good.` };
    },
  );
}
