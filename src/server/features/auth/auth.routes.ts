import { errorResponses } from '@server/lib/errors';
import { forwardAuthCookies, getSession, requestHeaders, requireSession, toUserDto } from '@server/lib/http';
import {
  forgotPasswordSchema,
  loginResponseSchema,
  loginSchema,
  MESSAGES,
  messageSchema,
  registerSchema,
  resetPasswordSchema,
  userSchema,
} from '@shared/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  loginUser,
  registerUser,
  requestPasswordReset,
  resetPassword,
  subscriptionInfoFor,
} from './auth.service';

export interface AuthRoutesOptions {
  /**
   * Asked before every sign-up; throws to refuse it (the platform's "sign-ups closed" setting). Passed in
   * by the app, so auth does not depend on the settings feature.
   */
  beforeRegister?: () => Promise<void>;
}

export async function authRoutes(fastify: FastifyInstance, options: AuthRoutesOptions = {}) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { env } = app.services;
  const authLimit = {
    rateLimit: { max: env.AUTH_RATE_LIMIT_MAX, timeWindow: env.AUTH_RATE_LIMIT_WINDOW_MINUTES * 60_000 },
  };
  const tags = ['auth'];

  app.post(
    '/api/register',
    {
      config: authLimit,
      schema: {
        tags,
        body: registerSchema,
        response: { 201: userSchema, ...errorResponses(400, 403, 409) },
      },
    },
    async (request, reply) => {
      await options.beforeRegister?.();
      const { user, headers } = await registerUser(app.services, {
        input: request.body,
        headers: requestHeaders(request),
      });
      forwardAuthCookies(reply, headers);
      request.log.info({ userId: user.id }, 'account created');
      return reply.code(201).send(user);
    },
  );

  app.post(
    '/api/login',
    {
      config: authLimit,
      schema: {
        tags,
        body: loginSchema,
        response: { 200: loginResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { user, headers } = await loginUser(app.services, {
        input: request.body,
        headers: requestHeaders(request),
        log: request.log,
      });
      forwardAuthCookies(reply, headers);
      const subscriptionInfo = subscriptionInfoFor(user);
      return reply.send(subscriptionInfo ? { ...user, subscriptionInfo } : user);
    },
  );

  app.post('/api/logout', { schema: { tags, response: { 200: messageSchema } } }, async (request, reply) => {
    const session = await getSession(request);
    if (session) {
      const { headers } = await app.services.auth.api.signOut({
        headers: requestHeaders(request),
        returnHeaders: true,
      });
      forwardAuthCookies(reply, headers);
    }
    return reply.send({ message: 'You have been successfully signed out.' });
  });

  app.get(
    '/api/user',
    { schema: { tags, response: { 200: userSchema, ...errorResponses(401) } } },
    async (request) => {
      const session = await requireSession(request);
      return toUserDto(session.user);
    },
  );

  app.post(
    '/api/auth/forgot-password',
    { config: authLimit, schema: { tags, body: forgotPasswordSchema, response: { 200: messageSchema } } },
    async (request) => {
      await requestPasswordReset(app.services, {
        email: request.body.email,
        headers: requestHeaders(request),
        log: request.log,
      });
      return { message: MESSAGES.resetRequested };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: authLimit,
      schema: { tags, body: resetPasswordSchema, response: { 200: messageSchema, ...errorResponses(400) } },
    },
    async (request) => {
      await resetPassword(app.services, { token: request.body.token, password: request.body.password });
      return { message: MESSAGES.resetDone };
    },
  );
}
