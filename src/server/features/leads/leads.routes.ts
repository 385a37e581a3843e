import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import {
  addToListResultSchema,
  addToListSchema,
  freePlanScopeInputSchema,
  freePlanScopeSchema,
  leadCountSchema,
  leadFiltersSchema,
  leadSearchQuerySchema,
  leadSearchResultSchema,
} from '@shared/leads';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addLeadsToList, countLeads, getLeadScope, searchLeads, setLeadScope } from './leads.service';

export async function leadsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env } = app.services;
  const tags = ['leads'];
  const errors = errorResponses(400, 401, 403, 404, 409, 429);
  // Lead search is the costliest read a user can repeat (DESIGN.md security rules).
  const searchLimit = { rateLimit: { max: env.LEADS_RATE_LIMIT_MAX, timeWindow: 60_000 } };

  app.get(
    '/api/leads/search',
    {
      config: searchLimit,
      schema: {
        tags,
        querystring: leadSearchQuerySchema,
        response: { 200: leadSearchResultSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      const { sort, cursor, limit, ...filters } = request.query;
      return searchLeads({ db, actor: user, filters, sort, cursor, limit });
    },
  );

  app.get(
    '/api/leads/count',
    {
      config: searchLimit,
      schema: { tags, querystring: leadFiltersSchema, response: { 200: leadCountSchema, ...errors } },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return countLeads({ db, actor: user, filters: request.query });
    },
  );

  app.get(
    '/api/leads/free-plan-scope',
    { schema: { tags, response: { 200: freePlanScopeSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getLeadScope({ db, actor: user });
    },
  );

  app.put(
    '/api/leads/free-plan-scope',
    { schema: { tags, body: freePlanScopeInputSchema, response: { 200: freePlanScopeSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return setLeadScope({ db, actor: user, input: request.body });
    },
  );

  app.post(
    '/api/leads/add-to-list',
    {
      config: searchLimit,
      schema: { tags, body: addToListSchema, response: { 200: addToListResultSchema, ...errors } },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return addLeadsToList({ db, actor: user, ...request.body });
    },
  );
}
