import { errorResponses } from '@server/lib/errors';
import { emailBodyRoute, getSession, requireSession } from '@server/lib/http';
import {
  campaignPreviewRequestSchema,
  campaignTestSendRequestSchema,
  personalizePreviewRequestSchema,
  personalizePreviewSchema,
  prelaunchReportSchema,
  testSendResultSchema,
} from '@shared/personalize';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getPrelaunchReport } from './prelaunch';
import { previewCampaignStep, previewContent, sendCampaignTestEmail } from './preview.service';

export async function campaignPreviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env, secrets } = app.services;
  const tags = ['campaigns'];
  const errors = errorResponses(400, 401, 403, 404, 409, 429);
  const params = z.object({ id: z.uuid('Campaign not found') });
  const perUser = (max: number) => ({
    rateLimit: {
      max,
      timeWindow: 60_000,
      keyGenerator: async (request: FastifyRequest) => (await getSession(request))?.user.id ?? request.ip,
    },
  });

  app.post(
    '/api/campaigns/:id/preview',
    {
      config: perUser(120),
      schema: {
        tags,
        params,
        body: campaignPreviewRequestSchema,
        response: { 200: personalizePreviewSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return previewCampaignStep({
        db,
        appUrl: env.APP_URL,
        userId: user.id,
        campaignId: request.params.id,
        ...request.body,
      });
    },
  );

  app.post(
    '/api/campaigns/:id/test-send',
    {
      // A real email through the user's own server: a few a minute.
      config: perUser(5),
      schema: {
        tags,
        params,
        body: campaignTestSendRequestSchema,
        response: { 200: testSendResultSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return sendCampaignTestEmail({
        db,
        appUrl: env.APP_URL,
        encryptionKey: secrets.encryptionKey,
        network: env.SENDER_NETWORK,
        devMailboxPort: app.services.devMailbox?.port ?? null,
        userId: user.id,
        campaignId: request.params.id,
        ...request.body,
      });
    },
  );

  app.get(
    '/api/campaigns/:id/prelaunch',
    { config: perUser(30), schema: { tags, params, response: { 200: prelaunchReportSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getPrelaunchReport({
        db,
        userId: user.id,
        campaignId: request.params.id,
        appUrl: env.APP_URL,
      });
    },
  );

  app.post(
    '/api/personalize/preview',
    {
      config: perUser(120),
      ...emailBodyRoute(),
      schema: {
        tags,
        body: personalizePreviewRequestSchema,
        response: { 200: personalizePreviewSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return previewContent({ db, appUrl: env.APP_URL, userId: user.id, ...request.body });
    },
  );
}
