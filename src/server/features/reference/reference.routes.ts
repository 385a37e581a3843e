import { errorResponses } from '@server/lib/errors';
import {
  categoryListSchema,
  cityListQuerySchema,
  cityListSchema,
  cityParamsSchema,
  countryListSchema,
} from '@shared/reference';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listCategories, listCities, listCountries } from './reference.service';

/** Public reference data; it changes with releases, so browsers and CDNs may keep it for a day. */
const CACHE_CONTROL = 'public, max-age=86400';

export async function referenceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.services;
  const tags = ['reference'];

  app.get(
    '/api/reference/countries',
    { schema: { tags, response: { 200: countryListSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', CACHE_CONTROL);
      return { countries: await listCountries({ db }) };
    },
  );

  app.get(
    '/api/reference/countries/:code/cities',
    {
      schema: {
        tags,
        params: cityParamsSchema,
        querystring: cityListQuerySchema,
        response: { 200: cityListSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const result = listCities({ countryCode: request.params.code, ...request.query });
      reply.header('cache-control', CACHE_CONTROL);
      return result;
    },
  );

  app.get(
    '/api/reference/categories',
    { schema: { tags, response: { 200: categoryListSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', CACHE_CONTROL);
      return listCategories();
    },
  );
}
