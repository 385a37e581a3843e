import { AppError, errorResponses } from '@server/lib/errors';
import { getSession, requireRole } from '@server/lib/http';
import {
  CONTACT_MESSAGES,
  contactMessageInputSchema,
  contactMessageListQuerySchema,
  contactMessageListSchema,
  contactMessageSchema,
  contactMessageSentSchema,
  contactMessageUpdateSchema,
} from '@shared/support';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listContactMessages, setContactMessageStatus, submitContactMessage } from './support.service';

/** The public contact form, and the super admins' inbox of its messages. */
export async function supportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env, mailer } = app.services;

  app.post(
    '/api/public/contact-messages',
    {
      config: {
        rateLimit: {
          max: env.CONTACT_RATE_LIMIT_MAX,
          timeWindow: 60 * 60_000,
          // The plugin writes statusCode onto what it throws; AppError only reads it, so give it a slot.
          errorResponseBuilder: () =>
            Object.defineProperty(new AppError('rate_limited', CONTACT_MESSAGES.rateLimited), 'statusCode', {
              value: 429,
              writable: true,
            }),
        },
      },
      schema: {
        tags: ['support'],
        body: contactMessageInputSchema,
        response: { 201: contactMessageSentSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const session = await getSession(request);
      await submitContactMessage({
        db,
        mailer,
        log: request.log,
        input: request.body,
        userId: session?.user.id ?? null,
        ipAddress: request.ip,
      });
      reply.code(201);
      return { message: CONTACT_MESSAGES.sent };
    },
  );

  const errors = errorResponses(400, 401, 403, 404);

  app.get(
    '/api/admin/contact-messages',
    {
      schema: {
        tags: ['admin'],
        querystring: contactMessageListQuerySchema,
        response: { 200: contactMessageListSchema, ...errors },
      },
    },
    async (request) => {
      await requireRole(request, 'super_admin');
      return listContactMessages({ db, status: request.query.status });
    },
  );

  app.patch(
    '/api/admin/contact-messages/:id',
    {
      schema: {
        tags: ['admin'],
        params: z.object({ id: z.uuid('No such message') }),
        body: contactMessageUpdateSchema,
        response: { 200: contactMessageSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireRole(request, 'super_admin');
      return setContactMessageStatus({
        db,
        actor: { id: user.id, email: user.email, ipAddress: request.ip },
        id: request.params.id,
        status: request.body.status,
      });
    },
  );
}
