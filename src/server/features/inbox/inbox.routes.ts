import { errorResponses } from '@server/lib/errors';
import { getSession, requireSession } from '@server/lib/http';
import {
  INBOX_CATEGORIES,
  inboxCountsSchema,
  inboxFiltersSchema,
  inboxIdParamsSchema,
  inboxItemSchema,
  inboxPageSchema,
  inboxQuerySchema,
  inboxReplyInputSchema,
  inboxThreadSchema,
  inboxUpdateSchema,
  threadEntrySchema,
} from '@shared/inbox';
import { senderSignatureSchema } from '@shared/sending';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAiProvider } from '../ai/ai.service';
import {
  getInboxCounts,
  getInboxFilters,
  getInboxThread,
  listInbox,
  setAccountSignature,
  updateInboxMessage,
} from './inbox.service';
import { sendInboxReply } from './inbox-reply';
import { suggestInboxCategory } from './inbox-suggest';

export async function inboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env, secrets } = app.services;
  const tags = ['inbox'];
  const errors = errorResponses(400, 401, 403, 404);
  const perUser = (max: number) => ({
    rateLimit: {
      max,
      timeWindow: 60_000,
      keyGenerator: async (request: FastifyRequest) => (await getSession(request))?.user.id ?? request.ip,
    },
  });

  app.get(
    '/api/inbox',
    { schema: { tags, querystring: inboxQuerySchema, response: { 200: inboxPageSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return listInbox({ db, userId: user.id, query: request.query });
    },
  );

  app.get(
    '/api/inbox/counts',
    { schema: { tags, response: { 200: inboxCountsSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getInboxCounts({ db, userId: user.id });
    },
  );

  app.get(
    '/api/inbox/filters',
    { schema: { tags, response: { 200: inboxFiltersSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getInboxFilters({ db, userId: user.id });
    },
  );

  app.get(
    '/api/inbox/:id',
    { schema: { tags, params: inboxIdParamsSchema, response: { 200: inboxThreadSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getInboxThread({ db, userId: user.id, id: request.params.id });
    },
  );

  app.patch(
    '/api/inbox/:id',
    {
      schema: {
        tags,
        params: inboxIdParamsSchema,
        body: inboxUpdateSchema,
        response: { 200: inboxItemSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return updateInboxMessage({ db, userId: user.id, id: request.params.id, update: request.body });
    },
  );

  app.post(
    '/api/inbox/:id/reply',
    {
      config: perUser(30),
      schema: {
        tags,
        params: inboxIdParamsSchema,
        body: inboxReplyInputSchema,
        response: { 201: threadEntrySchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const entry = await sendInboxReply({
        db,
        userId: user.id,
        id: request.params.id,
        text: request.body.text,
        encryptionKey: secrets.encryptionKey,
        network: env.SENDER_NETWORK,
        devMailboxPort: app.services.devMailbox?.port ?? null,
        ehloName: env.SMTP_EHLO_NAME ?? null,
      });
      return reply.code(201).send(entry);
    },
  );

  const aiProvider = createAiProvider(env);
  app.post(
    '/api/inbox/:id/suggest-category',
    {
      config: perUser(30),
      schema: {
        tags,
        params: inboxIdParamsSchema,
        response: {
          200: z.object({ category: z.enum(INBOX_CATEGORIES).nullable() }),
          ...errorResponses(401, 403, 404, 429, 503),
        },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return suggestInboxCategory({
        db,
        userId: user.id,
        id: request.params.id,
        provider: aiProvider,
        log: request.log,
      });
    },
  );

  app.put(
    '/api/inbox/signatures/:id',
    {
      schema: {
        tags,
        params: inboxIdParamsSchema,
        body: z.object({
          signature: senderSignatureSchema.nullable(),
        }),
        response: { 200: z.object({ signature: z.string().nullable() }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return setAccountSignature({
        db,
        userId: user.id,
        accountId: request.params.id,
        signature: request.body.signature,
      });
    },
  );
}
