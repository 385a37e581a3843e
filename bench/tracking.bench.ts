// Open pixel and click redirect under load, against a bare Fastify hello-world in the same run.
// `npm run bench -- tracking [--db postgres] [--count N]` (N: outbox messages, default 1,000).
//
// The real app (buildApp, production log level) serves on loopback; autocannon (50 connections, a mix of
// each message's pixel and a click) runs in a child process (bench/http-load.mjs), so the load generator
// has its own event loop and core instead of sharing the server's. Each side gets one pass over its distinct
// requests (so every message is in the token cache, as in the steady state), a 2 s warm-up and a 2 s
// calibration, then a fixed number of requests sized for ~10 s: with a fixed amount every request sent
// is answered before the run ends, so the run's 2xx/3xx responses can be matched one for one against
// the events counted in email_events afterwards (`lost` = responses - events; opens inferred from clicks
// carry metadata and are not counted). Intermediate lines also give CPU time per request of this process
// and of the PostgreSQL backends, which say more than req/s on a shared two-core machine.
// BENCH_LOADER=inline runs autocannon inside the server process instead, to compare; BENCH_CPU_PROFILE
// writes a CPU profile of the measured tracking run (BENCH_CPU_PROFILE_BASELINE: of the hello-world's,
// BENCH_LOADER_PROFILE=<dir>: of each load generator run); BENCH_SECONDS changes the ~10 s,
// BENCH_CONNECTIONS the 50 connections. BENCH_PGLITE_DATA_DIR=1 runs PGlite on a fresh data directory, as the
// product runs it (DATA_DIR), instead of in memory; a path keeps the directory there.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildApp } from '@server/app';
import type { DatabaseHandle } from '@server/db/client';
import { campaignContacts, campaigns, emailEvents, outboxMessages, users } from '@server/db/schema/index';
import { parseEnv } from '@server/env';
import { ephemeralSecrets } from '@server/lib/secrets';
import { TRACKING_PATHS } from '@shared/sending';
import autocannon from 'autocannon';
import { and, eq, isNull, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { createBenchDatabase } from './support';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

interface LoadResult {
  responses: number;
  ok2xx: number;
  ok3xx: number;
  other: number;
  errors: number;
  timeouts: number;
  durationS: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the load generator's process (child-process loader only). */
  loaderCpuUs?: number;
}

type LoadOptions = {
  url: string;
  connections: number;
  requests: { method: 'GET'; path: string }[];
  headers: Record<string, string>;
} & ({ duration: number } | { amount: number });

async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const full = { ...options, sampleInt: 100 };
  if (process.env.BENCH_LOADER === 'inline') {
    const result = await autocannon(full);
    return {
      responses: result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'],
      ok2xx: result['2xx'],
      ok3xx: result['3xx'],
      other: result['1xx'] + result['4xx'] + result['5xx'],
      errors: result.errors,
      timeouts: result.timeouts,
      durationS: result.duration,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
    };
  }
  const profileDir = process.env.BENCH_LOADER_PROFILE;
  const child = fork(fileURLToPath(new URL('./http-load.mjs', import.meta.url)), [], {
    execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: ({ ok: true } & LoadResult) | { ok: false; message: string }) => {
      if (message.ok) resolve(message);
      else reject(new Error(message.message));
    });
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
    });
    child.send(full);
  });
}

/**
 * With BENCH_CPU_PROFILE=<file>, the server process is profiled during the measured tracking run
 * (open the file in Chrome DevTools or speedscope).
 */
async function profiled<T>(file: string | undefined, work: () => Promise<T>): Promise<T> {
  if (!file) return work();
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    process.stdout.write(`CPU profile of the measured run written to ${file}\n`);
  }
}

/**
 * A warm-up and a calibration by time, then a fixed number of requests sized from the calibration's
 * rate: with a fixed amount every request sent is answered before the run ends, so responses can be
 * matched one for one against events. `beforeMeasure` runs between calibration and measurement.
 */
async function measure(
  label: string,
  base: Omit<LoadOptions, 'duration' | 'amount'>,
  options: {
    beforeMeasure?: () => Promise<void>;
    /** Where to write a CPU profile of the measured run. */
    profile?: string;
    /** CPU microseconds spent elsewhere (the database server), read before and after the run. */
    externalCpu?: () => Promise<Map<number, number> | null>;
  } = {},
) {
  // Every distinct request once first: on a loaded machine the timed warm-up alone may not reach them all,
  // and the measured run would then count first lookups (a query each) instead of the steady state.
  await runLoad({ ...base, amount: Math.max(base.requests.length, CONNECTIONS) });
  const warm = await runLoad({ ...base, duration: WARMUP_SECONDS });
  const calibration = await runLoad({ ...base, duration: WARMUP_SECONDS });
  const calibratedRps = calibration.responses / calibration.durationS;
  const amount = Math.max(CONNECTIONS * 20, Math.round(calibratedRps * SECONDS));
  await options.beforeMeasure?.();
  const externalBefore = (await options.externalCpu?.()) ?? null;
  const cpuBefore = process.cpuUsage();
  const mainCpuBefore = process.threadCpuUsage();
  const eluBefore = performance.eventLoopUtilization();
  const result = await profiled(options.profile, () => runLoad({ ...base, amount }));
  const cpu = process.cpuUsage(cpuBefore);
  const mainCpu = process.threadCpuUsage(mainCpuBefore);
  const elu = performance.eventLoopUtilization(eluBefore).utilization;
  const externalAfter = (await options.externalCpu?.()) ?? null;
  let externalUsPerRequest: number | null = null;
  if (externalBefore !== null && externalAfter !== null) {
    // Per backend: one that the pool closed during the run (idle timeout) would otherwise take its whole
    // CPU time out of the sum (it is missed instead); one that started counts whole.
    let us = 0;
    for (const [pid, after] of externalAfter) us += after - (externalBefore.get(pid) ?? 0);
    externalUsPerRequest = Math.round(us / result.responses);
  }
  // CPU time this process spent per request: unlike req/s, it barely moves when other programs share
  // the machine, so it tells whether a change made the server cheaper.
  const cpuUsPerRequest = Math.round((cpu.user + cpu.system) / result.responses);
  // process.cpuUsage counts every thread (PGlite has one of its own); the main thread's share is what
  // competes with HTTP, and its event loop's utilisation says how close it came to saturation.
  const mainCpuUsPerRequest = Math.round((mainCpu.user + mainCpu.system) / result.responses);
  const warmRps = warm.responses / warm.durationS;
  const rps = Math.round(result.responses / result.durationS);
  process.stdout.write(
    `${label}: warm-up ${Math.round(warmRps)} req/s, calibration ${Math.round(calibratedRps)} req/s; ${result.responses} requests in ${result.durationS} s = ${rps} req/s, ` +
      `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, 2xx ${result.ok2xx}, 3xx ${result.ok3xx}, other ${result.other}, ` +
      `errors ${result.errors}, server CPU ${cpuUsPerRequest} µs/request (main thread ${mainCpuUsPerRequest}, ` +
      `event loop ${Math.round(elu * 100)}% busy)` +
      (externalUsPerRequest === null ? '' : `, PostgreSQL CPU ${externalUsPerRequest} µs/request`) +
      (result.loaderCpuUs === undefined
        ? ''
        : `, load generator CPU ${Math.round(result.loaderCpuUs / result.responses)} µs/request`) +
      '\n',
  );
  return { result, rps, cpuUsPerRequest, mainCpuUsPerRequest, elu };
}

/**
 * CPU time (µs) of each PostgreSQL backend serving this benchmark's database, from /proc: the database
 * runs on this machine and shares its two cores, so its cost per request belongs in the picture.
 * Null where /proc cannot tell (another machine, another OS).
 */
export async function postgresBackendCpu(database: DatabaseHandle): Promise<Map<number, number> | null> {
  const { rows } = await database.executeSql(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const cpu = new Map<number, number>();
  try {
    for (const row of rows) {
      const stat = readFileSync(`/proc/${row.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of /proc/<pid>/stat (11 and 12 after the command name), in
      // clock ticks of 1/100 s (USER_HZ).
      cpu.set(Number(row.pid), (Number(fields[11]) + Number(fields[12])) * 10_000);
    }
  } catch {
    return null;
  }
  return cpu;
}

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  const messages = options.count ?? 1_000;
  const bench = options.db === 'postgres' ? await createBenchDatabase() : null;
  // PGlite in memory (the default) never writes a file; the product's PGlite keeps its data directory on
  // disk, where every page and WAL write is a file system call.
  const dataDirOption = options.db === 'pglite' ? process.env.BENCH_PGLITE_DATA_DIR : undefined;
  const keptDir = dataDirOption && dataDirOption !== '1' ? dataDirOption : undefined;
  const freshDir =
    dataDirOption === '1' ? mkdtempSync(path.join(tmpdir(), 'tambari-bench-tracking-')) : undefined;
  const dataDir = keptDir ?? freshDir;
  // Production's default log level; the hot routes themselves log only warnings (their route option).
  const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
  const app = await buildApp({
    env: parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: logLevel,
      DEV_MAILBOX_PORT: '0',
      ...(bench ? { DATABASE_URL: bench.url } : {}),
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
    }),
    secrets: ephemeralSecrets(),
    persistent: dataDir !== undefined,
  });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const { db } = app.services;

    const userId = `bench-${process.pid}-${Date.now()}`;
    await db.insert(users).values({ id: userId, name: 'Bench', email: `${userId}@tambari.test` });
    const [campaign] = await db
      .insert(campaigns)
      .values({ userId, name: 'Tracking bench', status: 'active' })
      .returning();
    const tokens: string[] = [];
    const sentAt = new Date(Date.now() - 3_600_000);
    for (let start = 0; start < messages; start += 500) {
      const size = Math.min(500, messages - start);
      const contacts = await db
        .insert(campaignContacts)
        .values(
          Array.from({ length: size }, (_, i) => ({
            campaignId: campaign!.id,
            userId,
            email: `lead${start + i}@bench.example.com`,
          })),
        )
        .returning({ id: campaignContacts.id, email: campaignContacts.email });
      const rows = await db
        .insert(outboxMessages)
        .values(
          contacts.map((contact, i) => ({
            token: crypto.getRandomValues(Buffer.alloc(16)).toString('base64url'),
            userId,
            campaignId: campaign!.id,
            campaignContactId: contact.id,
            toEmail: contact.email,
            subject: 'Bench',
            html: '<p>Hello</p>',
            messageId: `bench-${start + i}-${Date.now()}@bench.example.com`,
            links: ['https://kanofoods.example.com/offer', 'https://kanofoods.example.com/about'],
            state: 'sent' as const,
            sentAt,
          })),
        )
        .returning({ token: outboxMessages.token });
      tokens.push(...rows.map((r) => r.token));
    }
    process.stdout.write(
      `seeded ${tokens.length} sent messages on ${options.db}${dataDir ? ` (data directory ${dataDir})` : options.db === 'pglite' ? ' (in memory)' : ''}; log level ${logLevel}; loader ${process.env.BENCH_LOADER ?? 'child process'}\n`,
    );

    // Each message: its pixel, then a click on one of its two links.
    const requests = tokens.flatMap((token, i) => [
      { method: 'GET' as const, path: TRACKING_PATHS.open(token) },
      { method: 'GET' as const, path: TRACKING_PATHS.click(token, i % 2) },
    ]);
    const headers = { 'user-agent': USER_AGENT };

    const countEvents = async () => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(emailEvents)
        .where(and(eq(emailEvents.userId, userId), isNull(emailEvents.metadata)));
      return Number(row?.n ?? 0);
    };

    let before = 0;
    const tracking = await measure(
      'tracking (pixel + click)',
      { url, connections: CONNECTIONS, requests, headers },
      {
        profile: process.env.BENCH_CPU_PROFILE,
        externalCpu: bench ? () => postgresBackendCpu(app.services.database) : undefined,
        // The warm-up's last requests may still be finishing when its time is up; they are let through and
        // written, so the count below holds only the measured run's events.
        beforeMeasure: async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          await app.services.trackingBuffer.flush();
          before = await countEvents();
        },
      },
    );
    await app.services.trackingBuffer.flush();
    const events = (await countEvents()) - before;
    const answered = tracking.result.ok2xx + tracking.result.ok3xx;
    const lost = answered - events;
    process.stdout.write(
      `events in email_events for the measured run: ${events} for ${answered} 2xx/3xx responses; lost ${lost}; ` +
        `buffer: ${JSON.stringify(app.services.trackingBuffer.stats)}\n`,
    );

    const hello = Fastify({ logger: false });
    hello.get('/hello', async () => ({ hello: 'world' }));
    await hello.listen({ host: '127.0.0.1', port: 0 });
    const helloUrl = `http://127.0.0.1:${(hello.server.address() as AddressInfo).port}`;
    const baseline = await measure(
      'bare Fastify hello-world',
      {
        url: helloUrl,
        connections: CONNECTIONS,
        requests: [{ method: 'GET', path: '/hello' }],
        headers,
      },
      { profile: process.env.BENCH_CPU_PROFILE_BASELINE },
    );
    await hello.close();

    return {
      bench: 'tracking',
      db: dataDir ? 'pglite-data-dir' : options.db,
      rps: tracking.rps,
      p99_ms: tracking.result.p99Ms,
      hello_rps: baseline.rps,
      ratio: Number((tracking.rps / baseline.rps).toFixed(2)),
      // Server CPU per request, hello-world's over the tracking hit's: on a machine shared with other
      // programs req/s say much about the neighbours, CPU per request less (it still falls a little as
      // the load rises and more requests share each turn of the event loop).
      cpu_ratio: Number((baseline.cpuUsPerRequest / tracking.cpuUsPerRequest).toFixed(2)),
      cpu_us_per_request: tracking.cpuUsPerRequest,
      main_thread_cpu_us_per_request: tracking.mainCpuUsPerRequest,
      event_loop_utilization: Number(tracking.elu.toFixed(2)),
      hello_cpu_us_per_request: baseline.cpuUsPerRequest,
      lost,
    };
  } finally {
    await app.close();
    await bench?.drop();
    if (freshDir) rmSync(freshDir, { recursive: true, force: true });
  }
}
