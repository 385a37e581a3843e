import { healthSchema } from '@shared/health';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export async function healthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/health',
    { schema: { tags: ['health'], response: { 200: healthSchema, 503: healthSchema } } },
    async (request, reply) => {
      const { database, queue } = app.services;
      const databaseOk = await database
        .executeSql('SELECT 1 AS ok')
        .then(() => true)
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'health: database check failed');
          return false;
        });
      const queueOk = await queue
        .getQueue('purge-expired-sessions')
        .then((q) => q !== null)
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'health: queue check failed');
          return false;
        });
      const body = {
        status: databaseOk && queueOk ? 'ok' : 'failing',
        database: databaseOk ? 'ok' : 'failing',
        queue: queueOk ? 'ok' : 'failing',
      } as const;
      return reply.code(body.status === 'ok' ? 200 : 503).send(body);
    },
  );
}
