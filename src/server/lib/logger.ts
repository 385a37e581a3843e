import type { FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type LevelWithSilent, type LoggerOptions, stdSerializers } from 'pino';
import pretty from 'pino-pretty';
import type { Env } from '../env';
import type { LogSink } from './log-sink';

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

/**
 * Where a request went: the route's pattern (`/u/:token`, `/api/campaigns/:id`), or the path without its
 * query string when no route matched. Raw URLs can carry unsubscribe tokens and reset links.
 */
function routeOf(request: FastifyRequest | undefined): string | undefined {
  if (!request) return undefined;
  return request.routeOptions?.url ?? request.url?.split('?')[0];
}

function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: routeOf(request), remoteAddress: request.ip };
}

/** The completion line also names the route and the signed-in user, so one line answers "who, what, how". */
function serializeReply(reply: FastifyReply) {
  const request = reply.request as FastifyRequest | undefined;
  return {
    statusCode: reply.statusCode,
    method: request?.method,
    url: routeOf(request),
    userId: request?.sessionCache?.user?.id,
  };
}

/** Serializers for every pino logger of the app (Fastify's and the worker's). */
export const logSerializers = { err: serializeError };

/** Paths pino removes from every line before any destination sees it. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.authorization',
  '*.secret',
];

const LEVEL_ORDER: LevelWithSilent[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function lowerLevel(a: LevelWithSilent, b: LevelWithSilent): LevelWithSilent {
  return LEVEL_ORDER.indexOf(a) <= LEVEL_ORDER.indexOf(b) ? a : b;
}

/**
 * The destinations of a process's lines: stdout (pretty in development) at LOG_LEVEL, and the log table
 * at LOG_TABLE_LEVEL when a sink is given. Null when both are silent.
 */
function destinations(env: Env, sink: LogSink | undefined) {
  const tableLevel: LevelWithSilent = sink ? (env.LOG_TABLE_LEVEL ?? env.LOG_LEVEL) : 'silent';
  const streams: { level: LevelWithSilent; stream: DestinationStream }[] = [];
  if (env.LOG_LEVEL !== 'silent') {
    const out =
      env.NODE_ENV === 'development'
        ? pretty({ translateTime: 'HH:MM:ss', ignore: 'pid,hostname,process' })
        : pino.destination({ dest: 1, sync: false });
    streams.push({ level: env.LOG_LEVEL, stream: out });
  }
  if (sink && tableLevel !== 'silent') streams.push({ level: tableLevel, stream: sink });
  if (streams.length === 0) return null;
  return { level: lowerLevel(env.LOG_LEVEL, tableLevel), stream: pino.multistream(streams) };
}

function baseOptions(level: LevelWithSilent): LoggerOptions {
  return {
    level,
    serializers: { ...logSerializers, req: serializeRequest, res: serializeReply },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}

/**
 * Fastify's pino options: lines to stdout (pretty in development, JSON elsewhere) and, with a sink, to
 * the log table; secrets never logged.
 */
export function loggerOptions(env: Env, sink?: LogSink, processName = 'web'): FastifyServerOptions['logger'] {
  if (!sink) {
    if (env.LOG_LEVEL === 'silent') return false;
    return {
      ...baseOptions(env.LOG_LEVEL),
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
  const out = destinations(env, sink);
  if (!out) return false;
  return { ...baseOptions(out.level), base: { process: processName }, stream: out.stream };
}

/** A standalone process's logger (the worker), with the same redaction and destinations as the web's. */
export function createProcessLogger(env: Env, sink: LogSink, processName: string): pino.Logger {
  const out = destinations(env, sink);
  if (!out) return pino({ level: 'silent' });
  return pino({ ...baseOptions(out.level), base: { process: processName } }, out.stream);
}
