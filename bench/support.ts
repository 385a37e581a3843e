import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, DatabaseHandle } from '@server/db/client';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

/**
 * The V8 flags of a worker process, as `npm run start:worker` starts it (keep the two the same): a 16 MB
 * young generation (V8 grows it to 128 MB+ while the modules load and keeps it) and an old generation
 * that grows by 60% between major collections instead of up to 4× (a 1,000,000-row import peaked at
 * ~350 MB of RSS without it, ~230 MB with it, for about a tenth of its speed; docs/deploy.md).
 */
export const WORKER_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=60'] as const;

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh PostgreSQL database for one benchmark run, dropped by the returned function. */
export async function createBenchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${process.env.BENCH_DB_PREFIX ?? 'tambari_bench_'}${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BENCH_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: BENCH_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export type BenchDb = 'pglite' | 'postgres';

/** A bench's database, opened and migrated; `close` undoes what `openBenchDatabase` made. */
export interface BenchDatabase {
  database: DatabaseHandle;
  /** PostgreSQL's URL (a fresh database or a reused one); undefined on PGlite. */
  url?: string;
  /** Closes the database, then drops the fresh PostgreSQL database or removes the fresh PGlite directory. */
  close(): Promise<void>;
}

/**
 * The database of a `--db pglite|postgres` run, migrated: on PostgreSQL a fresh database (dropped by
 * `close`), or the one the environment variable `reuseUrlEnv` names (kept); on PGlite a fresh data
 * directory (removed by `close`), or the one `reuseDirEnv` names (created if missing, kept). The app
 * modules load only here, so benches that need none of this do not pay for them.
 */
export async function openBenchDatabase(
  db: BenchDb,
  options: { reuseUrlEnv?: string; reuseDirEnv?: string } = {},
): Promise<BenchDatabase> {
  const { openDatabase } = await import('@server/db/client');
  const reuseUrl = db === 'postgres' && options.reuseUrlEnv ? process.env[options.reuseUrlEnv] : undefined;
  const fresh = db === 'postgres' && !reuseUrl ? await createBenchDatabase() : null;
  const keptDir = db === 'pglite' && options.reuseDirEnv ? process.env[options.reuseDirEnv] : undefined;
  if (keptDir) mkdirSync(keptDir, { recursive: true });
  const freshDir = db === 'pglite' && !keptDir ? mkdtempSync(path.join(tmpdir(), 'tambari-bench-')) : null;
  const url = reuseUrl ?? fresh?.url;
  const database = await openDatabase(url ? { url } : { dataDir: keptDir ?? freshDir! });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await database.close();
    await fresh?.drop();
    if (freshDir) rmSync(freshDir, { recursive: true, force: true });
  };
  try {
    await database.migrate();
  } catch (error) {
    await close();
    throw error;
  }
  return { database, url, close };
}

/**
 * The app in-process as the benches run it: test mode, silent, no dev mailbox, sign-in unthrottled, on
 * `database` (or, without one, a database of its own: `url`'s, or in-memory PGlite). `env` adds to or
 * overrides that environment.
 */
export async function buildBenchApp(
  options: { database?: DatabaseHandle; url?: string; env?: Record<string, string> } = {},
): Promise<FastifyInstance> {
  const [{ buildApp }, { parseEnv }, { ephemeralSecrets }] = await Promise.all([
    import('@server/app'),
    import('@server/env'),
    import('@server/lib/secrets'),
  ]);
  return buildApp({
    env: parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DEV_MAILBOX_PORT: '0',
      AUTH_RATE_LIMIT_MAX: '1000000',
      ...options.env,
      ...(options.url ? { DATABASE_URL: options.url } : {}),
    }),
    secrets: ephemeralSecrets(),
    ...(options.database ? { database: options.database } : {}),
    persistent: false,
  });
}

export const BENCH_PASSWORD = 'Bench-pass-2026';

/** Registers `email` through the API (password BENCH_PASSWORD); returns the new user's id. */
export async function registerBenchUser(app: FastifyInstance, email: string): Promise<string> {
  const registered = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { email, password: BENCH_PASSWORD, firstName: 'Bench' },
  });
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.body}`);
  return registered.json<{ id: string }>().id;
}

/** Signs `email` in through the API; returns its session cookie (`name=value`). */
export async function loginBenchUser(app: FastifyInstance, email: string): Promise<string> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: BENCH_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login: ${login.body}`);
  return String(login.headers['set-cookie']).split(';')[0]!;
}

/**
 * A fresh user signed in through the API, `prepare`d in between (made an admin, given a plan), since
 * the session reads the user as it is at sign-in: its id and session cookie.
 */
export async function signedInBenchUser(
  app: FastifyInstance,
  email: string,
  prepare?: (userId: string) => Promise<unknown>,
): Promise<{ id: string; cookie: string }> {
  const id = await registerBenchUser(app, email);
  await prepare?.(id);
  return { id, cookie: await loginBenchUser(app, email) };
}

/** The rows of a `db.execute` result. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The first column of the first row of `query`, as a number (0 when there is none). */
export async function scalar(database: { db: Database }, query: SQL): Promise<number> {
  const [row] = rowsOf<Record<string, unknown>>(await database.db.execute(query));
  return Number(Object.values(row ?? {})[0] ?? 0);
}

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Runs `task`, prints how long it took in seconds under `label` (indented), and returns both. */
export async function timedStep<T>(
  label: string,
  task: () => Promise<T>,
): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await task();
  const ms = performance.now() - started;
  say(`  ${label}: ${(ms / 1000).toFixed(1)} s`);
  return { result, ms };
}

/** Runs `task` and returns its result with its wall milliseconds. */
export async function timed<T>(task: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await task();
  return { result, ms: performance.now() - started };
}

/** p50, p95 and max of `timings` (ms, any order), rounded to `decimals` places. */
export function latencyStats(timings: number[], decimals = 1): { p50: number; p95: number; max: number } {
  const sorted = [...timings].sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10 ** decimals) / 10 ** decimals;
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? 0),
  };
}

/**
 * Nanoseconds on a CPU so far of the PostgreSQL server processes serving this database now (their
 * /proc/<pid>/schedstat), as a function read at will; a connection opened later is not counted, one
 * closed since (the pool closes idle ones) counts what it had at its last reading. Null on PGlite or
 * when /proc is not this server's (Linux, same machine).
 */
export async function postgresBackendsCpuClock(database: DatabaseHandle): Promise<(() => number) | null> {
  if (database.kind !== 'postgres') return null;
  const { rows } = await database.executeSql(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
     UNION SELECT pg_backend_pid()`,
  );
  const files = rows.map((row) => `/proc/${row.pid}/schedstat`);
  if (!files.every((file) => existsSync(file))) return null;
  const last = new Map<string, number>();
  return () =>
    files.reduce((sum, file) => {
      try {
        last.set(file, Number(readFileSync(file, 'utf8').split(' ')[0]));
      } catch {
        // a connection the pool closed: what it had when last read
      }
      return sum + (last.get(file) ?? 0);
    }, 0);
}

/** This process's CPU time so far, in milliseconds. */
export function processCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** `p50 1.2 ms, p95 3.4 ms, max 5.6 ms` of `sorted` (ms, ascending), for the percentiles asked. */
export function formatLatency(sorted: number[], percentiles: number[]): string {
  return [
    ...percentiles.map((p) => `p${p} ${percentile(sorted, p).toFixed(1)} ms`),
    `max ${sorted.at(-1)!.toFixed(1)} ms`,
  ].join(', ');
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** Runs `task` `total` times with `concurrency` in flight; returns per-call milliseconds and wall time. */
export async function load(total: number, concurrency: number, task: (i: number) => Promise<void>) {
  const timings: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        timings.push(performance.now() - t0);
      }
    }),
  );
  const wallMs = performance.now() - started;
  timings.sort((a, b) => a - b);
  return { timings, wallMs, perSecond: Math.round((total / wallMs) * 1000) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * The app as `npm start` runs it (the built client from WEB_DIST_DIR, default dist/web), on a fresh
 * embedded database in `dataDir`; resolves once /api/health answers.
 */
export async function startBuiltApp(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      DEV_MAILBOX_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  child.kill();
  throw new Error('the app did not answer /api/health within 5 minutes');
}

export async function stopApp(app: ChildProcess): Promise<void> {
  if (app.exitCode !== null) return;
  app.kill('SIGTERM');
  await new Promise((resolve) => app.once('exit', resolve));
}
