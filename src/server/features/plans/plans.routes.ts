import { errorResponses } from '@server/lib/errors';
import { requireRole, requireSession } from '@server/lib/http';
import { adminUpdatePricingPlanSchema, pricingPlanSchema, userPlanSchema } from '@shared/payments';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUserPlan } from './plan-limits.service';
import { listPricingPlans, updatePricingPlan } from './plans.service';

export async function plansRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const errors = errorResponses(400, 401, 403, 404);

  app.get(
    '/api/pricing-plans',
    { schema: { tags: ['plans'], response: { 200: z.array(pricingPlanSchema) } } },
    async () => listPricingPlans({ db }),
  );

  app.get(
    '/api/user/plan',
    { schema: { tags: ['plans'], response: { 200: userPlanSchema, ...errorResponses(401) } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getUserPlan({ db, userId: user.id });
    },
  );

  app.get(
    '/api/admin/pricing-plans',
    { schema: { tags: ['admin'], response: { 200: z.array(pricingPlanSchema), ...errors } } },
    async (request) => {
      await requireRole(request, 'super_admin');
      return listPricingPlans({ db, includeInactive: true });
    },
  );

  app.patch(
    '/api/admin/pricing-plans/:id',
    {
      schema: {
        tags: ['admin'],
        params: z.object({ id: z.string().min(1).max(40) }),
        body: adminUpdatePricingPlanSchema,
        response: { 200: pricingPlanSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireRole(request, 'super_admin');
      return updatePricingPlan({
        db,
        actor: { id: user.id, email: user.email, ipAddress: request.ip },
        id: request.params.id,
        changes: request.body,
      });
    },
  );
}
