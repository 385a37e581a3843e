import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import { messageSchema } from '@shared/auth';
import { uuidParamsSchema } from '@shared/contacts';
import {
  segmentCountResultSchema,
  segmentCountSchema,
  segmentCreateSchema,
  segmentListQuerySchema,
  segmentsSchema,
  segmentUpdateSchema,
  segmentWithCountSchema,
} from '@shared/segments';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  countSegmentRules,
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  updateSegment,
} from './segments.service';

export async function segmentsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['segments'];
  const errors = errorResponses(400, 401, 403, 404, 409);
  const params = uuidParamsSchema;

  app.get(
    '/api/segments',
    { schema: { tags, querystring: segmentListQuerySchema, response: { 200: segmentsSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return { segments: await listSegments({ db, userId: user.id, listId: request.query.listId }) };
    },
  );

  app.post(
    '/api/segments',
    { schema: { tags, body: segmentCreateSchema, response: { 201: segmentWithCountSchema, ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      reply.code(201);
      return createSegment({ db, userId: user.id, input: request.body });
    },
  );

  // Registered before /api/segments/:id so "count" is never read as an id.
  app.post(
    '/api/segments/count',
    { schema: { tags, body: segmentCountSchema, response: { 200: segmentCountResultSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return countSegmentRules({ db, userId: user.id, ...request.body });
    },
  );

  app.get(
    '/api/segments/:id',
    { schema: { tags, params, response: { 200: segmentWithCountSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getSegment({ db, userId: user.id, id: request.params.id });
    },
  );

  app.patch(
    '/api/segments/:id',
    {
      schema: {
        tags,
        params,
        body: segmentUpdateSchema,
        response: { 200: segmentWithCountSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return updateSegment({ db, userId: user.id, id: request.params.id, input: request.body });
    },
  );

  app.delete(
    '/api/segments/:id',
    { schema: { tags, params, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      await deleteSegment({ db, userId: user.id, id: request.params.id });
      return { message: 'The segment was deleted.' };
    },
  );
}
