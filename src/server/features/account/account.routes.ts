import { SESSION_COOKIE_NAMES } from '@server/lib/auth';
import { AppError, errorResponses } from '@server/lib/errors';
import { forwardAuthCookies, requestHeaders, requireSession } from '@server/lib/http';
import {
  changePasswordSchema,
  deleteAccountSchema,
  messageSchema,
  sessionSchema,
  updateProfileSchema,
  userSchema,
} from '@shared/auth';
import { APIError } from 'better-auth/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSignInFailures, startPasswordCheck } from '../auth/account-throttles.service';
import { assertAcceptablePassword, revokePasswordResetLinks } from '../auth/auth.service';
import {
  deleteAccount,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  updateProfile,
} from './account.service';
import { exportAccountData } from './account-export';

export async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, auth, env } = app.services;
  const tags = ['account'];
  const sensitiveLimit = {
    rateLimit: { max: env.AUTH_RATE_LIMIT_MAX, timeWindow: env.AUTH_RATE_LIMIT_WINDOW_MINUTES * 60_000 },
  };

  app.patch(
    '/api/user',
    { schema: { tags, body: updateProfileSchema, response: { 200: userSchema, ...errorResponses(400) } } },
    async (request) => {
      const { user } = await requireSession(request);
      return updateProfile({ db, userId: user.id, ...request.body });
    },
  );

  app.post(
    '/api/user/password',
    {
      config: sensitiveLimit,
      schema: {
        tags,
        body: changePasswordSchema,
        response: { 200: messageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      assertAcceptablePassword(request.body.newPassword, { email: user.email });
      await startPasswordCheck({ db, email: user.email, log: request.log });
      try {
        const { headers } = await auth.api.changePassword({
          body: { ...request.body, revokeOtherSessions: true },
          headers: requestHeaders(request),
          returnHeaders: true,
        });
        forwardAuthCookies(reply, headers);
      } catch (error) {
        if (error instanceof APIError && error.statusCode < 500) {
          throw new AppError('bad_request', 'Your current password is not correct.', {
            errors: [{ path: 'currentPassword', message: 'Your current password is not correct.' }],
          });
        }
        throw error;
      }
      await clearSignInFailures({ db, email: user.email });
      // Whoever holds a reset link asked for before the change must not be able to undo it.
      await revokePasswordResetLinks({ db, userId: user.id });
      return { message: 'Your password has been changed. Other devices have been signed out.' };
    },
  );

  app.delete(
    '/api/user',
    {
      config: sensitiveLimit,
      schema: {
        tags,
        body: deleteAccountSchema,
        response: { 200: messageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      await deleteAccount({
        db,
        userId: user.id,
        email: user.email,
        password: request.body.password,
        log: request.log,
      });
      // Whichever of the two names this deployment uses (the session row itself is already gone).
      for (const name of SESSION_COOKIE_NAMES) {
        reply.clearCookie(name, { path: '/', secure: name.startsWith('__Secure-') });
      }
      request.log.info({ userId: user.id }, 'account deleted');
      return { message: 'Your account and its data have been deleted.' };
    },
  );

  app.get(
    '/api/user/export',
    {
      config: sensitiveLimit,
      // No response schema: the body is a stream of JSON lines (errors still use the usual JSON shape).
      schema: { tags, description: 'Everything the account holds, as JSON lines (account-export.ts).' },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const { fileName, stream } = exportAccountData({ db, userId: user.id, log: request.log });
      request.log.info({ userId: user.id }, 'account data exported');
      return reply
        .header('content-type', 'application/jsonl; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.get(
    '/api/user/sessions',
    { schema: { tags, response: { 200: z.array(sessionSchema) } } },
    async (request) => {
      const { user, session } = await requireSession(request);
      return listSessions({ db, userId: user.id, currentSessionId: session.id });
    },
  );

  app.post(
    '/api/user/sessions/revoke-others',
    { schema: { tags, response: { 200: messageSchema.extend({ revoked: z.number() }) } } },
    async (request) => {
      const { user, session } = await requireSession(request);
      const revoked = await revokeOtherSessions({ db, userId: user.id, currentSessionId: session.id });
      return { message: `Signed out ${revoked} other session${revoked === 1 ? '' : 's'}.`, revoked };
    },
  );

  app.delete(
    '/api/user/sessions/:id',
    {
      schema: {
        tags,
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: messageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      await revokeSession({ db, userId: user.id, sessionId: request.params.id });
      return { message: 'Session revoked.' };
    },
  );
}
