import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createUser, type TestUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import Fastify, { type FastifyInstance } from 'fastify';
import pino, { type LoggerOptions } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index';
import { parseEnv } from '../env';
import { errorHandler } from './error-handler';
import { loggerOptions } from './logger';

/** The app's real logger options, writing JSON lines into memory instead of stdout. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const options = loggerOptions(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info' })) as LoggerOptions;
  return { log: pino(options, stream), text: () => lines.join('') };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the query to fail');
}

describe('database errors in the logs', () => {
  let app: FastifyInstance;
  let existing: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    existing = await createUser(app);
  });
  afterAll(() => app.close());

  it('keeps SQL parameters and echoed values (emails, secrets) out of a failed insert’s log line', async () => {
    const secret = `sealed-smtp-password-${randomUUID()}`;
    const error = await caught(
      app.services.db
        .insert(users)
        .values({ id: randomUUID(), name: secret, email: existing.email, firstName: secret }),
    );
    // The error does carry them (drizzle's params and message, PostgreSQL's detail on the cause).
    expect(String((error as Error).message)).toContain(existing.email);

    const { log, text } = capturingLogger();
    log.error({ err: error }, 'insert failed');
    const logged = text();
    expect(logged).toContain('insert failed');
    expect(logged).toContain('Failed query: insert into');
    expect(logged).toContain('[redacted]');
    expect(logged).not.toContain(existing.email);
    expect(logged).not.toContain(secret);
  });

  it('applies through Fastify: the error handler’s 500 log line carries no parameters', async () => {
    const secret = `sealed-${randomUUID()}`;
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const options = loggerOptions(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info' })) as object;
    const server = Fastify({ logger: { ...options, stream } });
    server.setErrorHandler(errorHandler);
    server.get('/boom', async () => {
      await app.services.db
        .insert(users)
        .values({ id: randomUUID(), name: secret, email: existing.email, firstName: secret });
    });
    const response = await server.inject({ method: 'GET', url: '/boom' });
    await server.close();
    expect(response.statusCode).toBe(500);
    const logged = lines.join('');
    expect(logged).toContain('DrizzleQueryError');
    expect(logged).not.toContain(existing.email);
    expect(logged).not.toContain(secret);
  });

  it('redacts a bare driver error’s detail and parameters too', async () => {
    const secret = `api-key-${randomUUID()}`;
    const error = await caught(
      app.services.database.executeSql('INSERT INTO "user" (id, name, email) VALUES ($1, $2, $3)', [
        randomUUID(),
        secret,
        existing.email,
      ]),
    );
    const { log, text } = capturingLogger();
    log.error({ err: error }, 'raw insert failed');
    expect(text()).toContain('raw insert failed');
    expect(text()).not.toContain(existing.email);
    expect(text()).not.toContain(secret);
  });
});
