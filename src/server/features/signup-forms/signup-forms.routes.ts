import { errorResponses } from '@server/lib/errors';
import { requireSession } from '@server/lib/http';
import { uuidParamsSchema } from '@shared/contacts';
import { signupFormInputSchema, signupFormResponseSchema, signupFormSchema } from '@shared/signup-forms';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_HEADERS } from '../tracking/tracking.service';
import {
  CHECK_INBOX_PAGE,
  CONFIRMED_PAGE,
  FORM_CLOSED_PAGE,
  LINK_INVALID_PAGE,
  renderConfirmPage,
  renderSignupFormPage,
  TOO_MANY_PAGE,
} from './signup-form-pages';
import {
  confirmSignup,
  deleteSignupForm,
  getSignupForm,
  listConsents,
  loadConsentForLink,
  loadPublicForm,
  saveSignupForm,
  submitSignup,
} from './signup-forms.service';

const SUBSCRIBE_POST = /^\/subscribe\/(?:confirm\/[0-9a-f-]{36}\/[0-9a-f]{32}|[0-9a-f-]{36})\/?(?:\?|$)/i;

/**
 * A subscribe form embedded on the user's own site posts from that site, and the public pages send no
 * referrer (so the browser's Origin is "null"): the app's Origin check lets exactly these through. A
 * signup writes nothing a visitor could not write from our hosted page; a confirmation needs the
 * signed link, which only the address's owner received.
 */
export function isPublicSignupPost(method: string, url: string): boolean {
  return method === 'POST' && SUBSCRIBE_POST.test(url);
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(html);
}

const consentListSchema = z.object({
  consents: z.array(
    z.object({
      email: z.string(),
      requestedAt: z.string(),
      confirmedAt: z.string(),
      consentText: z.string(),
      ipHash: z.string(),
    }),
  ),
});

export async function signupFormsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, mailer, env, secrets } = app.services;
  const tags = ['signup-forms'];
  const errors = errorResponses(400, 401, 404);
  const secret = secrets.sessionSecret;

  // The hosted page and embedded snippets post an HTML form.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get(
    '/api/lists/:id/signup-form',
    { schema: { tags, params: uuidParamsSchema, response: { 200: signupFormResponseSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      const form = await getSignupForm({
        db,
        appUrl: env.APP_URL,
        userId: user.id,
        listId: request.params.id,
      });
      return { form };
    },
  );

  app.put(
    '/api/lists/:id/signup-form',
    {
      schema: {
        tags,
        params: uuidParamsSchema,
        body: signupFormInputSchema,
        response: { 200: signupFormSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireSession(request);
      return saveSignupForm({
        db,
        appUrl: env.APP_URL,
        userId: user.id,
        listId: request.params.id,
        input: request.body,
      });
    },
  );

  app.delete(
    '/api/lists/:id/signup-form',
    { schema: { tags, params: uuidParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const { user } = await requireSession(request);
      await deleteSignupForm({ db, userId: user.id, listId: request.params.id });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/lists/:id/signup-form/consents',
    { schema: { tags, params: uuidParamsSchema, response: { 200: consentListSchema, ...errors } } },
    async (request) => {
      const { user } = await requireSession(request);
      const rows = await listConsents({ db, userId: user.id, listId: request.params.id });
      return {
        consents: rows.map((row) => ({
          email: row.email,
          requestedAt: row.requestedAt.toISOString(),
          confirmedAt: row.confirmedAt!.toISOString(),
          consentText: row.consentText,
          ipHash: row.ipHash.slice(0, 16),
        })),
      };
    },
  );

  const formParams = z.object({ formId: z.string() });

  app.get(
    '/subscribe/:formId',
    { schema: { tags, summary: 'Hosted subscribe page of a list', params: formParams } },
    async (request, reply) => {
      const form = await loadPublicForm({ db, formId: request.params.formId });
      if (!form) return sendPage(reply, 404, FORM_CLOSED_PAGE);
      return sendPage(reply, 200, renderSignupFormPage(form));
    },
  );

  app.post(
    '/subscribe/:formId',
    {
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
      schema: {
        tags,
        summary:
          'A signup from the hosted page or an embedded form: mails a confirmation link (double opt-in)',
        params: formParams,
      },
    },
    async (request, reply) => {
      const outcome = await submitSignup({
        db,
        mailer,
        appUrl: env.APP_URL,
        secret,
        formId: request.params.formId,
        body: request.body,
        ip: request.ip,
      });
      if (outcome.kind === 'closed') return sendPage(reply, 404, FORM_CLOSED_PAGE);
      if (outcome.kind === 'ip_limited') return sendPage(reply, 429, TOO_MANY_PAGE);
      if (outcome.kind === 'check_inbox') return sendPage(reply, 200, CHECK_INBOX_PAGE);
      const form = await loadPublicForm({ db, formId: request.params.formId });
      if (!form) return sendPage(reply, 404, FORM_CLOSED_PAGE);
      return sendPage(reply, 400, renderSignupFormPage(form, outcome));
    },
  );

  const confirmParams = z.object({ consentId: z.string(), signature: z.string() });

  app.get(
    '/subscribe/confirm/:consentId/:signature',
    {
      schema: {
        tags,
        summary: 'Confirmation page (changes nothing: mail scanners open links; the button confirms)',
        params: confirmParams,
      },
    },
    async (request, reply) => {
      const consent = await loadConsentForLink({ db, secret, ...request.params });
      if (!consent) return sendPage(reply, 404, LINK_INVALID_PAGE);
      const { consentId, signature } = request.params;
      return sendPage(reply, 200, renderConfirmPage(consent, `/subscribe/confirm/${consentId}/${signature}`));
    },
  );

  app.post(
    '/subscribe/confirm/:consentId/:signature',
    { schema: { tags, summary: 'Confirms a signup: the address joins the list', params: confirmParams } },
    async (request, reply) => {
      const outcome = await confirmSignup({ db, secret, ...request.params });
      if (outcome === 'invalid') return sendPage(reply, 404, LINK_INVALID_PAGE);
      if (outcome === 'closed') return sendPage(reply, 409, FORM_CLOSED_PAGE);
      return sendPage(reply, 200, CONFIRMED_PAGE);
    },
  );
}
