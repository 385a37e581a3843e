import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import { listVerificationSchema } from '@shared/verification';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getListVerification, startListVerification } from './verification.service';

/** "Verify list": start a run and follow it (the list's owner only; another user's list is a 404). */
export async function verificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, queue } = app.services;
  const params = z.object({ id: z.uuid() });
  const errors = errorResponses(400, 401, 404, 409);
  const tags = ['lists'];

  app.get(
    '/api/lists/:id/verification',
    { schema: { tags, params, response: { 200: listVerificationSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getListVerification({ db, userId: user.id, listId: request.params.id });
    },
  );

  app.post(
    '/api/lists/:id/verify',
    { schema: { tags, params, response: { 202: listVerificationSchema, ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      reply.code(202);
      return startListVerification({ db, queue, userId: user.id, listId: request.params.id });
    },
  );
}
