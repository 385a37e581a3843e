import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  cursorQuerySchema,
  emailQueueStatusSchema,
  failedJobListSchema,
  failedMessageListSchema,
  jobParamsSchema,
  senderMonitorListSchema,
  senderMonitorQuerySchema,
} from '@shared/admin-monitors';
import { messageSchema } from '@shared/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditActor } from '../admin/audit.service';
import { listSenderMonitor, pauseSenderByAdmin, resumeSenderByAdmin } from './email-processing.service';
import {
  cancelJob,
  cancelMessage,
  getEmailQueueStatus,
  listFailedJobs,
  listFailedMessages,
  retryJob,
  retryMessage,
} from './email-queue.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

/** The operator's Email Queue and Email Processing monitors (issue #15), super admins only. */
export async function adminMonitorsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, queue, env } = app.services;
  const tags = ['admin'];
  const idParams = z.object({ id: z.uuid() });
  const errors = errorResponses(400, 401, 403, 404, 409);

  app.get(
    '/api/admin/email-queue',
    { schema: { tags, response: { 200: emailQueueStatusSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return getEmailQueueStatus({ db });
    },
  );

  app.get(
    '/api/admin/email-queue/failed-jobs',
    { schema: { tags, querystring: cursorQuerySchema, response: { 200: failedJobListSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return listFailedJobs({ db, ...request.query });
    },
  );

  app.get(
    '/api/admin/email-queue/failed-messages',
    {
      schema: { tags, querystring: cursorQuerySchema, response: { 200: failedMessageListSchema, ...errors } },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listFailedMessages({ db, ...request.query });
    },
  );

  app.post(
    '/api/admin/email-queue/jobs/:name/:id/retry',
    { schema: { tags, params: jobParamsSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      await retryJob({ db, queue, actor, ...request.params });
      return { message: 'The job will run again.' };
    },
  );

  app.post(
    '/api/admin/email-queue/jobs/:name/:id/cancel',
    { schema: { tags, params: jobParamsSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      await cancelJob({ db, queue, actor, ...request.params });
      return { message: 'The job was cancelled.' };
    },
  );

  app.post(
    '/api/admin/email-queue/messages/:id/retry',
    { schema: { tags, params: idParams, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      await retryMessage({
        db,
        queue,
        dispatchConcurrency: env.DISPATCH_CONCURRENCY,
        actor,
        id: request.params.id,
      });
      return { message: 'The message is back in the queue.' };
    },
  );

  app.post(
    '/api/admin/email-queue/messages/:id/cancel',
    { schema: { tags, params: idParams, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      await cancelMessage({ db, actor, id: request.params.id });
      return { message: 'The message will not be sent.' };
    },
  );

  app.get(
    '/api/admin/email-processing',
    {
      schema: {
        tags,
        querystring: senderMonitorQuerySchema,
        response: { 200: senderMonitorListSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listSenderMonitor({ db, query: request.query });
    },
  );

  app.post(
    '/api/admin/email-processing/accounts/:id/pause',
    { schema: { tags, params: idParams, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const account = await pauseSenderByAdmin({ db, actor, id: request.params.id });
      return { message: `${account.fromEmail} is paused.` };
    },
  );

  app.post(
    '/api/admin/email-processing/accounts/:id/resume',
    { schema: { tags, params: idParams, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const account = await resumeSenderByAdmin({ db, actor, id: request.params.id });
      return { message: `${account.fromEmail} is active again.` };
    },
  );
}
