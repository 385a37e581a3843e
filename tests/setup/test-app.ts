import { readFileSync } from 'node:fs';
import { buildApp } from '@server/app';
import { parseEnv } from '@server/env';
import { ephemeralSecrets } from '@server/lib/secrets';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';

let snapshot: Blob | undefined;

/** The suite's migrated PGlite dump (see global-setup), read once per test file; undefined on PostgreSQL. */
export function pgliteSnapshot(): Blob | undefined {
  const snapshotPath = inject('pgliteSnapshotPath');
  if (!snapshotPath) return undefined;
  snapshot ??= new Blob([readFileSync(snapshotPath)]);
  return snapshot;
}

/**
 * A whole app on the test database: in-memory PGlite per file, or the run's PostgreSQL database.
 * The development mailbox listens on a free port, so tests read the mail the app really sent.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const databaseUrl = inject('databaseUrl');
  return buildApp({
    env: parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DEV_MAILBOX_PORT: '0',
      AUTH_RATE_LIMIT_MAX: '10000',
      APP_URL: 'http://localhost:3000',
      WEB_DIST_DIR: '/nonexistent',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    }),
    secrets: ephemeralSecrets(),
    persistent: false,
    pgliteSnapshot: pgliteSnapshot(),
    runsWorkers: false,
  });
}

/** Sends a request carrying the given session cookie. */
export function as(app: FastifyInstance, cookie: string | undefined) {
  return (options: InjectOptions): Promise<LightMyRequestResponse> =>
    app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(cookie ? { cookie } : {}) } });
}

export function sessionCookieFrom(response: LightMyRequestResponse): string {
  const setCookie = response.headers['set-cookie'];
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const session = cookies.find((c) => c.startsWith('tambari.session_token='));
  if (!session) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return session.split(';')[0]!;
}
