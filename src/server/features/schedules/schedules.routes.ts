import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  automatedSchedulesSchema,
  runScheduleResultSchema,
  scheduleParamsSchema,
} from '@shared/admin-schedules';
import { messageSchema } from '@shared/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuditActor } from '../admin/audit.service';
import { listSchedules, pauseSchedule, resumeSchedule, runScheduleNow } from './schedules.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

/** The operator's Automated Schedules screen (/admin/automated-schedules), super admins only. */
export async function schedulesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, queue } = app.services;
  const tags = ['admin'];
  const errors = errorResponses(400, 401, 403, 404);

  app.get(
    '/api/admin/schedules',
    { schema: { tags, response: { 200: automatedSchedulesSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return listSchedules({ db, queue });
    },
  );

  app.post(
    '/api/admin/schedules/:name/run',
    { schema: { tags, params: scheduleParamsSchema, response: { 200: runScheduleResultSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const jobId = await runScheduleNow({ db, queue, actor, name: request.params.name });
      return {
        message: jobId
          ? `${request.params.name} will run in a moment.`
          : `${request.params.name} is already waiting to run.`,
        jobId,
      };
    },
  );

  app.post(
    '/api/admin/schedules/:name/pause',
    { schema: { tags, params: scheduleParamsSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const { changed } = await pauseSchedule({ db, queue, actor, name: request.params.name });
      return {
        message: changed
          ? `${request.params.name} is paused: it will not run on its schedule.`
          : `${request.params.name} was already paused.`,
      };
    },
  );

  app.post(
    '/api/admin/schedules/:name/resume',
    { schema: { tags, params: scheduleParamsSchema, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const { changed } = await resumeSchedule({ db, queue, actor, name: request.params.name });
      return {
        message: changed
          ? `${request.params.name} runs on its schedule again.`
          : `${request.params.name} was not paused.`,
      };
    },
  );
}
