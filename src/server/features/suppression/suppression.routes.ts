import { errorResponses } from '@server/lib/errors';
import { requireRole, requireSession } from '@server/lib/http';
import { messageSchema } from '@shared/auth';
import { uuidParamsSchema } from '@shared/contacts';
import {
  addSuppressionsResultSchema,
  addSuppressionsSchema,
  checkSuppressionsResultSchema,
  checkSuppressionsSchema,
  suppressionListQuerySchema,
  suppressionPageSchema,
} from '@shared/suppression';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import {
  addSuppressions,
  filterSuppressed,
  listSuppressions,
  removeSuppression,
} from './suppression.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

export async function suppressionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['suppressions'];
  const errors = errorResponses(400, 401, 403, 404);

  app.get(
    '/api/suppressions',
    {
      schema: {
        tags,
        querystring: suppressionListQuerySchema,
        response: { 200: suppressionPageSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listSuppressions({ db, userId: user.id, ...request.query });
    },
  );

  app.post(
    '/api/suppressions',
    {
      schema: {
        tags,
        body: addSuppressionsSchema,
        response: { 200: addSuppressionsResultSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      const { emails, reason, note } = request.body;
      return addSuppressions({
        db,
        userId: user.id,
        entries: emails.map((email) => ({ email, reason, note })),
        source: 'manual',
      });
    },
  );

  app.post(
    '/api/suppressions/check',
    {
      schema: {
        tags,
        body: checkSuppressionsSchema,
        response: { 200: checkSuppressionsResultSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      const suppressed = await filterSuppressed({ db, userId: user.id, emails: request.body.emails });
      return { suppressed: [...suppressed] };
    },
  );

  app.delete(
    '/api/suppressions/:id',
    { schema: { tags, params: uuidParamsSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      await removeSuppression({ db, userId: user.id, id: request.params.id });
      return { message: 'The address can be mailed again.' };
    },
  );

  // Platform-wide entries (user_id null): every user's sends skip them.
  app.get(
    '/api/admin/suppressions',
    {
      schema: {
        tags: ['admin'],
        querystring: suppressionListQuerySchema,
        response: { 200: suppressionPageSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listSuppressions({ db, userId: null, ...request.query });
    },
  );

  app.post(
    '/api/admin/suppressions',
    {
      schema: {
        tags: ['admin'],
        body: addSuppressionsSchema,
        response: { 200: addSuppressionsResultSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const { emails, reason, note } = request.body;
      const result = await addSuppressions({
        db,
        userId: null,
        entries: emails.map((email) => ({ email, reason, note })),
        source: 'admin',
      });
      await recordAuditEntry({
        db,
        actor,
        action: 'suppressions.add',
        targetType: 'suppression',
        details: { reason, added: result.added, alreadySuppressed: result.alreadySuppressed },
      });
      return result;
    },
  );

  app.delete(
    '/api/admin/suppressions/:id',
    { schema: { tags: ['admin'], params: uuidParamsSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const removed = await removeSuppression({ db, userId: null, id: request.params.id });
      await recordAuditEntry({
        db,
        actor,
        action: 'suppressions.remove',
        targetType: 'suppression',
        targetId: removed.id,
        details: { emailHint: removed.emailHint, reason: removed.reason },
      });
      return { message: 'The platform-wide suppression was removed.' };
    },
  );
}
