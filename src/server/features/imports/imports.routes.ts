import fastifyMultipart from '@fastify/multipart';
import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import {
  importListSchema,
  importReinspectSchema,
  importRejectionsQuerySchema,
  importRejectionsSchema,
  importStartSchema,
  importSummarySchema,
  importUploadResultSchema,
} from '@shared/imports';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getImportReport, listImportRejections } from './import-report.service';
import {
  cancelImport,
  getImportById,
  getImportPreview,
  listImports,
  reinspectImport,
  startImport,
  uploadImport,
} from './imports.service';

export async function importsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env, queue } = app.services;
  // Multipart only here (this plugin is encapsulated): the file streams to disk, never into memory.
  await app.register(fastifyMultipart, {
    limits: { fileSize: env.IMPORT_MAX_BYTES, files: 1, fields: 10, fieldSize: 1000, parts: 20 },
  });
  const tags = ['imports'];
  const params = z.object({ id: z.uuid() });
  const errors = errorResponses(400, 401, 403, 404, 409);

  app.post(
    '/api/imports',
    { schema: { tags, response: { 201: importUploadResultSchema, ...errors, ...errorResponses(413) } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const result = await uploadImport({
        db,
        dataDir: env.DATA_DIR,
        maxBytes: env.IMPORT_MAX_BYTES,
        actor: { id: user.id, role: user.role ?? 'user' },
        parts: request.isMultipart() ? request.parts() : emptyParts(),
      });
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/api/imports',
    { schema: { tags, response: { 200: importListSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return { imports: await listImports({ db, userId: user.id }) };
    },
  );

  app.get(
    '/api/imports/:id',
    { schema: { tags, params, response: { 200: importSummarySchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getImportById({ db, userId: user.id, id: request.params.id });
    },
  );

  app.get(
    '/api/imports/:id/preview',
    { schema: { tags, params, response: { 200: importUploadResultSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getImportPreview({ db, userId: user.id, id: request.params.id });
    },
  );

  app.post(
    '/api/imports/:id/inspect',
    {
      schema: {
        tags,
        params,
        body: importReinspectSchema,
        response: { 200: importUploadResultSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return reinspectImport({ db, userId: user.id, id: request.params.id, input: request.body });
    },
  );

  app.post(
    '/api/imports/:id/start',
    { schema: { tags, params, body: importStartSchema, response: { 200: importSummarySchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return startImport({ db, queue, userId: user.id, id: request.params.id, input: request.body });
    },
  );

  app.post(
    '/api/imports/:id/cancel',
    { schema: { tags, params, response: { 200: importSummarySchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return cancelImport({ db, userId: user.id, id: request.params.id });
    },
  );

  app.get(
    '/api/imports/:id/rejections',
    {
      schema: {
        tags,
        params,
        querystring: importRejectionsQuerySchema,
        response: { 200: importRejectionsSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listImportRejections({ db, userId: user.id, id: request.params.id, ...request.query });
    },
  );

  app.get(
    '/api/imports/:id/report.csv',
    // A CSV stream: no JSON response schema for 200; errors still answer `{ message, code }`.
    { schema: { tags, params } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const report = await getImportReport({ db, userId: user.id, id: request.params.id });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${report.fileName}"`)
        .header('cache-control', 'no-store')
        .send(report.stream);
    },
  );
}

async function* emptyParts(): AsyncIterableIterator<never> {}
