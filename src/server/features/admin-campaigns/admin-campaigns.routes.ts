import { errorResponses } from '@server/lib/errors';
import { requireRole } from '@server/lib/http';
import {
  adminCampaignDetailSchema,
  adminCampaignListQuerySchema,
  adminCampaignListSchema,
  adminNewsletterDetailSchema,
  adminNewsletterListQuerySchema,
  adminNewsletterListSchema,
} from '@shared/admin-campaigns';
import {
  campaignContactPageSchema,
  campaignContactParamsSchema,
  campaignContactsQuerySchema,
  campaignReplySchema,
  repliesQuerySchema,
  timelineEntrySchema,
} from '@shared/campaign-stats';
import { campaignSchema } from '@shared/campaigns';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditActor } from '../admin/audit.service';
import {
  getContactTimeline,
  listCampaignContacts,
  listCampaignReplies,
} from '../campaign-stats/campaign-stats.service';
import {
  cancelScheduledNewsletter,
  getAdminCampaign,
  getAdminNewsletter,
  listAdminCampaigns,
  listAdminNewsletters,
  pauseCampaignAsAdmin,
  stopCampaignAsAdmin,
} from './admin-campaigns.service';

async function requireSuperAdmin(request: FastifyRequest): Promise<AuditActor> {
  const { user } = await requireRole(request, 'super_admin');
  return { id: user.id, email: user.email, ipAddress: request.ip };
}

/** Super admins' twins of the campaign and newsletter pages (issue #5 item 9). */
export async function adminCampaignsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env } = app.services;
  const tags = ['admin'];
  const idParams = z.object({ id: z.uuid() });
  const errors = errorResponses(400, 401, 403, 404, 409);

  app.get(
    '/api/admin/campaigns',
    {
      schema: {
        tags,
        querystring: adminCampaignListQuerySchema,
        response: { 200: adminCampaignListSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listAdminCampaigns({ db, query: request.query });
    },
  );

  app.get(
    '/api/admin/campaigns/:id',
    { schema: { tags, params: idParams, response: { 200: adminCampaignDetailSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return getAdminCampaign({ db, id: request.params.id });
    },
  );

  app.get(
    '/api/admin/campaigns/:id/contacts',
    {
      schema: {
        tags,
        params: idParams,
        querystring: campaignContactsQuerySchema,
        response: { 200: campaignContactPageSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listCampaignContacts({ db, userId: null, campaignId: request.params.id, query: request.query });
    },
  );

  app.get(
    '/api/admin/campaigns/:id/contacts/:contactId/timeline',
    {
      schema: {
        tags,
        params: campaignContactParamsSchema,
        response: { 200: z.array(timelineEntrySchema), ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return getContactTimeline({
        db,
        userId: null,
        campaignId: request.params.id,
        contactId: request.params.contactId,
      });
    },
  );

  app.get(
    '/api/admin/campaigns/:id/replies',
    {
      schema: {
        tags,
        params: idParams,
        querystring: repliesQuerySchema,
        response: { 200: z.array(campaignReplySchema), ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listCampaignReplies({
        db,
        userId: null,
        campaignId: request.params.id,
        kind: request.query.kind,
        limit: request.query.limit,
      });
    },
  );

  app.post(
    '/api/admin/campaigns/:id/pause',
    { schema: { tags, params: idParams, response: { 200: campaignSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return pauseCampaignAsAdmin({ db, id: request.params.id, actor });
    },
  );

  app.post(
    '/api/admin/campaigns/:id/stop',
    { schema: { tags, params: idParams, response: { 200: campaignSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return stopCampaignAsAdmin({ db, id: request.params.id, actor });
    },
  );

  app.get(
    '/api/admin/newsletters',
    {
      schema: {
        tags,
        querystring: adminNewsletterListQuerySchema,
        response: { 200: adminNewsletterListSchema, ...errors },
      },
    },
    async (request) => {
      await requireSuperAdmin(request);
      return listAdminNewsletters({ db, query: request.query });
    },
  );

  app.get(
    '/api/admin/newsletters/:id',
    { schema: { tags, params: idParams, response: { 200: adminNewsletterDetailSchema, ...errors } } },
    async (request) => {
      await requireSuperAdmin(request);
      return getAdminNewsletter({ db, appUrl: env.APP_URL, id: request.params.id });
    },
  );

  app.post(
    '/api/admin/newsletters/:id/cancel',
    { schema: { tags, params: idParams, response: { 200: adminNewsletterDetailSchema, ...errors } } },
    async (request) => {
      const actor = await requireSuperAdmin(request);
      return cancelScheduledNewsletter({ db, appUrl: env.APP_URL, id: request.params.id, actor });
    },
  );
}
