import type { FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';
import type { Env } from '../env';

type SerializedError = ReturnType<typeof stdSerializers.err>;

const REDACTED = '[redacted]';
// Shorter parameter values (ids of a few digits, booleans, limits) are left: cutting them out of the
// message would mangle it, and they identify no one.
const MIN_REDACTED_VALUE_LENGTH = 4;

interface ErrorLike {
  message?: unknown;
  params?: unknown;
  parameters?: unknown;
  detail?: unknown;
  cause?: unknown;
}

/** The texts a database error carries that may hold users' data: bound parameters and PostgreSQL's detail. */
function sensitiveTexts(error: unknown): { fragments: string[]; values: string[] } {
  const fragments: string[] = [];
  const values: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const e = current as ErrorLike;
    for (const params of [e.params, e.parameters]) {
      if (!Array.isArray(params)) continue;
      // Drizzle's DrizzleQueryError message ends with exactly this line.
      fragments.push(`params: ${params}`);
      for (const value of params) {
        if (value === null || value === undefined) continue;
        const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
        if (text.length >= MIN_REDACTED_VALUE_LENGTH) values.push(text);
      }
    }
    // "Key (email)=(ada@example.com) already exists.", "Failing row contains (…)"
    if (typeof e.detail === 'string' && e.detail) fragments.push(e.detail);
    current = e.cause;
  }
  // Longest first, so a value inside another is not cut out of it first.
  values.sort((a, b) => b.length - a.length);
  return { fragments, values };
}

function redactText(text: string, sensitive: { fragments: string[]; values: string[] }): string {
  let out = text;
  for (const fragment of sensitive.fragments) {
    out = out.replaceAll(fragment, fragment.startsWith('params: ') ? `params: ${REDACTED}` : REDACTED);
  }
  for (const value of sensitive.values) out = out.replaceAll(value, REDACTED);
  return out;
}

/**
 * pino's error serializer, minus users' data: a failed query's bound parameters (owner ids, emails,
 * addresses, sealed SMTP passwords) leave the `params` property, drizzle's "params: …" line of the
 * message and stack, and PostgreSQL's `detail`, which echoes the values of a violated constraint.
 */
export function serializeError(error: Error): SerializedError {
  const serialized = stdSerializers.err(error);
  // Not error-like: pino hands the value back as it is.
  if (!serialized || typeof serialized !== 'object' || (serialized as unknown) === error) return serialized;
  const sensitive = sensitiveTexts(error);
  if (sensitive.fragments.length === 0 && sensitive.values.length === 0) return serialized;
  const out = serialized as SerializedError;
  for (const key of Object.keys(out)) {
    const value = out[key];
    if (key === 'params' || key === 'parameters' || key === 'detail') out[key] = REDACTED;
    else if (typeof value === 'string') out[key] = redactText(value, sensitive);
  }
  return out;
}

/** Serializers for every pino logger of the app (Fastify's and the worker's). */
export const logSerializers = { err: serializeError };

/** Fastify's pino options: pretty lines in development, JSON elsewhere; secrets never logged. */
export function loggerOptions(env: Env): FastifyServerOptions['logger'] {
  if (env.LOG_LEVEL === 'silent') return false;
  return {
    level: env.LOG_LEVEL,
    serializers: logSerializers,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password'],
      censor: '[redacted]',
    },
    ...(env.NODE_ENV === 'development'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}
