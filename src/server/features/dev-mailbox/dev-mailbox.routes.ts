import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import { devMailSchema, devMailSummarySchema } from '@shared/admin';
import { messageSchema } from '@shared/auth';
import { inboundResultSchema, simulateInboundInputSchema } from '@shared/inbound';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearDevMail, getDevMailById, listDevMail } from './dev-mailbox.service';
import { simulateDevMailAnswer } from './dev-mailbox-simulate.service';

export async function devMailboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['admin'];

  app.get(
    '/api/admin/dev-mailbox',
    { schema: { tags, response: { 200: z.array(devMailSummarySchema) } } },
    async (request) => {
      await requireRole(request, 'super_admin');
      return listDevMail({ db });
    },
  );

  app.get(
    '/api/admin/dev-mailbox/:id',
    {
      schema: {
        tags,
        params: z.object({ id: z.uuid({ error: 'Message not found' }) }),
        response: { 200: devMailSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await requireRole(request, 'super_admin');
      return getDevMailById({ db, id: request.params.id });
    },
  );

  app.post(
    '/api/admin/dev-mailbox/messages/:id/simulate',
    {
      schema: {
        tags,
        params: z.object({ id: z.uuid({ error: 'Message not found' }) }),
        body: simulateInboundInputSchema,
        response: { 200: inboundResultSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      await requireRole(request, 'super_admin');
      return simulateDevMailAnswer({
        db,
        log: request.log,
        id: request.params.id,
        kind: request.body.kind,
        senderHealth: { mailer: app.services.mailer, appUrl: app.services.env.APP_URL },
      });
    },
  );

  app.delete(
    '/api/admin/dev-mailbox',
    { schema: { tags, response: { 200: messageSchema } } },
    async (request) => {
      await requireRole(request, 'super_admin');
      await clearDevMail({ db });
      return { message: 'The development mailbox is empty.' };
    },
  );
}
