// A newsletter to N list contacts (default 1,000,000) end to end, on PostgreSQL: one web process and two
// worker processes started as `npm run start:web` / `npm run start:worker` start them (their node flags
// read from package.json), the newsletter (ten tracked links) sent through 20 sender accounts to an SMTP
// sink on loopback. Timed from the "send now" call (POST /api/newsletters/:id/send) to the last message
// the sink accepted. Meanwhile the newsletter's page is polled as the browser would, a little harder:
// every 250 ms the newsletter, its progress and its report at once, each answer timed.
// In the same run, after the send: the bare rate of nodemailer pools (2 processes, pools of 10, the same
// sink, one of the newsletter's own messages byte for byte) on min(N, 100,000) messages, with the sink
// checking each message as it checked the newsletter's (the ratio's yardstick), then again with a sink
// that only counts (`ratio_vs_light_sink`, the yardstick until 2026-11-28).
// The sink (bench/newsletter-sink.ts, a process of its own) counts by Message-ID and by recipient
// (duplicates, lost) and checks every message's List-Unsubscribe, open pixel and ten tracked links.
// After the last message: how long until the newsletter's status is 'sent' (the finish, run by the
// finish-newsletter-sends jobs the drains ask for, `finish_jobs` of them in the run, or by the
// send-scheduled-newsletters job's next tick), and PostgreSQL's CPU meanwhile
// (`postgres_cpu_after_last_message_ms`).
// PostgreSQL CPU is that of this database's backends (pg_stat_activity, /proc), sampled every second.
// Peak RSS is each process's VmHWM (also read just before the send: the web process holds most of its
// peak from start-up). BENCH_WEB_PROFILE / BENCH_WORKER_PROFILE / BENCH_SINK_PROFILE=<dir>: CPU profiles
// of those processes. `sink_wire` says how each sender talked to the sink, per message: connections
// opened, commands, socket reads and bytes (on 2026-11-29 the same for ours as for the bare pools, but
// for 240 connections against about 204: 20 accounts x 2 connections x 2 workers, 100 messages each).
//
// One departure from the product, in the bench database only: an account may send at most 300 a day
// (sender_accounts' check constraints), so 20 accounts send 6,000 a day; the constraints are dropped and
// the caps set to N so the accounts' rotation, locks and counters do the same work without stopping.
// `npm run bench -- newsletter-million [--count N]` (always PostgreSQL: several processes share it).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DatabaseHandle, openDatabase } from '@server/db/client';
import { senderAccounts, users } from '@server/db/schema/index';
import { seedPricingPlans } from '@server/features/plans/plans.service';
import { encryptSecret } from '@server/lib/crypto';
import { eq } from 'drizzle-orm';
import type { SinkMode, SinkStats, WireStats } from './newsletter-sink';
import { prepareStatementStats, reportStatementStats, startStatementStats } from './pg-statements';
import { createBenchDatabase, percentile } from './support';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ACCOUNTS = 20;
const WORKERS = 2;
const LISTS = 4;
const LINKS = 10;
const POLL_MS = 250;
const BARE_MAX = 100_000;
const SITE = 'kanofoods.com.ng';
/** No message for this long while some are missing: the send is stuck, stop and count what is lost. */
const STALL_MS = 120_000;
/** How long the bench waits, after the last message, for the newsletter to be marked sent. */
const SENT_STATUS_WAIT_MS = 600_000;

const url = (i: number) => `https://${SITE}/p/${i}`;
const BLOCKS = [
  { id: 'h', type: 'heading', text: 'Kano Foods: November news', level: 1 },
  {
    id: 't1',
    type: 'text',
    text:
      'Hello {{ firstName | default: "friend" }},\n\n' +
      `${'We supply fresh produce to restaurants across Lagos, Abuja and Kano. '.repeat(6)}\n\n` +
      [0, 1, 2, 3].map((i) => `[Offer ${i + 1}](${url(i)})`).join(' · '),
  },
  { id: 'b1', type: 'button', label: 'See the menu', href: url(4) },
  {
    id: 't2',
    type: 'text',
    text:
      `${'Our drivers now reach Ibadan and Port Harcourt the same day. '.repeat(5)}\n\n` +
      [5, 6, 7].map((i) => `[Story ${i - 4}](${url(i)})`).join(' · '),
  },
  { id: 'b2', type: 'button', label: 'Order now', href: url(8) },
  { id: 't3', type: 'text', text: `Questions? [Write to us](${url(9)}).` },
  { id: 'f', type: 'footer', text: 'Kano Foods Ltd, 12 Marina Road, Lagos. You signed up on our website.' },
];

/** The node arguments of an npm script (`tsx file` runs as `node --import tsx file`, as tsx itself does). */
function scriptArgs(script: string): string[] {
  const scripts = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const words = scripts[script]!.split(/\s+/);
  if (words[0] === 'tsx') return ['--import', 'tsx', ...words.slice(1)];
  if (words[0] === 'node') return words.slice(1);
  throw new Error(`cannot read ${script}: ${scripts[script]}`);
}

function procStat(pid: number): { cpuMs: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks of 1/100 s.
    return { cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
  } catch {
    return null;
  }
}

function peakRssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * CPU of this database's backends: their pids from pg_stat_activity every second, each one's CPU from
 * /proc at its first and last sighting (a backend that starts meanwhile counts from zero).
 */
function postgresCpuMeter(database: DatabaseHandle) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = async (initial: boolean) => {
    const { rows } = await database.executeSql(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    for (const row of rows as { pid: number }[]) {
      const stat = procStat(Number(row.pid));
      if (!stat) continue;
      if (!first.has(row.pid)) first.set(row.pid, initial ? stat.cpuMs : 0);
      last.set(row.pid, stat.cpuMs);
    }
  };
  let timer: NodeJS.Timeout | null = null;
  return {
    start: async () => {
      await sample(true);
      timer = setInterval(() => void sample(false).catch(() => {}), 1000);
    },
    stop: async () => {
      if (timer) clearInterval(timer);
      await sample(false);
      let total = 0;
      for (const [pid, end] of last) total += end - (first.get(pid) ?? 0);
      return total;
    },
  };
}

interface Sink {
  port: number;
  stats(): Promise<SinkStats>;
  reset(mode: SinkMode): Promise<void>;
  close(): void;
}

async function startSink(expected: number): Promise<Sink> {
  const child = fork(
    fileURLToPath(new URL('./newsletter-sink.ts', import.meta.url)),
    [String(expected), String(LINKS), SITE],
    {
      // BENCH_SINK_PROFILE=<dir>: the sink writes a CPU profile there when it exits.
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.BENCH_SINK_PROFILE
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SINK_PROFILE}`]
          : []),
      ],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`sink exited ${code}`)));
  });
  // One request at a time: each answer is the next message.
  let chain: Promise<unknown> = Promise.resolve();
  const ask = <T>(command: object) => {
    const next = chain.then(
      () =>
        new Promise<T>((resolve) => {
          child.once('message', (m: T) => resolve(m));
          child.send(command);
        }),
    );
    chain = next.catch(() => {});
    return next;
  };
  return {
    port,
    stats: async () => (await ask<{ stats: SinkStats }>({ cmd: 'stats' })).stats,
    reset: async (mode) => {
      await ask({ cmd: 'reset', mode });
    },
    close: () => {
      if (child.connected) child.disconnect();
      child.kill('SIGTERM');
    },
  };
}

function startProcess(name: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Drained (a full pipe would stop the process); the last lines kept to say why it stopped.
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString());
    if (tail.length > 20) tail.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null) process.stderr.write(`${name} exited ${code}:\n${tail.join('')}\n`);
  });
  return child;
}

async function waitFor(predicate: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (
    !(await Promise.resolve()
      .then(predicate)
      .catch(() => false))
  ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The bare baseline: nodemailer pools sending one of the newsletter's messages, as it arrived, as fast as
 * the sink takes them. Returns the rate and the senders' CPU per message.
 */
async function bareRate(
  sinkPort: number,
  total: number,
  raw: string,
): Promise<{ rate: number; sendersCpuUsPerMsg: number }> {
  const script = `
    import nodemailer from 'nodemailer';
    const [port, count, offset] = process.argv.slice(1).map(Number);
    const raw = process.env.BARE_RAW;
    const t = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: 10, auth: { user: 'bare', pass: 'bare' } });
    let next = 0;
    await Promise.all(Array.from({ length: 100 }, async () => {
      while (next < count) {
        const i = offset + next++;
        await t.sendMail({ envelope: { from: 'news@sender.test', to: 'reader' + (i + 1) + '@example.com' }, raw });
      }
    }));
    t.close();
    const cpu = process.cpuUsage();
    process.stdout.write(String(cpu.user + cpu.system));`;
  const started = performance.now();
  const per = Math.floor(total / WORKERS);
  const cpuUs = await Promise.all(
    Array.from({ length: WORKERS }, (_, w) => {
      const child = spawn(
        process.execPath,
        ['--input-type=module', '-e', script, String(sinkPort), String(per), String(w * per)],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BARE_RAW: raw } },
      );
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      return new Promise<number>((resolve, reject) =>
        child.on('exit', (code) =>
          code === 0 ? resolve(Number(out) || 0) : reject(new Error(`bare sender exited ${code}`)),
        ),
      );
    }),
  );
  const sent = per * WORKERS;
  return {
    rate: Math.round((sent / (performance.now() - started)) * 1000),
    sendersCpuUsPerMsg: Math.round(cpuUs.reduce((a, b) => a + b, 0) / sent),
  };
}

/** How the senders talked to the sink, per message accepted (newsletter-sink.ts counts it). */
function wirePerMessage(wire: WireStats, accepted: number) {
  const per = (n: number) => Math.round((n / Math.max(1, accepted)) * 1000) / 1000;
  return {
    connections: wire.connections,
    reads_per_msg: per(wire.reads),
    bytes_per_msg: Math.round(wire.bytes / Math.max(1, accepted)),
    commands_per_msg: Object.fromEntries(Object.entries(wire.commands).map(([name, n]) => [name, per(n)])),
  };
}

function stats(timings: number[]) {
  const sorted = [...timings].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: Math.round(percentile(sorted, 50) * 10) / 10,
    p95: Math.round(percentile(sorted, 95) * 10) / 10,
    max: Math.round((sorted.at(-1) ?? 0) * 10) / 10,
  };
}

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  const total = options.count ?? 1_000_000;
  const bench = await createBenchDatabase();
  const sink = await startSink(total);
  const processes: ChildProcess[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-nl-million-'));
  const database = await openDatabase({ url: bench.url, poolSize: 4 });
  // Stopped by hand (a long run): the processes and the database go too.
  const interrupted = () => {
    for (const p of processes) if (p.exitCode === null) p.kill('SIGKILL');
    sink.close();
    void bench.drop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await database.migrate();
    await seedPricingPlans({ db: database.db });
    await database.executeSql(
      'ALTER TABLE sender_accounts DROP CONSTRAINT sender_accounts_daily_cap_check, DROP CONSTRAINT sender_accounts_sends_today_check',
    );
    await prepareStatementStats(database);

    const encryptionKey = randomBytes(32);
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: bench.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: appUrl,
      ENCRYPTION_KEY: encryptionKey.toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      DEV_MAILBOX_PORT: '0',
      AUTH_RATE_LIMIT_MAX: '1000',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      IMAP_IDLE_CONNECTIONS: '0',
    };
    // BENCH_WEB_PROFILE=<dir>: the web process writes a CPU profile there when it exits.
    const webProfile = process.env.BENCH_WEB_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WEB_PROFILE}`]
      : [];
    const web = startProcess('web', [...webProfile, ...scriptArgs('start:web')], env);
    processes.push(web);
    await waitFor(async () => (await fetch(`${appUrl}/api/health`)).ok, 120_000, 'the web process');

    const register = await fetch(`${appUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@kanofoods.com.ng', password: 'Bench-pass-2026', firstName: 'Ada' }),
    });
    if (!register.ok) throw new Error(`register answered ${register.status}: ${await register.text()}`);
    const cookie = register.headers.getSetCookie()[0]!.split(';')[0]!;
    const userId = ((await register.json()) as { id: string }).id;
    await database.db
      .update(users)
      .set({
        subscriptionPlan: 'enterprise',
        subscriptionStatus: 'active',
        subscriptionCurrentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
      })
      .where(eq(users.id, userId));
    const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${appUrl}${route}`, {
        method,
        headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    };

    // N readers over 4 lists, plus 1% of them in the first list as well (the send sends each once).
    const seedStart = performance.now();
    const { rows: lists } = await database.executeSql(
      `INSERT INTO contact_lists (user_id, name) SELECT $1, 'Readers ' || g FROM generate_series(1, ${LISTS}) g RETURNING id`,
      [userId],
    );
    const listIds = (lists as { id: string }[]).map((l) => l.id);
    await database.executeSql(
      `INSERT INTO list_contacts (user_id, list_id, email, email_normalized, first_name, last_name, city, country_code, source)
       SELECT $1, ($2::uuid[])[1 + (i - 1) % ${LISTS}], 'reader' || i || '@example.com', 'reader' || i || '@example.com',
         (array['Ada','Chidi','Ngozi','Kwame','Amara','Tunde'])[1 + i % 6], 'Obi', 'Lagos', 'NG', 'import'
       FROM generate_series(1, ${total}) i`,
      [userId, listIds],
    );
    await database.executeSql(
      `INSERT INTO list_contacts (user_id, list_id, email, email_normalized, first_name, source)
       SELECT $1, $2::uuid, 'reader' || i || '@example.com', 'reader' || i || '@example.com', 'Again', 'import'
       FROM generate_series(1, ${total}) i WHERE i % 100 = 2`,
      [userId, listIds[0]],
    );
    await database.executeSql(
      `UPDATE contact_lists l SET contact_count = (SELECT count(*) FROM list_contacts c WHERE c.list_id = l.id) WHERE user_id = $1`,
      [userId],
    );
    await database.executeSql('VACUUM ANALYZE list_contacts');
    const sealed = encryptSecret('sink-password', encryptionKey);
    const accounts = await database.db
      .insert(senderAccounts)
      .values(
        Array.from({ length: ACCOUNTS }, (_, i) => ({
          userId,
          label: `News ${i}`,
          fromName: 'Kano Foods',
          fromEmail: `news${i}@kanofoods.com.ng`,
          postalAddress: '12 Marina Road, Lagos, Nigeria',
          smtpHost: '127.0.0.1',
          smtpPort: sink.port,
          smtpSecurity: 'none' as const,
          smtpUser: `news${i}`,
          smtpPasswordEnc: sealed,
          dailyCap: total,
        })),
      )
      .returning({ id: senderAccounts.id });
    const newsletter = await api<{ id: string }>('POST', '/api/newsletters', {
      kind: 'newsletter',
      name: 'November news',
      subject: 'Kano Foods: November news',
      preheader: 'Fresh produce, same-day delivery',
      blocks: BLOCKS,
    });
    const seedMs = performance.now() - seedStart;
    process.stderr.write(
      `seeded ${total} readers in ${LISTS} lists, ${ACCOUNTS} accounts in ${Math.round(seedMs)} ms\n`,
    );

    const workers: ChildProcess[] = [];
    for (let i = 0; i < WORKERS; i++) {
      // BENCH_WORKER_PROFILE=<dir>: each worker writes a CPU profile there when it exits.
      const profile = process.env.BENCH_WORKER_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_PROFILE}`]
        : [];
      const worker = startProcess(`worker ${i + 1}`, [...profile, ...scriptArgs('start:worker')], env);
      processes.push(worker);
      workers.push(worker);
      await new Promise<void>((resolve, reject) => {
        worker.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('worker started')) resolve();
        });
        worker.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
      });
    }
    process.stderr.write(`web and ${WORKERS} workers up\n`);

    // The newsletter's page while it goes out: newsletter, progress and report, every 250 ms.
    const timings: Record<'newsletter' | 'progress' | 'report', number[]> = {
      newsletter: [],
      progress: [],
      report: [],
    };
    let polling = true;
    let lastProgress: unknown = null;
    const timed = async (key: keyof typeof timings, route: string) => {
      const t0 = performance.now();
      const res = await fetch(`${appUrl}${route}`, { headers: { cookie } });
      const body = await res.text();
      timings[key].push(performance.now() - t0);
      if (!res.ok) throw new Error(`GET ${route} answered ${res.status}: ${body}`);
      if (key === 'progress') lastProgress = JSON.parse(body);
    };
    const poller = (async () => {
      while (polling) {
        const tick = performance.now();
        await Promise.all([
          timed('newsletter', `/api/newsletters/${newsletter.id}`),
          timed('progress', `/api/newsletters/${newsletter.id}/progress`),
          timed('report', `/api/newsletters/${newsletter.id}/report`),
        ]);
        await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - (performance.now() - tick))));
      }
    })();

    const statementStats = await startStatementStats(database);
    const pgCpu = postgresCpuMeter(database);
    await pgCpu.start();
    const cpuBefore = processes.map((p) => procStat(p.pid!)?.cpuMs ?? 0);
    // Started and idle: what each process holds before the send (the send's own growth is the rest).
    const rssBefore = processes.map((p) => peakRssMb(p.pid));
    const sinkCpuBefore = (await sink.stats()).cpuUs;
    const startedAt = Date.now();
    const sent = await api<{ status: string }>('POST', `/api/newsletters/${newsletter.id}/send`, {
      listIds,
      senderAccountIds: accounts.map((a) => a.id),
    });
    const sendCallMs = Date.now() - startedAt;
    process.stderr.write(`send now answered in ${sendCallMs} ms (${sent.status})\n`);

    let last = await sink.stats();
    let lastChange = Date.now();
    let lastPrint = 0;
    let printedPolls = 0;
    while (last.uniqueRecipients < total) {
      await new Promise((r) => setTimeout(r, 500));
      const now = await sink.stats();
      if (now.accepted !== last.accepted) lastChange = Date.now();
      last = now;
      if (Date.now() - lastPrint > 10_000) {
        lastPrint = Date.now();
        const rss = processes.map((p) => peakRssMb(p.pid)).join('/');
        const recent = (key: keyof typeof timings) => stats(timings[key].slice(printedPolls)).p95;
        process.stderr.write(
          `${Math.round((Date.now() - startedAt) / 1000)} s: ${now.accepted} accepted; peak RSS web/workers ${rss} MB; ` +
            `page p95 since last line: newsletter ${recent('newsletter')} ms, progress ${recent('progress')} ms, report ${recent('report')} ms; ` +
            `progress ${JSON.stringify(lastProgress)}\n`,
        );
        printedPolls = timings.progress.length;
      }
      if (Date.now() - lastChange > STALL_MS) {
        process.stderr.write(`no message for ${STALL_MS / 1000} s: stopping\n`);
        break;
      }
      if (processes.some((p) => p.exitCode !== null)) throw new Error('a process stopped');
    }
    const totalMs = (last.lastAt ?? Date.now()) - startedAt;
    const firstMs = last.firstAt === null ? null : last.firstAt - startedAt;
    polling = false;
    await poller;
    const postgresMs = await pgCpu.stop();
    // PostgreSQL's CPU from the last message to 'sent': the finish's, and what runs alongside it.
    const finishCpu = postgresCpuMeter(database);
    await finishCpu.start();
    await reportStatementStats(database, statementStats, last.accepted);
    // CPU up to the last message (what per message means); the wait below is mostly idle.
    const cpuMs = processes.map((p, i) => (procStat(p.pid!)?.cpuMs ?? 0) - cpuBefore[i]!);
    // The finish marks the newsletter 'sent' once nothing is queued or in flight: a finish job a drain
    // asked for, or the send-scheduled-newsletters job's tick; the time from the last message accepted
    // to that status is the wait for one plus the finish itself (bench/newsletter-finish measures that).
    let sentStatusMs: number | null = null;
    if (last.uniqueRecipients === total) {
      const waitUntil = Date.now() + SENT_STATUS_WAIT_MS;
      while (Date.now() < waitUntil) {
        const { rows } = await database.executeSql('SELECT status FROM newsletters WHERE id = $1', [
          newsletter.id,
        ]);
        if ((rows[0] as { status: string } | undefined)?.status === 'sent') {
          sentStatusMs = Date.now() - (last.lastAt ?? Date.now());
          break;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      process.stderr.write(
        sentStatusMs === null
          ? `not 'sent' ${SENT_STATUS_WAIT_MS / 1000} s after the last message\n`
          : `'sent' ${sentStatusMs} ms after the last message accepted\n`,
      );
    }
    const finishPostgresMs = await finishCpu.stop();
    const { rows: finishJobs } = await database.executeSql(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'finish-newsletter-sends'`,
    );
    const rss = processes.map((p) => peakRssMb(p.pid));
    const { rows: outbox } = await database.executeSql(
      `SELECT state, count(*)::int AS n FROM outbox_messages GROUP BY state ORDER BY state`,
    );
    for (const p of processes) p.kill('SIGTERM');
    await Promise.all(
      processes.map((p) => (p.exitCode === null ? new Promise((r) => p.once('exit', r)) : null)),
    );

    const perMessageUs = (ms: number) => Math.round((ms * 1000) / Math.max(1, last.accepted));
    const page = {
      newsletter: stats(timings.newsletter),
      progress: stats(timings.progress),
      report: stats(timings.report),
      all: stats([...timings.newsletter, ...timings.progress, ...timings.report]),
    };
    const msgsPerSecond = Math.round((last.uniqueRecipients / totalMs) * 1000);
    process.stderr.write(
      `sent ${last.uniqueRecipients} of ${total} in ${(totalMs / 1000).toFixed(1)} s (${msgsPerSecond} msg/s), first after ${firstMs} ms\n` +
        `outbox: ${JSON.stringify(outbox)}\n` +
        `CPU per message: web ${perMessageUs(cpuMs[0]!)} µs, workers ${perMessageUs(cpuMs[1]! + cpuMs[2]!)} µs, PostgreSQL ${perMessageUs(postgresMs)} µs\n` +
        `page while sending (ms): ${JSON.stringify(page)}\n` +
        (last.problems.length ? `problems: ${last.problems.join('\n  ')}\n` : ''),
    );
    if (process.env.BENCH_SAMPLE) process.stderr.write(`${last.sample}\n`);

    // The baseline, on the same sink, after the send (the two would share the cores). The sink checks
    // each of the baseline's messages as it checked the newsletter's; the rate against a sink that only
    // counts is printed too, as the earlier yardstick.
    const bareCount = Math.min(total, BARE_MAX);
    const sinkCpuUsPerMsg = Math.round((last.cpuUs - sinkCpuBefore) / Math.max(1, last.accepted));
    const bareRun = async (mode: SinkMode) => {
      await sink.reset(mode);
      const run = await bareRate(sink.port, bareCount, last.sample ?? '');
      const after = await sink.stats();
      const sinkCpu = Math.round(after.cpuUs / bareCount);
      const wire = wirePerMessage(after.wire, after.accepted);
      process.stderr.write(
        `bare pool, sink ${mode}: ${run.rate} msg/s over ${bareCount} messages; CPU per message: senders ${run.sendersCpuUsPerMsg} µs, sink ${sinkCpu} µs; wire ${JSON.stringify(wire)}\n`,
      );
      return { ...run, sinkCpu, wire };
    };
    const bareChecked = await bareRun('bare');
    const bareLight = await bareRun('light');
    const bare = bareChecked.rate;
    const sendWire = wirePerMessage(last.wire, last.accepted);
    process.stderr.write(
      `sink CPU per message during the send: ${sinkCpuUsPerMsg} µs; wire ${JSON.stringify(sendWire)}\n`,
    );

    return {
      bench: 'newsletter-million',
      recipients: total,
      seed_s: Math.round(seedMs / 100) / 10,
      send_call_ms: sendCallMs,
      total_s: Math.round(totalMs / 100) / 10,
      msgs_per_s: msgsPerSecond,
      bare_msgs_per_s: bare,
      ratio: Math.round((msgsPerSecond / bare) * 100) / 100,
      goal_ratio: 0.6,
      bare_light_sink_msgs_per_s: bareLight.rate,
      ratio_vs_light_sink: Math.round((msgsPerSecond / bareLight.rate) * 100) / 100,
      bare_senders_cpu_us_per_msg: bareChecked.sendersCpuUsPerMsg,
      sink_cpu_us_per_msg: { send: sinkCpuUsPerMsg, bare: bareChecked.sinkCpu, light: bareLight.sinkCpu },
      sink_wire: { send: sendWire, bare: bareChecked.wire },
      first_message_ms: firstMs,
      sent_status_after_last_message_ms: sentStatusMs,
      postgres_cpu_after_last_message_ms: Math.round(finishPostgresMs),
      finish_jobs: (finishJobs[0] as { n: number } | undefined)?.n ?? null,
      postgres_cpu_us_per_msg: perMessageUs(postgresMs),
      workers_cpu_us_per_msg: perMessageUs(cpuMs[1]! + cpuMs[2]!),
      web_cpu_us_per_msg: perMessageUs(cpuMs[0]!),
      peak_rss_mb: { web: rss[0], worker1: rss[1], worker2: rss[2] },
      peak_rss_mb_before_send: { web: rssBefore[0], worker1: rssBefore[1], worker2: rssBefore[2] },
      goal_rss_mb: 400,
      accepted: last.accepted,
      duplicates: last.duplicatesById + last.duplicatesByRecipient,
      lost: total - last.uniqueRecipients,
      unknown_recipients: last.unknownRecipients,
      missing_list_unsubscribe: last.missingUnsubscribe,
      broken_tracking: last.brokenTracking,
      page_p95_ms: page.all.p95,
      page_p95_ms_by_endpoint: {
        newsletter: page.newsletter.p95,
        progress: page.progress.p95,
        report: page.report.p95,
      },
      page_polls: page.all.n,
      goal_page_p95_ms: 200,
    };
  } finally {
    for (const p of processes) if (p.exitCode === null) p.kill('SIGKILL');
    sink.close();
    await database.close();
    await bench.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
