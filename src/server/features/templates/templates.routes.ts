import { errorResponses } from '@server/lib/errors';
import { emailBodyRoute, requireRole, requireSession } from '@server/lib/http';
import {
  adminTemplateInputSchema,
  adminTemplateUpdateSchema,
  publicTemplateListQuerySchema,
  templateIdParamsSchema,
  templateInputSchema,
  templateListQuerySchema,
  templateListSchema,
  templateSchema,
  templateUpdateSchema,
} from '@shared/templates';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditActor } from '../admin/audit.service';
import {
  createLibraryTemplate,
  createUserTemplate,
  deleteLibraryTemplate,
  deleteUserTemplate,
  getPublicTemplate,
  getTemplateForUser,
  listLibraryTemplates,
  listPublicTemplates,
  listTemplates,
  updateLibraryTemplate,
  updateUserTemplate,
} from './templates.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

export async function templatesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['templates'];
  const errors = errorResponses(400, 401, 403, 404, 409);
  const params = templateIdParamsSchema;

  app.get(
    '/api/templates',
    {
      schema: {
        tags,
        querystring: templateListQuerySchema,
        response: { 200: templateListSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      const { scope, ...filters } = request.query;
      return listTemplates({ db, userId: user.id, scope, filters });
    },
  );

  app.get(
    '/api/templates/:id',
    { schema: { tags, params, response: { 200: templateSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getTemplateForUser({ db, userId: user.id, id: request.params.id });
    },
  );

  app.post(
    '/api/templates',
    {
      ...emailBodyRoute(),
      schema: { tags, body: templateInputSchema, response: { 201: templateSchema, ...errors } },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      reply.code(201);
      return createUserTemplate({ db, userId: user.id, input: request.body });
    },
  );

  app.patch(
    '/api/templates/:id',
    {
      ...emailBodyRoute(),
      schema: { tags, params, body: templateUpdateSchema, response: { 200: templateSchema, ...errors } },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return updateUserTemplate({ db, userId: user.id, id: request.params.id, changes: request.body });
    },
  );

  app.delete(
    '/api/templates/:id',
    { schema: { tags, params, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      await deleteUserTemplate({ db, userId: user.id, id: request.params.id });
      return reply.code(204).send(null);
    },
  );

  // Public, no sign-in: the published library only.
  app.get(
    '/api/public/templates',
    {
      schema: {
        tags,
        querystring: publicTemplateListQuerySchema,
        response: { 200: templateListSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return listPublicTemplates({ db, filters: request.query });
    },
  );

  app.get(
    '/api/public/templates/:id',
    { schema: { tags, params, response: { 200: templateSchema, ...errorResponses(400, 404) } } },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return getPublicTemplate({ db, id: request.params.id });
    },
  );

  // Super admins manage the library (every change is audited).
  app.get(
    '/api/admin/templates',
    {
      schema: {
        tags,
        querystring: publicTemplateListQuerySchema,
        response: { 200: templateListSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listLibraryTemplates({ db, filters: request.query });
    },
  );

  app.post(
    '/api/admin/templates',
    {
      ...emailBodyRoute('super_admin'),
      schema: { tags, body: adminTemplateInputSchema, response: { 201: templateSchema, ...errors } },
    },
    async (request, reply) => {
      const actor = await requireSuperAdmin(request);
      reply.code(201);
      return createLibraryTemplate({ db, actor, input: request.body });
    },
  );

  app.patch(
    '/api/admin/templates/:id',
    {
      ...emailBodyRoute('super_admin'),
      schema: { tags, params, body: adminTemplateUpdateSchema, response: { 200: templateSchema, ...errors } },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return updateLibraryTemplate({ db, actor, id: request.params.id, changes: request.body });
    },
  );

  app.delete(
    '/api/admin/templates/:id',
    { schema: { tags, params, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const actor = await requireSuperAdmin(request);
      await deleteLibraryTemplate({ db, actor, id: request.params.id });
      return reply.code(204).send(null);
    },
  );
}
