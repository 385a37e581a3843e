import { errorResponses } from '@server/lib/errors';
import { emailBodyRoute, requireSession } from '@server/lib/http';
import {
  CAMPAIGN_MESSAGES,
  campaignListItemSchema,
  campaignListQuerySchema,
  campaignSchema,
  campaignSettingsSchema,
  campaignStepSchema,
  campaignUpdateSchema,
  reorderStepsSchema,
  stepInputSchema,
} from '@shared/campaigns';
import { checksFailedErrorSchema } from '@shared/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  archiveCampaign,
  type CampaignActor,
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  getCampaignForUser,
  listCampaigns,
  pauseCampaign,
  resumeCampaign,
  stopCampaign,
  updateCampaign,
} from './campaigns.service';
import { launchCampaign } from './launch.service';
import { createStep, deleteStep, getStep, reorderSteps, updateStep } from './steps.service';

export async function campaignsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env } = app.services;
  const tags = ['campaigns'];
  // A launch its pre-launch checks refuse answers 422 with the blockers in `errors`.
  const errors = { ...errorResponses(400, 401, 403, 404, 409), 422: checksFailedErrorSchema };
  const params = z.object({ id: z.uuid(CAMPAIGN_MESSAGES.notFound) });
  const stepParams = params.extend({ stepId: z.uuid(CAMPAIGN_MESSAGES.stepNotFound) });
  const actorOf = async (request: FastifyRequest): Promise<CampaignActor> => {
    const { user } = await requireSession(request);
    return { id: user.id, email: user.email, role: user.role, ipAddress: request.ip };
  };
  const launchContext = () => ({
    db,
    queue: app.services.queue,
    appUrl: env.APP_URL,
    dispatchConcurrency: env.DISPATCH_CONCURRENCY,
  });

  app.get(
    '/api/campaigns',
    {
      schema: {
        tags,
        querystring: campaignListQuerySchema,
        response: { 200: z.array(campaignListItemSchema), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listCampaigns({
        db,
        userId: user.id,
        status: request.query.status,
        archived: request.query.archived,
      });
    },
  );

  // The signed-in user's campaigns (not archived).
  app.get(
    '/api/user/campaigns',
    { schema: { tags, response: { 200: z.array(campaignListItemSchema), ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return listCampaigns({ db, userId: user.id, archived: false });
    },
  );

  app.post(
    '/api/campaigns',
    { schema: { tags, body: campaignSettingsSchema, response: { 201: campaignSchema, ...errors } } },
    async (request, reply) => {
      const actor = await actorOf(request);
      reply.code(201);
      return createCampaign({ db, actor, input: request.body });
    },
  );

  app.get(
    '/api/campaigns/:id',
    { schema: { tags, params, response: { 200: campaignSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getCampaignForUser({ db, userId: user.id, id: request.params.id });
    },
  );

  app.patch(
    '/api/campaigns/:id',
    { schema: { tags, params, body: campaignUpdateSchema, response: { 200: campaignSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return updateCampaign({ db, userId: user.id, id: request.params.id, input: request.body });
    },
  );

  app.delete(
    '/api/campaigns/:id',
    { schema: { tags, params, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      await deleteCampaign({ db, userId: user.id, id: request.params.id });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/campaigns/:id/duplicate',
    { schema: { tags, params, response: { 201: campaignSchema, ...errors } } },
    async (request, reply) => {
      const actor = await actorOf(request);
      reply.code(201);
      return duplicateCampaign({ db, actor, id: request.params.id });
    },
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    app.post(
      `/api/campaigns/:id/${action}`,
      { schema: { tags, params, response: { 200: campaignSchema, ...errors } } },
      async (request) => {
        const { user } = await requireSession(request);
        return archiveCampaign({ db, userId: user.id, id: request.params.id, archived });
      },
    );
  }

  app.post(
    '/api/campaigns/:id/launch',
    { schema: { tags, params, response: { 200: campaignSchema, ...errors } } },
    async (request) => {
      const actor = await actorOf(request);
      return launchCampaign({ ...launchContext(), log: request.log, actor, id: request.params.id });
    },
  );

  for (const [action, run] of [
    ['pause', pauseCampaign],
    ['resume', resumeCampaign],
    ['stop', stopCampaign],
  ] as const) {
    app.post(
      `/api/campaigns/:id/${action}`,
      { schema: { tags, params, response: { 200: campaignSchema, ...errors } } },
      async (request) => {
        const actor = await actorOf(request);
        return run({ db, campaignId: request.params.id, actor, userId: actor.id });
      },
    );
  }

  // Steps
  app.post(
    '/api/campaigns/:id/steps',
    {
      ...emailBodyRoute(),
      schema: { tags, params, body: stepInputSchema, response: { 201: campaignStepSchema, ...errors } },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      reply.code(201);
      return createStep({ db, userId: user.id, campaignId: request.params.id, input: request.body });
    },
  );

  app.post(
    '/api/campaigns/:id/steps/reorder',
    {
      schema: {
        tags,
        params,
        body: reorderStepsSchema,
        response: { 200: z.array(campaignStepSchema), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return reorderSteps({
        db,
        userId: user.id,
        campaignId: request.params.id,
        stepIds: request.body.stepIds,
      });
    },
  );

  app.get(
    '/api/campaigns/:id/steps/:stepId',
    { schema: { tags, params: stepParams, response: { 200: campaignStepSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getStep({ db, userId: user.id, campaignId: request.params.id, stepId: request.params.stepId });
    },
  );

  app.put(
    '/api/campaigns/:id/steps/:stepId',
    {
      ...emailBodyRoute(),
      schema: {
        tags,
        params: stepParams,
        body: stepInputSchema,
        response: { 200: campaignStepSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return updateStep({
        db,
        userId: user.id,
        campaignId: request.params.id,
        stepId: request.params.stepId,
        input: request.body,
      });
    },
  );

  app.delete(
    '/api/campaigns/:id/steps/:stepId',
    { schema: { tags, params: stepParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      await deleteStep({ db, userId: user.id, campaignId: request.params.id, stepId: request.params.stepId });
      return reply.code(204).send(null);
    },
  );
}
