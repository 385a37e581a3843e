import { MESSAGES } from '@shared/auth';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors';

interface FieldError {
  path: string;
  message: string;
}

/** The one place errors become responses: `{ message, code, ... }`. Only 5xx are logged as errors. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
    return reply.code(error.statusCode).send({ message: error.message, code: error.code, ...error.extra });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldError[] = error.validation.map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      if (issue.keyword === 'unrecognized_keys') {
        const keys = ((issue.params as { keys?: string[] } | undefined)?.keys ?? []).map(String);
        const fields = keys.join(', ');
        return { path: field || fields, message: `Unknown field${keys.length > 1 ? 's' : ''}: ${fields}` };
      }
      return { path: field, message: issue.message ?? 'Invalid value' };
    });
    const message = errors[0]?.message ?? 'The request is not valid.';
    return reply.code(400).send({ message, code: 'validation', errors });
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error }, 'response did not match its schema');
    return reply
      .code(500)
      .send({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return reply.code(400).send({ message: 'The request body is not valid JSON.', code: 'bad_request' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply.code(413).send({ message: 'The request body is too large.', code: 'payload_too_large' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply
        .code(415)
        .send({ message: 'Send the request body as JSON.', code: 'unsupported_media_type' });
  }
  const status = error.statusCode ?? 500;
  if (status === 429) {
    return reply.code(429).send({ message: MESSAGES.tooManyAttempts, code: 'rate_limited' });
  }
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ message: error.message, code: 'bad_request' });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply
    .code(500)
    .send({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
}

type SpaReply = FastifyReply & { sendFile?: (file: string) => FastifyReply };

/** API paths answer JSON 404; any other GET that wants HTML gets the single-page app (when built). */
export function notFoundHandler(request: FastifyRequest, reply: SpaReply) {
  const url = request.url.split('?')[0] ?? '';
  const wantsPage =
    request.method === 'GET' &&
    !url.startsWith('/api/') &&
    (request.headers.accept ?? '').includes('text/html');
  if (wantsPage && typeof reply.sendFile === 'function') {
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  }
  return reply.code(404).send({ message: `Route ${request.method} ${url} not found`, code: 'not_found' });
}
