import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
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
