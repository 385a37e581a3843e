import { errorResponses } from '@server/lib/errors';
import { requireRole, requireSession } from '@server/lib/http';
import {
  platformSettingsResponseSchema,
  platformSettingsUpdateSchema,
  senderDefaultsSchema,
  signupStatusSchema,
} from '@shared/platform-settings';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  getPlatformSettingsForAdmin,
  getSenderDefaults,
  getSignupStatus,
  updatePlatformSettings,
} from './platform-settings.service';

/** /admin/settings (super admins only), and the few settings others need to read. */
export async function platformSettingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env } = app.services;
  const errors = errorResponses(400, 401, 403);

  app.get(
    '/api/admin/settings',
    { schema: { tags: ['admin'], response: { 200: platformSettingsResponseSchema, ...errors } } },
    async (request) => {
      await requireRole(request, 'super_admin');
      return getPlatformSettingsForAdmin({ db, env });
    },
  );

  app.put(
    '/api/admin/settings',
    {
      schema: {
        tags: ['admin'],
        body: platformSettingsUpdateSchema,
        response: { 200: platformSettingsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireRole(request, 'super_admin');
      const actor = { id: user.id, email: user.email, ipAddress: request.ip };
      const result = await updatePlatformSettings({ db, env, actor, update: request.body });
      request.log.info({ sections: Object.keys(request.body) }, 'platform settings saved');
      return result;
    },
  );

  // The sign-up form asks before showing itself, so a closed platform says so instead of failing late.
  app.get(
    '/api/public/signup-status',
    { schema: { tags: ['auth'], response: { 200: signupStatusSchema } } },
    async () => getSignupStatus({ db }),
  );

  app.get(
    '/api/sender-accounts/defaults',
    { schema: { tags: ['sender-accounts'], response: { 200: senderDefaultsSchema, ...errors } } },
    async (request) => {
      await requireSession(request);
      return getSenderDefaults({ db });
    },
  );
}
