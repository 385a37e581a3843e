import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import {
  campaignContactItemSchema,
  campaignContactPageSchema,
  campaignContactParamsSchema,
  campaignContactsQuerySchema,
  campaignReplySchema,
  campaignStatsSchema,
  markWonInputSchema,
  recentCampaignSchema,
  recentNewsletterSchema,
  repliesQuerySchema,
  timelineEntrySchema,
  userStatsSchema,
} from '@shared/campaign-stats';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  getCampaignStats,
  getContactTimeline,
  listCampaignContacts,
  listCampaignReplies,
  markContactWon,
  unmarkContactWon,
} from './campaign-stats.service';
import { getUserStats, listRecentCampaigns, listRecentNewsletters } from './dashboard.service';

/** The campaign page's data and the dashboard's numbers (stat cards, recent campaigns and newsletters). */
export async function campaignStatsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['campaigns'];
  const errors = errorResponses(400, 401, 403, 404);
  const idParams = z.object({ id: z.uuid() });

  app.get(
    '/api/campaigns/:id/stats',
    { schema: { tags, params: idParams, response: { 200: campaignStatsSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getCampaignStats({ db, userId: user.id, campaignId: request.params.id });
    },
  );

  app.get(
    '/api/campaigns/:id/contacts',
    {
      schema: {
        tags,
        params: idParams,
        querystring: campaignContactsQuerySchema,
        response: { 200: campaignContactPageSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listCampaignContacts({
        db,
        userId: user.id,
        campaignId: request.params.id,
        query: request.query,
      });
    },
  );

  app.get(
    '/api/campaigns/:id/contacts/:contactId/timeline',
    {
      schema: {
        tags,
        params: campaignContactParamsSchema,
        response: { 200: z.array(timelineEntrySchema), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return getContactTimeline({
        db,
        userId: user.id,
        campaignId: request.params.id,
        contactId: request.params.contactId,
      });
    },
  );

  app.get(
    '/api/campaigns/:id/replies',
    {
      schema: {
        tags,
        params: idParams,
        querystring: repliesQuerySchema,
        response: { 200: z.array(campaignReplySchema), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listCampaignReplies({
        db,
        userId: user.id,
        campaignId: request.params.id,
        kind: request.query.kind,
        limit: request.query.limit,
      });
    },
  );

  app.post(
    '/api/campaigns/:id/contacts/:contactId/won',
    {
      schema: {
        tags,
        params: campaignContactParamsSchema,
        body: markWonInputSchema,
        response: { 200: campaignContactItemSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return markContactWon({
        db,
        userId: user.id,
        campaignId: request.params.id,
        contactId: request.params.contactId,
        input: request.body,
      });
    },
  );

  app.delete(
    '/api/campaigns/:id/contacts/:contactId/won',
    {
      schema: {
        tags,
        params: campaignContactParamsSchema,
        response: { 200: campaignContactItemSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return unmarkContactWon({
        db,
        userId: user.id,
        campaignId: request.params.id,
        contactId: request.params.contactId,
      });
    },
  );

  app.get(
    '/api/user/stats',
    { schema: { tags: ['dashboard'], response: { 200: userStatsSchema, ...errorResponses(401) } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getUserStats({ db, user });
    },
  );

  app.get(
    '/api/user/campaigns/recent',
    {
      schema: {
        tags: ['dashboard'],
        response: { 200: z.array(recentCampaignSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listRecentCampaigns({ db, userId: user.id });
    },
  );

  app.get(
    '/api/user/newsletters/recent',
    {
      schema: {
        tags: ['dashboard'],
        response: { 200: z.array(recentNewsletterSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listRecentNewsletters({ db, userId: user.id });
    },
  );
}
