import { Readable } from 'node:stream';
import { AppError, errorResponses } from '@server/lib/errors';
import { getSession, requireSession } from '@server/lib/http';
import {
  aiRewriteInputSchema,
  aiStatusSchema,
  aiWriteInputSchema,
  publicCapabilitiesSchema,
} from '@shared/ai';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { isFeatureEnabled } from '../platform-settings/platform-settings.service';
import { assertAiConfigured, createAiProvider, getAiStatus, startAiStream } from './ai.service';
import { buildRewritePrompt, buildWritePrompt, type Prompt } from './ai-prompts';

/** The operator turned the feature off in /admin/settings (whether or not a provider is set up). */
const AI_SWITCHED_OFF = 'AI writing is switched off on this platform. Write your text yourself for now.';

export async function aiRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env } = app.services;
  const provider = createAiProvider(env);
  const tags = ['ai'];
  const errors = errorResponses(400, 401, 403, 429, 503);
  // Generations cost the operator money: a burst limit per user on top of the daily plan limit.
  const perMinute = {
    rateLimit: {
      max: env.AI_RATE_LIMIT_MAX,
      timeWindow: 60_000,
      keyGenerator: async (request: FastifyRequest) => (await getSession(request))?.user.id ?? request.ip,
    },
  };

  app.get(
    '/api/ai/status',
    { schema: { tags, response: { 200: aiStatusSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      const isSuperAdmin = user.role === 'super_admin';
      if (!(await isFeatureEnabled({ db, feature: 'aiWriting' }))) {
        const status = await getAiStatus({ db, userId: user.id, provider: null });
        return { ...status, help: AI_SWITCHED_OFF };
      }
      return getAiStatus({ db, userId: user.id, provider, isSuperAdmin });
    },
  );

  // Pricing and payment list AI writing only when this installation can actually deliver it.
  app.get(
    '/api/public/capabilities',
    { schema: { tags, response: { 200: publicCapabilitiesSchema } } },
    async () => ({
      aiWriting: provider !== null && (await isFeatureEnabled({ db, feature: 'aiWriting' })),
    }),
  );

  /** Streams the generation as plain text; a failure before the first words is a JSON error instead. */
  const streamTo = async (request: FastifyRequest, reply: FastifyReply, action: string, prompt: Prompt) => {
    const { user } = await requireSession(request);
    if (!(await isFeatureEnabled({ db, feature: 'aiWriting' })))
      throw new AppError('unavailable', AI_SWITCHED_OFF, { reason: 'ai_disabled' });
    const configured = assertAiConfigured(provider);
    const clientGone = new AbortController();
    // 'close' on the response fires when it is finished or when the client hung up before that.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) clientGone.abort();
    });
    const text = await startAiStream({
      db,
      userId: user.id,
      provider: configured,
      action,
      prompt,
      signal: clientGone.signal,
      log: request.log,
    });
    const body = Readable.from(text, { objectMode: false });
    body.on('error', () => clientGone.abort());
    return reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no')
      .send(body);
  };

  app.post(
    '/api/ai/write',
    { config: perMinute, schema: { tags, body: aiWriteInputSchema, response: errors } },
    async (request, reply) =>
      streamTo(request, reply, `write:${request.body.kind}`, buildWritePrompt(request.body)),
  );

  app.post(
    '/api/ai/rewrite',
    { config: perMinute, schema: { tags, body: aiRewriteInputSchema, response: errors } },
    async (request, reply) =>
      streamTo(request, reply, `rewrite:${request.body.action}`, buildRewritePrompt(request.body)),
  );
}
