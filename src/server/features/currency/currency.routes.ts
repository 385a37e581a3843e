import { currencyRatesSchema, geoSchema } from '@shared/currency-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { lookupGeo } from './currency.service';

export async function currencyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const rates = app.services.currencyRates;
  const tags = ['currency'];

  app.get(
    '/api/currency/rates',
    { schema: { tags, response: { 200: currencyRatesSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=600');
      return rates.getRates();
    },
  );

  app.get('/api/geo', { schema: { tags, response: { 200: geoSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return lookupGeo(request.ip);
  });
}
