import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  adminOverviewSchema,
  adminSuspendSchema,
  adminUpdateUserSchema,
  adminUserListQuerySchema,
  adminUserListSchema,
  adminUserSchema,
  auditEntrySchema,
  clearSignInFailuresSchema,
  signInFailureListQuerySchema,
  signInFailureListSchema,
} from '@shared/admin';
import { messageSchema } from '@shared/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listSignInFailures } from '../auth/account-throttles.service';
import {
  clearSignInLock,
  endUserSessions,
  getAdminOverview,
  getAdminUserById,
  listAdminUsers,
  restoreUser,
  type StopSendingOfUser,
  suspendUser,
  updateUserByAdmin,
} from './admin.service';
import type { AuditActor } from './audit.service';
import { listAuditEntries } from './audit.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

export interface AdminRoutesOptions {
  /** A suspension's stop of the user's sending (admin.service.ts StopSendingOfUser). */
  stopSending: StopSendingOfUser;
}

export async function adminRoutes(fastify: FastifyInstance, options: AdminRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['admin'];
  const idParams = z.object({ id: z.string().min(1).max(100) });
  const errors = errorResponses(400, 401, 403, 404);

  app.get(
    '/api/admin/overview',
    { schema: { tags, response: { 200: adminOverviewSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return getAdminOverview({ db });
    },
  );

  app.get(
    '/api/admin/users',
    {
      schema: {
        tags,
        querystring: adminUserListQuerySchema,
        response: { 200: adminUserListSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listAdminUsers({ db, query: request.query });
    },
  );

  app.get(
    '/api/admin/users/:id',
    { schema: { tags, params: idParams, response: { 200: adminUserSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return getAdminUserById({ db, id: request.params.id });
    },
  );

  app.patch(
    '/api/admin/users/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: adminUpdateUserSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return updateUserByAdmin({ db, actor, id: request.params.id, ...request.body });
    },
  );

  app.post(
    '/api/admin/users/:id/suspend',
    {
      schema: {
        tags,
        params: idParams,
        body: adminSuspendSchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return suspendUser({
        db,
        actor,
        id: request.params.id,
        reason: request.body.reason,
        stopSending: options.stopSending,
      });
    },
  );

  app.post(
    '/api/admin/users/:id/restore',
    { schema: { tags, params: idParams, response: { 200: adminUserSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return restoreUser({ db, actor, id: request.params.id });
    },
  );

  app.post(
    '/api/admin/users/:id/end-sessions',
    { schema: { tags, params: idParams, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const ended = await endUserSessions({ db, actor, id: request.params.id });
      return { message: `Ended ${ended} session${ended === 1 ? '' : 's'}.` };
    },
  );

  // Failed sign-ins and lockouts per address (auth/account-throttles.service.ts). Reads are not audited,
  // like the other admin lists; lifting a lock is.
  app.get(
    '/api/admin/security/sign-in-failures',
    {
      schema: {
        tags,
        querystring: signInFailureListQuerySchema,
        response: { 200: signInFailureListSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listSignInFailures({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/security/sign-in-failures/clear',
    { schema: { tags, body: clearSignInFailuresSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      await clearSignInLock({ db, actor, email: request.body.email });
      return { message: 'Failed sign-ins for this address cleared.' };
    },
  );

  app.get(
    '/api/admin/audit-log',
    {
      schema: {
        tags,
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          pageSize: z.coerce.number().int().min(1).max(100).default(25),
        }),
        response: {
          200: z.object({
            entries: z.array(auditEntrySchema),
            total: z.number(),
            page: z.number(),
            pageSize: z.number(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listAuditEntries({ db, ...request.query });
    },
  );
}
