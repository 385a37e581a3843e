import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import { userSchema } from '@shared/auth';
import {
  activateSubscriptionResponseSchema,
  activateSubscriptionSchema,
  changePlanResponseSchema,
  changePlanSchema,
  initializePaymentResponseSchema,
  initializePaymentSchema,
  paymentListSchema,
  paymentsConfigSchema,
  selectPlanSchema,
  subscriptionActionResponseSchema,
  subscriptionSchema,
} from '@shared/payments';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { BillingServices } from './billing.service';
import { activateSubscription, initializePayment } from './payments.service';
import { isTestModeKey } from './paystack.client';
import {
  cancelSubscription,
  changePlan,
  getSubscription,
  listPayments,
  reactivateSubscription,
  selectPlan,
} from './subscription.service';
import { handlePaystackWebhook } from './webhooks.service';

export const PAYSTACK_WEBHOOK_PATH = '/api/webhooks/paystack';

export async function paymentsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env } = app.services;
  const tags = ['payments'];
  const errors = errorResponses(400, 401, 403, 404, 409, 503);
  const billing = (request: FastifyRequest): BillingServices => ({ ...app.services, log: request.log });
  const paymentLimit = { rateLimit: { max: 30, timeWindow: 60_000 } };

  app.get(
    '/api/payments/config',
    { schema: { tags, response: { 200: paymentsConfigSchema } } },
    async () => ({
      publicKey: env.PAYSTACK_PUBLIC_KEY ?? '',
      inlineScriptUrl: env.PAYSTACK_INLINE_SCRIPT_URL,
      testMode: isTestModeKey(env.PAYSTACK_SECRET_KEY),
      currency: 'NGN' as const,
    }),
  );

  app.post(
    '/api/subscription/select-plan',
    { schema: { tags, body: selectPlanSchema, response: { 200: userSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return selectPlan(billing(request), { userId: user.id, ...request.body });
    },
  );

  app.post(
    '/api/payments/initialize',
    {
      config: paymentLimit,
      schema: {
        tags,
        body: initializePaymentSchema,
        response: { 200: initializePaymentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return initializePayment(billing(request), { userId: user.id, ...request.body });
    },
  );

  app.post(
    '/api/activate-subscription',
    {
      config: paymentLimit,
      schema: {
        tags,
        body: activateSubscriptionSchema,
        response: { 200: activateSubscriptionResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return activateSubscription(billing(request), { userId: user.id, input: request.body });
    },
  );

  app.get(
    '/api/subscription',
    { schema: { tags, response: { 200: subscriptionSchema, ...errorResponses(401) } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getSubscription({ db, userId: user.id });
    },
  );

  app.get(
    '/api/subscription/payments',
    { schema: { tags, response: { 200: paymentListSchema, ...errorResponses(401) } } },
    async (request) => {
      const { user } = await requireSession(request);
      return { payments: await listPayments({ db, userId: user.id }) };
    },
  );

  app.post(
    '/api/subscription/cancel',
    { schema: { tags, response: { 200: subscriptionActionResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return cancelSubscription(billing(request), { userId: user.id });
    },
  );

  app.post(
    '/api/subscription/reactivate',
    { schema: { tags, response: { 200: subscriptionActionResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return reactivateSubscription(billing(request), { userId: user.id });
    },
  );

  app.post(
    '/api/subscription/change-plan',
    {
      config: paymentLimit,
      schema: { tags, body: changePlanSchema, response: { 200: changePlanResponseSchema, ...errors } },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return changePlan(billing(request), { userId: user.id, ...request.body });
    },
  );

  // Paystack signs the exact bytes it sends, so this route alone keeps the raw body (its own JSON parser,
  // scoped to this plugin). It has no Origin and no session: the signature authenticates it.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      PAYSTACK_WEBHOOK_PATH,
      {
        schema: {
          tags,
          hide: true,
          response: { 200: z.object({ received: z.literal(true) }), ...errorResponses(400, 401) },
        },
      },
      async (request) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['x-paystack-signature'];
        await handlePaystackWebhook(billing(request), {
          rawBody,
          signature: Array.isArray(header) ? header[0] : header,
        });
        return { received: true as const };
      },
    );
  });
}
