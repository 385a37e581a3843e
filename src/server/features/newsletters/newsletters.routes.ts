import { createReadStream } from 'node:fs';
import fastifyMultipart from '@fastify/multipart';
import { AppError, errorResponses } from '@server/lib/errors';
import { emailBodyRoute, requireSession } from '@server/lib/http';
import { checksFailedErrorSchema } from '@shared/errors';
import {
  newsletterProgressSchema,
  newsletterRecipientPageSchema,
  newsletterRecipientsQuerySchema,
  newsletterReportSchema,
} from '@shared/newsletter-report';
import {
  NEWSLETTER_IMAGE_MAX_BYTES,
  NEWSLETTER_MESSAGES,
  newsletterArchiveSchema,
  newsletterArchiveUpdateSchema,
  newsletterCreateSchema,
  newsletterImageSchema,
  newsletterListQuerySchema,
  newsletterScheduleSchema,
  newsletterSchema,
  newsletterSendSchema,
  newsletterTestSendSchema,
  newsletterUpdateSchema,
} from '@shared/newsletters';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_HEADERS } from '../tracking/tracking.service';
import {
  getNewsletterArchive,
  loadPublicArchive,
  regenerateNewsletterArchiveSlug,
  setNewsletterArchiveEnabled,
} from './newsletter-archive.service';
import { ARCHIVE_BAD_PAGE_PAGE, ARCHIVE_NOT_FOUND_PAGE, renderArchivePage } from './newsletter-archive-page';
import { renderWebVersion, sendNewsletterTest } from './newsletter-delivery';
import { contentTypeOf, findMediaFile, saveNewsletterImage } from './newsletter-images';
import {
  exportNewsletterReportCsv,
  getNewsletterProgress,
  getNewsletterReport,
  listNewsletterRecipients,
} from './newsletter-report.service';
import {
  resumeNewsletterSend,
  scheduleNewsletter,
  sendNewsletter,
  stopNewsletterSend,
  unscheduleNewsletter,
} from './newsletter-send.service';
import {
  createNewsletter,
  deleteNewsletter,
  duplicateNewsletter,
  getNewsletter,
  listNewsletters,
  updateNewsletter,
} from './newsletters.service';

export async function newslettersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, env, queue, secrets } = app.services;
  // Encapsulated here: only the image upload reads multipart bodies.
  await app.register(fastifyMultipart, {
    limits: { fileSize: NEWSLETTER_IMAGE_MAX_BYTES, files: 1, fields: 5, fieldSize: 1000, parts: 10 },
  });
  const tags = ['newsletters'];
  const params = z.object({ id: z.uuid(NEWSLETTER_MESSAGES.notFound) });
  const errors = errorResponses(400, 401, 403, 404, 409);
  const appUrl = env.APP_URL;
  const sendContext = { db, queue, appUrl, dispatchConcurrency: env.DISPATCH_CONCURRENCY };

  app.get(
    '/api/newsletters',
    {
      schema: {
        tags,
        querystring: newsletterListQuerySchema,
        response: { 200: z.array(newsletterSchema), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listNewsletters({ db, appUrl, userId: user.id, kind: request.query.kind });
    },
  );

  app.post(
    '/api/newsletters',
    {
      ...emailBodyRoute(),
      schema: { tags, body: newsletterCreateSchema, response: { 201: newsletterSchema, ...errors } },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const created = await createNewsletter({ db, appUrl, userId: user.id, input: request.body });
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/api/newsletters/images',
    {
      schema: {
        tags,
        response: { 201: newsletterImageSchema, ...errors, ...errorResponses(413, 415) },
      },
    },
    async (request, reply) => {
      await requireSession(request);
      if (!request.isMultipart()) throw new AppError('bad_request', NEWSLETTER_MESSAGES.imageMissing);
      const saved = await saveNewsletterImage({ dataDir: env.DATA_DIR, appUrl, parts: request.parts() });
      return reply.code(201).send(saved);
    },
  );

  // The public archive of sent newsletters: off until the user turns it on.
  app.get(
    '/api/newsletter-archive',
    { schema: { tags, response: { 200: newsletterArchiveSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getNewsletterArchive({ db, appUrl, userId: user.id });
    },
  );

  app.put(
    '/api/newsletter-archive',
    {
      schema: {
        tags,
        body: newsletterArchiveUpdateSchema,
        response: { 200: newsletterArchiveSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return setNewsletterArchiveEnabled({ db, appUrl, userId: user.id, enabled: request.body.enabled });
    },
  );

  app.post(
    '/api/newsletter-archive/regenerate',
    { schema: { tags, response: { 200: newsletterArchiveSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return regenerateNewsletterArchiveSlug({ db, appUrl, userId: user.id });
    },
  );

  // Public: the sender's archive page. No session, no tracking.
  app.get(
    '/archive/:slug',
    {
      schema: {
        hide: true,
        params: z.object({ slug: z.string().max(100) }),
        querystring: z.object({
          older: z.string().max(200).optional(),
          newer: z.string().max(200).optional(),
        }),
      },
    },
    async (request, reply) => {
      let archive: Awaited<ReturnType<typeof loadPublicArchive>>;
      try {
        archive = await loadPublicArchive({ db, slug: request.params.slug, page: request.query });
      } catch (error) {
        // A mangled page key: a page, not a JSON error, for someone who followed or edited a link.
        if (error instanceof AppError && error.code === 'validation') {
          return reply.code(400).headers(PAGE_HEADERS).send(ARCHIVE_BAD_PAGE_PAGE);
        }
        throw error;
      }
      if (!archive) return reply.code(404).headers(PAGE_HEADERS).send(ARCHIVE_NOT_FOUND_PAGE);
      return reply.code(200).headers(PAGE_HEADERS).send(renderArchivePage(archive));
    },
  );

  app.get(
    '/api/newsletters/:id',
    { schema: { tags, params, response: { 200: newsletterSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getNewsletter({ db, appUrl, userId: user.id, id: request.params.id });
    },
  );

  app.patch(
    '/api/newsletters/:id',
    {
      ...emailBodyRoute(),
      schema: { tags, params, body: newsletterUpdateSchema, response: { 200: newsletterSchema, ...errors } },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return updateNewsletter({ db, appUrl, userId: user.id, id: request.params.id, input: request.body });
    },
  );

  app.delete(
    '/api/newsletters/:id',
    { schema: { tags, params, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      await deleteNewsletter({ db, userId: user.id, id: request.params.id });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/newsletters/:id/duplicate',
    { schema: { tags, params, response: { 201: newsletterSchema, ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const copy = await duplicateNewsletter({ db, appUrl, userId: user.id, id: request.params.id });
      return reply.code(201).send(copy);
    },
  );

  app.post(
    '/api/newsletters/:id/send',
    {
      schema: {
        tags,
        params,
        body: newsletterSendSchema,
        response: { 200: newsletterSchema, ...errors, 422: checksFailedErrorSchema },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return sendNewsletter({ ...sendContext, userId: user.id, id: request.params.id, input: request.body });
    },
  );

  app.post(
    '/api/newsletters/:id/schedule',
    {
      schema: {
        tags,
        params,
        body: newsletterScheduleSchema,
        // A placeholder left in the newsletter refuses the send: 422 naming each (presend-check.ts).
        response: { 200: newsletterSchema, ...errors, 422: checksFailedErrorSchema },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return scheduleNewsletter({ db, appUrl, userId: user.id, id: request.params.id, input: request.body });
    },
  );

  app.post(
    '/api/newsletters/:id/unschedule',
    { schema: { tags, params, response: { 200: newsletterSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return unscheduleNewsletter({ db, appUrl, userId: user.id, id: request.params.id });
    },
  );

  // A send paused for the user (bounces, complaints, a suspension since lifted): on again, or ended.
  for (const [action, run] of [
    ['resume', resumeNewsletterSend],
    ['stop', stopNewsletterSend],
  ] as const) {
    app.post(
      `/api/newsletters/:id/${action}`,
      { schema: { tags, params, response: { 200: newsletterSchema, ...errors } } },
      async (request) => {
        const { user } = await requireSession(request);
        return run({
          ...sendContext,
          actor: { id: user.id, email: user.email, role: user.role, ipAddress: request.ip },
          userId: user.id,
          id: request.params.id,
        });
      },
    );
  }

  app.get(
    '/api/newsletters/:id/progress',
    { schema: { tags, params, response: { 200: newsletterProgressSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getNewsletterProgress({ db, userId: user.id, id: request.params.id });
    },
  );

  app.get(
    '/api/newsletters/:id/report',
    { schema: { tags, params, response: { 200: newsletterReportSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      return getNewsletterReport({ db, userId: user.id, id: request.params.id });
    },
  );

  app.get(
    '/api/newsletters/:id/report/recipients',
    {
      schema: {
        tags,
        params,
        querystring: newsletterRecipientsQuerySchema,
        response: { 200: newsletterRecipientPageSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return listNewsletterRecipients({ db, userId: user.id, id: request.params.id, query: request.query });
    },
  );

  app.get(
    '/api/newsletters/:id/report.csv',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      // No response schema: the body is a CSV stream (errors still use the usual JSON shape).
      schema: { tags, params },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const { fileName, stream } = await exportNewsletterReportCsv({
        db,
        userId: user.id,
        id: request.params.id,
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.post(
    '/api/newsletters/:id/test-send',
    {
      schema: {
        tags,
        params,
        body: newsletterTestSendSchema,
        response: { 200: z.object({ ok: z.literal(true), warnings: z.array(z.string()) }), ...errors },
      },
      // Each test is a real email through the user's server.
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
    },
    async (request) => {
      const { user } = await requireSession(request);
      const { warnings } = await sendNewsletterTest({
        db,
        encryptionKey: secrets.encryptionKey,
        network: env.SENDER_NETWORK,
        devMailboxPort: app.services.devMailbox?.port ?? null,
        appUrl,
        user: { id: user.id, email: user.email },
        id: request.params.id,
        input: request.body,
      });
      return { ok: true as const, warnings };
    },
  );

  // Public: the web version linked from the mail. No session, no tracking.
  app.get(
    '/n/:token',
    { schema: { hide: true, params: z.object({ token: z.string().max(100) }) } },
    async (request, reply) => {
      const html = await renderWebVersion({ db, token: request.params.token });
      reply
        .header('x-robots-tag', 'noindex')
        .header('cache-control', 'private, max-age=60')
        .type('text/html; charset=utf-8');
      if (html === null) {
        return reply
          .code(404)
          .send(
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body style="font-family:sans-serif;padding:40px;text-align:center"><h1>This email is not available</h1><p>The link may be mistyped, or the sender has removed it.</p></body></html>',
          );
      }
      return reply.send(html);
    },
  );

  // Public: uploaded newsletter images, fetched by mail clients.
  app.get(
    '/media/:name',
    { schema: { hide: true, params: z.object({ name: z.string().max(100) }) } },
    async (request, reply) => {
      const file = await findMediaFile(env.DATA_DIR, request.params.name);
      if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
      return (
        reply
          .header('x-content-type-options', 'nosniff')
          // Mail clients, webmail pages and the editor's sandboxed preview load these from other origins;
          // helmet's same-origin default would show every uploaded image as broken there.
          .header('cross-origin-resource-policy', 'cross-origin')
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('content-security-policy', "default-src 'none'")
          .type(contentTypeOf(request.params.name))
          .send(createReadStream(file))
      );
    },
  );
}
