import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import {
  latestTestRunSchema,
  testRunAddressesSchema,
  testRunRequestSchema,
  testRunSchema,
} from '@shared/test-runs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findTestRun, getTestRun, listTestRunAddresses, startTestRun } from './test-run.service';

/** Test runs of a campaign's sequence (shared/test-runs.ts); the hourly limit is counted in the database. */
export async function testRunRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['campaigns'];
  const errors = errorResponses(400, 401, 403, 404, 409, 429);
  const params = z.object({ id: z.uuid('Campaign not found') });

  app.get(
    '/api/campaigns/:id/test-runs/addresses',
    { schema: { tags, params, response: { 200: testRunAddressesSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      await findTestRun({ db, userId: user.id, campaignId: request.params.id });
      return { addresses: await listTestRunAddresses({ db, userId: user.id }) };
    },
  );

  app.post(
    '/api/campaigns/:id/test-runs',
    {
      schema: { tags, params, body: testRunRequestSchema, response: { 201: testRunSchema, ...errors } },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const run = await startTestRun({
        db,
        queue: app.services.queue,
        userId: user.id,
        campaignId: request.params.id,
        input: request.body,
      });
      return reply.code(201).send(run);
    },
  );

  app.get(
    '/api/campaigns/:id/test-runs/latest',
    { schema: { tags, params, response: { 200: latestTestRunSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return { run: await findTestRun({ db, userId: user.id, campaignId: request.params.id }) };
    },
  );

  app.get(
    '/api/campaigns/:id/test-runs/:runId',
    {
      schema: {
        tags,
        params: params.extend({ runId: z.uuid('Test run not found') }),
        response: { 200: testRunSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return getTestRun({
        db,
        userId: user.id,
        campaignId: request.params.id,
        testRunId: request.params.runId,
      });
    },
  );
}
