import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  alertEvaluationSchema,
  alertingOverviewSchema,
  alertRuleSchema,
  alertRuleUpdateSchema,
  alertSchema,
  cacheListSchema,
  logQuerySchema,
  logSearchResultSchema,
} from '@shared/admin-operations';
import { messageSchema } from '@shared/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import {
  acknowledgeAlert,
  evaluateAlertRules,
  getAlertingOverview,
  updateAlertRule,
} from './alerting.service';
import { clearCache, listCaches } from './caches.service';
import { searchLogs } from './logs.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

/** The operator's Logs, Alerting and Cache Monitor screens (issue #15), super admins only. */
export async function adminOperationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env, logSink, caches, mailer, processName } = app.services;
  const tags = ['admin'];
  const errors = errorResponses(400, 401, 403, 404, 409);

  app.get(
    '/api/admin/logs',
    { schema: { tags, querystring: logQuerySchema, response: { 200: logSearchResultSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return searchLogs({
        db,
        query: request.query,
        maxRows: env.LOG_TABLE_MAX_ROWS,
        retentionDays: env.LOG_RETENTION_DAYS,
        sink: logSink.stats(),
      });
    },
  );

  app.get(
    '/api/admin/alerting',
    { schema: { tags, response: { 200: alertingOverviewSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return getAlertingOverview({ db });
    },
  );

  app.patch(
    '/api/admin/alerting/rules/:key',
    {
      schema: {
        tags,
        params: z.object({ key: z.string().max(50) }),
        body: alertRuleUpdateSchema,
        response: { 200: alertRuleSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return updateAlertRule({ db, actor, key: request.params.key, update: request.body });
    },
  );

  app.post(
    '/api/admin/alerting/alerts/:id/acknowledge',
    { schema: { tags, params: z.object({ id: z.uuid() }), response: { 200: alertSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return acknowledgeAlert({ db, actor, id: request.params.id });
    },
  );

  // "Check now": the same evaluation the minute job runs, so an operator can confirm a fix at once.
  app.post(
    '/api/admin/alerting/evaluate',
    { schema: { tags, response: { 200: alertEvaluationSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const result = await evaluateAlertRules({ db, mailer, appUrl: env.APP_URL, log: request.log });
      await recordAuditEntry({
        db,
        actor,
        action: 'alert_rules.evaluate',
        targetType: 'alert_rule',
        details: { ...result },
      });
      const parts = [`${result.evaluated} rules checked`];
      if (result.opened) parts.push(`${result.opened} alert${result.opened === 1 ? '' : 's'} opened`);
      if (result.resolved) parts.push(`${result.resolved} resolved`);
      return { ...result, message: `${parts.join(', ')}.` };
    },
  );

  app.get(
    '/api/admin/caches',
    { schema: { tags, response: { 200: cacheListSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return listCaches({ caches, process: processName });
    },
  );

  app.post(
    '/api/admin/caches/:name/clear',
    {
      schema: {
        tags,
        params: z.object({ name: z.string().max(100) }),
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      const { cleared } = await clearCache({ db, caches, actor, name: request.params.name });
      return { message: `Cache ${request.params.name} cleared (${cleared} entries).` };
    },
  );
}
