import { AppError, errorResponses } from '@server/lib/errors';
import { requireRole, requireSession } from '@server/lib/http';
import { messageSchema } from '@shared/auth';
import { uuidParamsSchema } from '@shared/contacts';
import { myAssignmentSchema } from '@shared/data-entry';
import {
  adminDirectoryCountSchema,
  adminDirectoryQuerySchema,
  bulkIdsSchema,
  bulkRecategorizeSchema,
  bulkResultSchema,
  bulkVerifySchema,
  createDirectoryContactSchema,
  dataEntryStatsQuerySchema,
  dataEntryStatsSchema,
  directoryContactPageSchema,
  directoryContactSchema,
  duplicateContactErrorSchema,
  updateDirectoryContactSchema,
  verificationQueueQuerySchema,
  verifyContactSchema,
} from '@shared/directory';
import { directoryStatsSchema } from '@shared/leads';
import {
  recategorizationPreviewSchema,
  recategorizationRuleSchema,
  recategorizationSchema,
} from '@shared/recategorization';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditActor } from '../admin/audit.service';
import { assertWithinAssignment, getMyAssignment } from './data-entry-assignments.service';
import {
  createDirectoryContact,
  getDataEntryStats,
  getDirectoryContact,
  listVerificationQueue,
  updateDirectoryContact,
  verifyDirectoryContact,
} from './directory.service';
import {
  bulkDeleteDirectoryContacts,
  bulkRecategorizeDirectoryContacts,
  bulkRestoreDirectoryContacts,
  bulkVerifyDirectoryContacts,
  countAdminDirectory,
  editDirectoryContactByAdmin,
  requestFacetRebuild,
  searchAdminDirectory,
} from './directory-admin.service';
import { createDirectoryStatsCache } from './directory-stats.service';
import {
  applyRecategorization,
  listRecategorizations,
  previewRecategorization,
  undoRecategorization,
} from './recategorization.service';

/** Data entry officers, and super admins who may do their work too. */
async function requireDirectoryStaff(request: FastifyRequest) {
  const session = await requireSession(request);
  if (session.user.role !== 'data_entry' && session.user.role !== 'super_admin') {
    throw new AppError('forbidden', 'You do not have permission to do that.');
  }
  return session.user;
}

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

export async function directoryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const stats = createDirectoryStatsCache({ db: app.services.db });
  app.services.caches.register({
    name: 'directory-stats',
    description: 'The public directory figures (landing page, pricing), refreshed every 5 minutes',
    ...stats.registryView(),
  });

  // Public: the figures the landing page, /global-database and pricing quote (never copy).
  app.get(
    '/api/public/directory-stats',
    { schema: { tags: ['directory'], response: { 200: directoryStatsSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return stats.get();
    },
  );
  const { db, queue } = app.services;
  const errors = errorResponses(400, 401, 403, 404);
  const params = uuidParamsSchema;

  // --- Data entry -----------------------------------------------------------------------------------
  const tags = ['data-entry'];

  app.post(
    '/api/data-entry/contacts',
    {
      schema: {
        tags,
        body: createDirectoryContactSchema,
        response: { 201: directoryContactSchema, 409: duplicateContactErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await requireDirectoryStaff(request);
      await assertWithinAssignment({ db, userId: user.id, role: user.role ?? 'user', record: request.body });
      reply.code(201);
      return createDirectoryContact({ db, actorId: user.id, fields: request.body });
    },
  );

  app.get(
    '/api/data-entry/contacts/:id',
    { schema: { tags, params, response: { 200: directoryContactSchema, ...errors } } },
    async (request) => {
      await requireDirectoryStaff(request);
      return getDirectoryContact({ db, id: request.params.id });
    },
  );

  app.patch(
    '/api/data-entry/contacts/:id',
    {
      schema: {
        tags,
        params,
        body: updateDirectoryContactSchema,
        response: { 200: directoryContactSchema, 409: duplicateContactErrorSchema, ...errors },
      },
    },
    async (request) => {
      const user = await requireDirectoryStaff(request);
      await assertWithinAssignment({ db, userId: user.id, role: user.role ?? 'user', record: request.body });
      const { after } = await updateDirectoryContact({ db, id: request.params.id, fields: request.body });
      return after;
    },
  );

  app.get(
    '/api/data-entry/assignment',
    { schema: { tags, response: { 200: myAssignmentSchema, ...errors } } },
    async (request) => {
      const user = await requireDirectoryStaff(request);
      return getMyAssignment({ db, userId: user.id });
    },
  );

  app.get(
    '/api/data-entry/queue',
    {
      schema: {
        tags,
        querystring: verificationQueueQuerySchema,
        response: { 200: directoryContactPageSchema, ...errors },
      },
    },
    async (request) => {
      await requireDirectoryStaff(request);
      return listVerificationQueue({ db, ...request.query });
    },
  );

  app.post(
    '/api/data-entry/contacts/:id/verify',
    {
      schema: {
        tags,
        params,
        body: verifyContactSchema,
        response: { 200: directoryContactSchema, ...errors },
      },
    },
    async (request) => {
      const user = await requireDirectoryStaff(request);
      return verifyDirectoryContact({ db, actorId: user.id, id: request.params.id, ...request.body });
    },
  );

  app.get(
    '/api/data-entry/stats',
    {
      schema: {
        tags,
        querystring: dataEntryStatsQuerySchema,
        response: { 200: dataEntryStatsSchema, ...errors },
      },
    },
    async (request) => {
      const user = await requireDirectoryStaff(request);
      return getDataEntryStats({ db, userId: user.id, timeZone: request.query.tz });
    },
  );

  // --- Admin directory ------------------------------------------------------------------------------
  const adminTags = ['admin'];

  app.get(
    '/api/admin/directory',
    {
      schema: {
        tags: adminTags,
        querystring: adminDirectoryQuerySchema,
        response: { 200: directoryContactPageSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return searchAdminDirectory({ db, query: request.query });
    },
  );

  app.get(
    '/api/admin/directory/count',
    {
      schema: {
        tags: adminTags,
        querystring: adminDirectoryQuerySchema,
        response: { 200: adminDirectoryCountSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return countAdminDirectory({ db, query: request.query });
    },
  );

  app.get(
    '/api/admin/directory/:id',
    { schema: { tags: adminTags, params, response: { 200: directoryContactSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return getDirectoryContact({ db, id: request.params.id, includeDeleted: true });
    },
  );

  app.patch(
    '/api/admin/directory/:id',
    {
      schema: {
        tags: adminTags,
        params,
        body: updateDirectoryContactSchema,
        response: { 200: directoryContactSchema, 409: duplicateContactErrorSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return editDirectoryContactByAdmin({ db, actor, id: request.params.id, fields: request.body });
    },
  );

  app.post(
    '/api/admin/directory/bulk-verify',
    { schema: { tags: adminTags, body: bulkVerifySchema, response: { 200: bulkResultSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return bulkVerifyDirectoryContacts({ db, actor, ...request.body });
    },
  );

  app.post(
    '/api/admin/directory/bulk-recategorize',
    {
      schema: {
        tags: adminTags,
        body: bulkRecategorizeSchema,
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return bulkRecategorizeDirectoryContacts({ db, actor, ...request.body });
    },
  );

  app.post(
    '/api/admin/directory/bulk-delete',
    { schema: { tags: adminTags, body: bulkIdsSchema, response: { 200: bulkResultSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return bulkDeleteDirectoryContacts({ db, actor, ids: request.body.ids });
    },
  );

  app.post(
    '/api/admin/directory/bulk-restore',
    { schema: { tags: adminTags, body: bulkIdsSchema, response: { 200: bulkResultSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return bulkRestoreDirectoryContacts({ db, actor, ids: request.body.ids });
    },
  );

  app.post(
    '/api/admin/directory/rebuild-facets',
    { schema: { tags: adminTags, response: { 202: messageSchema, ...errors } } },
    async (request, reply) => {
      const actor = await requireSuperAdmin(request);
      await requestFacetRebuild({ db, actor, queue });
      reply.code(202);
      return { message: 'The audience counts are being recomputed.' };
    },
  );

  // --- Recategorization (/admin/recategorization) ----------------------------------------------------
  const recategorizationErrors = { ...errors, ...errorResponses(409) };
  app.post(
    '/api/admin/recategorizations/preview',
    {
      schema: {
        tags: adminTags,
        body: recategorizationRuleSchema,
        response: { 200: recategorizationPreviewSchema, ...recategorizationErrors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return previewRecategorization({ db, rule: request.body });
    },
  );

  app.get(
    '/api/admin/recategorizations',
    {
      schema: {
        tags: adminTags,
        response: { 200: z.object({ moves: z.array(recategorizationSchema) }), ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return { moves: await listRecategorizations({ db }) };
    },
  );

  app.post(
    '/api/admin/recategorizations',
    {
      schema: {
        tags: adminTags,
        body: recategorizationRuleSchema,
        response: { 201: recategorizationSchema, ...recategorizationErrors },
      },
    },
    async (request, reply) => {
      const actor = await requireSuperAdmin(request);
      reply.code(201);
      return applyRecategorization({ db, actor, rule: request.body });
    },
  );

  app.post(
    '/api/admin/recategorizations/:id/undo',
    {
      schema: {
        tags: adminTags,
        params,
        response: { 200: recategorizationSchema, ...recategorizationErrors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return undoRecategorization({ db, actor, id: request.params.id });
    },
  );
}
