import { errorResponses } from '@server/lib/errors';
import { getSession, requireSession } from '@server/lib/http';
import { messageSchema } from '@shared/auth';
import type { SenderDefaults } from '@shared/platform-settings';
import {
  connectionTestResultSchema,
  senderAccountInputSchema,
  senderAccountSchema,
  senderConnectionTestSchema,
  senderPresetSchema,
  senderTestEmailSchema,
  senderTrustCertificateSchema,
} from '@shared/sending';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getSenderDefaults } from '../platform-settings/platform-settings.service';
import { ensureDevMailboxSenderAccount } from './dev-mailbox-account.service';
import { dnsResolverFromEnv } from './domain-check.service';
import {
  createSenderAccount,
  deleteSenderAccount,
  getSenderAccount,
  listSenderAccounts,
  pauseSenderAccount,
  resumeSenderAccount,
  updateSenderAccount,
} from './sender-accounts.service';
import {
  checkSenderAccountDomain,
  sendSenderTestEmail,
  testSenderAccount,
  testSenderSettings,
  trustSenderCertificate,
} from './sender-connection.service';
import { listSenderPresets } from './sender-presets';

export async function senderAccountsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env, secrets } = app.services;
  const tags = ['sender-accounts'];
  const errors = errorResponses(400, 401, 403, 404, 409, 429);
  const params = z.object({ id: z.uuid('Sender account not found') });
  // The dev mailbox may start after this plugin is registered in some setups; read it per request.
  const devMailboxPort = () => app.services.devMailbox?.port ?? null;
  // The test mailbox's stored port is a stand-in (2525) its edit form accepts; show where it really runs.
  app.addHook('preSerialization', async (_request, _reply, payload: unknown) =>
    showLiveDevMailboxPort(payload, devMailboxPort()),
  );
  const context = () => ({
    db,
    encryptionKey: secrets.encryptionKey,
    network: env.SENDER_NETWORK,
    devMailboxPort: devMailboxPort(),
    ehloName: env.SMTP_EHLO_NAME,
  });
  const dnsResolver = () => dnsResolverFromEnv(env);
  // Connection tests reach out to servers the user names: a few a minute per user, whatever their address.
  const perUser = (max: number) => ({
    rateLimit: {
      max,
      timeWindow: 60_000,
      keyGenerator: async (request: FastifyRequest) => (await getSession(request))?.user.id ?? request.ip,
    },
  });

  app.get(
    '/api/sender-accounts',
    { schema: { tags, response: { 200: z.array(senderAccountSchema), ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return listSenderAccounts({ db, userId: user.id });
    },
  );

  app.get(
    '/api/sender-accounts/presets',
    { schema: { tags, response: { 200: z.array(senderPresetSchema), ...errors } } },
    async (request) => {
      await requireSession(request);
      return listSenderPresets({ devMailboxPort: devMailboxPort() });
    },
  );

  // Which of the daily-cap and warm-up fields the client left out (the schema fills in fixed defaults;
  // the platform's own, from Admin → Settings, take their place).
  const omittedDefaults = new WeakMap<FastifyRequest, (keyof SenderDefaults)[]>();
  app.post(
    '/api/sender-accounts',
    {
      schema: { tags, body: senderAccountInputSchema, response: { 201: senderAccountSchema, ...errors } },
      preValidation: async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        const fields = ['dailyCap', 'warmupEnabled', 'warmupStart', 'warmupIncrement'] as const;
        omittedDefaults.set(
          request,
          fields.filter((field) => body[field] === undefined),
        );
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const omitted = omittedDefaults.get(request) ?? [];
      const defaults = omitted.length > 0 ? await getSenderDefaults({ db }) : null;
      const input = { ...request.body };
      for (const field of omitted) Object.assign(input, { [field]: defaults![field] });
      const account = await createSenderAccount({
        ...context(),
        dnsResolver: dnsResolver(),
        userId: user.id,
        input,
      });
      return reply.code(201).send(account);
    },
  );

  app.post(
    '/api/sender-accounts/dev-mailbox',
    { schema: { tags, response: { 200: senderAccountSchema, 201: senderAccountSchema, ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const { account, created } = await ensureDevMailboxSenderAccount({ ...context(), userId: user.id });
      return reply.code(created ? 201 : 200).send(account);
    },
  );

  app.post(
    '/api/sender-accounts/test',
    {
      config: perUser(10),
      schema: {
        tags,
        body: senderConnectionTestSchema,
        response: { 200: connectionTestResultSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      const { accountId, smtpTrustFingerprint, imapTrustFingerprint, ...input } = request.body;
      return testSenderSettings({
        ...context(),
        userId: user.id,
        input,
        accountId,
        smtpTrustFingerprint,
        imapTrustFingerprint,
      });
    },
  );

  app.get(
    '/api/sender-accounts/:id',
    { schema: { tags, params, response: { 200: senderAccountSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getSenderAccount({ db, userId: user.id, id: request.params.id });
    },
  );

  app.patch(
    '/api/sender-accounts/:id',
    {
      schema: {
        tags,
        params,
        body: senderAccountInputSchema,
        response: { 200: senderAccountSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return updateSenderAccount({
        ...context(),
        dnsResolver: dnsResolver(),
        userId: user.id,
        id: request.params.id,
        input: request.body,
      });
    },
  );

  app.delete(
    '/api/sender-accounts/:id',
    { schema: { tags, params, response: { 200: messageSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      await deleteSenderAccount({ db, userId: user.id, id: request.params.id });
      return {
        message: 'The sender account was deleted. Campaigns keep sending through your other accounts.',
      };
    },
  );

  app.post(
    '/api/sender-accounts/:id/pause',
    { schema: { tags, params, response: { 200: senderAccountSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return pauseSenderAccount({ db, userId: user.id, id: request.params.id });
    },
  );

  app.post(
    '/api/sender-accounts/:id/resume',
    { schema: { tags, params, response: { 200: senderAccountSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return resumeSenderAccount({ db, userId: user.id, id: request.params.id });
    },
  );

  app.post(
    '/api/sender-accounts/:id/test',
    {
      config: perUser(10),
      schema: { tags, params, response: { 200: connectionTestResultSchema, ...errors } },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return testSenderAccount({ ...context(), userId: user.id, id: request.params.id });
    },
  );

  app.post(
    '/api/sender-accounts/:id/trust-certificate',
    {
      config: perUser(10),
      schema: {
        tags,
        params,
        body: senderTrustCertificateSchema,
        response: { 200: senderAccountSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return trustSenderCertificate({
        ...context(),
        userId: user.id,
        id: request.params.id,
        input: request.body,
      });
    },
  );

  app.post(
    '/api/sender-accounts/:id/check-domain',
    { config: perUser(10), schema: { tags, params, response: { 200: senderAccountSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return checkSenderAccountDomain({
        ...context(),
        dnsResolver: dnsResolver(),
        userId: user.id,
        id: request.params.id,
      });
    },
  );

  app.post(
    '/api/sender-accounts/:id/send-test',
    {
      config: perUser(10),
      schema: {
        tags,
        params,
        body: senderTestEmailSchema.optional(),
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      await sendSenderTestEmail({
        ...context(),
        userId: user.id,
        id: request.params.id,
        to: request.body?.to ?? user.email,
      });
      return { ok: true as const };
    },
  );
}

function showLiveDevMailboxPort(payload: unknown, port: number | null): unknown {
  if (port === null || payload === null || typeof payload !== 'object') return payload;
  if (Array.isArray(payload)) return payload.map((item) => showLiveDevMailboxPort(item, port));
  const account = payload as { isDevMailbox?: unknown; smtpPort?: unknown };
  return account.isDevMailbox === true && typeof account.smtpPort === 'number'
    ? { ...payload, smtpPort: port }
    : payload;
}
