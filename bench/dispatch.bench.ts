// Dispatch throughput: 20,000 messages from 200 sender accounts to a local SMTP sink on loopback, random
// gap zero, on the real PostgreSQL with 2 worker processes (the real `src/worker/main.ts` with the flags of
// `npm run start:worker`, pg-boss
// jobs, leases, rotation, suppression checks, events). Timed from the first enqueue until every message
// is recorded as sent. In the same run: the bare rate of nodemailer's pool (2 processes, the same sink,
// the same message size). Duplicates and lost messages are counted at the sink against the outbox.
// `npm run bench -- dispatch [--count N]` (always PostgreSQL: several processes share the database).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@server/db/client';
import {
  campaignContacts,
  campaignSenderAccounts,
  campaigns,
  senderAccounts,
  users,
} from '@server/db/schema/index';
import { seedPricingPlans } from '@server/features/plans/plans.service';
import { queueMessages, releaseCampaignMessages } from '@server/features/sending/outbox.service';
import { startQueue } from '@server/jobs/queue';
import { encryptSecret } from '@server/lib/crypto';
import { startSmtpSink } from '@tests/fakes/smtp-sink';
import { eq, sql } from 'drizzle-orm';
import { createBenchDatabase, WORKER_NODE_FLAGS } from './support';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ACCOUNTS = 200;
const WORKERS = 2;
const BODY = `<html><body><p>Hello {{firstName}},</p><p>${'We supply fresh produce to restaurants across Lagos. '.repeat(8)}</p><p>See <a href="https://kanofoods.example.com/offer">our offer</a> and <a href="https://kanofoods.example.com/menu">the menu</a>.</p><p>Ada</p></body></html>`;

function peakRssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** CPU time (ms) a process has used so far, from /proc (Linux); 0 where it cannot be read. */
function processCpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time (ms) of every PostgreSQL server process on this machine (the database shares its cores). */
function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'postgres' || comm.startsWith('postgres:')) total += processCpuMs(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/**
 * CPU time (ms) of the PostgreSQL backends serving one database, by pid: the machine is shared, and the
 * figure above counts every other database's work too. Backends that ended meanwhile are not counted.
 */
function databaseBackendsCpuMs(database: string): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres:') && title.includes(` ${database} `)) {
        cpu.set(Number(entry), processCpuMs(Number(entry)));
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return cpu;
}

/** What the run wrote: outbox row versions (and how many were HOT), events, transactions. */
async function writeStats(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const result = await db.execute(sql`
    SELECT (SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'outbox_messages')::bigint AS upd,
      (SELECT n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'outbox_messages')::bigint AS hot,
      (SELECT sum(n_tup_ins) FROM pg_stat_user_tables WHERE relname LIKE 'email_events%')::bigint AS events,
      (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::bigint AS xacts`);
  const row = (result as unknown as { rows: Record<string, string>[] }).rows[0]!;
  return { upd: Number(row.upd), hot: Number(row.hot), events: Number(row.events), xacts: Number(row.xacts) };
}

async function waitFor(
  predicate: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The bare baseline: nodemailer pools sending prebuilt messages as fast as the sink takes them. */
async function bareRate(sinkPort: number, total: number): Promise<number> {
  const script = `
    import nodemailer from 'nodemailer';
    const [port, count] = process.argv.slice(1).map(Number);
    const t = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: 10, auth: { user: 'bare', pass: 'bare' } });
    const html = ${JSON.stringify(BODY)};
    let next = 0;
    await Promise.all(Array.from({ length: 100 }, async () => {
      while (next < count) {
        const i = next++;
        await t.sendMail({ from: 'Ada <ada@sender.test>', to: 'lead' + i + '@example.com', subject: 'Partnership', html, text: 'Hello', messageId: '<bare-' + process.pid + '-' + i + '@sender.test>' });
      }
    }));
    t.close();
    const cpu = process.cpuUsage();
    process.stdout.write(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 }));`;
  const started = performance.now();
  const sinkCpuBefore = process.cpuUsage();
  let sendersCpuMs = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, () => {
      const child = spawn(
        process.execPath,
        ['--input-type=module', '-e', script, String(sinkPort), String(total / WORKERS)],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      return new Promise<void>((resolve, reject) =>
        child.on('exit', (code) => {
          if (code !== 0) return reject(new Error(`bare sender exited ${code}`));
          sendersCpuMs += (JSON.parse(output) as { cpuMs: number }).cpuMs;
          resolve();
        }),
      );
    }),
  );
  const rate = Math.round((total / (performance.now() - started)) * 1000);
  const sinkCpu = process.cpuUsage(sinkCpuBefore);
  process.stderr.write(
    `bare: ${rate} msgs/s; CPU per message: senders ${Math.round((sendersCpuMs * 1000) / total)} µs, ` +
      `bench process (SMTP sink) ${Math.round((sinkCpu.user + sinkCpu.system) / total)} µs\n`,
  );
  return rate;
}

export async function run(options: {
  db: 'pglite' | 'postgres';
  count?: number;
}): Promise<Record<string, unknown>> {
  // Always the real PostgreSQL, whatever --db says: two worker processes cannot share an embedded PGlite.
  const total = options.count ?? 20_000;
  const bench = await createBenchDatabase();
  const sink = await startSmtpSink({ keepRaw: false });
  const workers: ChildProcess[] = [];
  try {
    const database = await openDatabase({ url: bench.url, poolSize: 6 });
    await database.migrate();
    await seedPricingPlans({ db: database.db });
    const encryptionKey = randomBytes(32);
    const userId = randomUUID();
    await database.db.insert(users).values({
      id: userId,
      name: 'Bench',
      email: `${userId}@tambari.test`,
      subscriptionPlan: 'enterprise',
      subscriptionStatus: 'active',
      subscriptionCurrentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    const sealed = encryptSecret('sink-password', encryptionKey);
    const accounts = await database.db
      .insert(senderAccounts)
      .values(
        Array.from({ length: ACCOUNTS }, (_, i) => ({
          userId,
          label: `Sender ${i}`,
          fromName: `Sender ${i}`,
          fromEmail: `sender${i}@sender.test`,
          postalAddress: '12 Marina Road, Lagos, Nigeria',
          smtpHost: '127.0.0.1',
          smtpPort: 2525,
          smtpSecurity: 'none' as const,
          smtpUser: `sender${i}`,
          smtpPasswordEnc: sealed,
          dailyCap: 300,
          isDevMailbox: true,
        })),
      )
      .returning({ id: senderAccounts.id });
    const [campaign] = await database.db
      .insert(campaigns)
      .values({
        userId,
        name: 'Bench campaign',
        // Paused until its first messages are queued: an active campaign with nothing queued is marked
        // completed by the sequencer's every-minute run, which on a loaded machine can come first.
        status: 'paused',
        windowStartMinute: 0,
        windowEndMinute: 1440,
        sendDays: [1, 2, 3, 4, 5, 6, 7],
        gapMinSeconds: 0,
        gapMaxSeconds: 0,
      })
      .returning();
    await database.db
      .insert(campaignSenderAccounts)
      .values(accounts.map((a) => ({ campaignId: campaign!.id, senderAccountId: a.id })));
    const contacts: { id: string; email: string }[] = [];
    for (let start = 0; start < total; start += 2_000) {
      contacts.push(
        ...(await database.db
          .insert(campaignContacts)
          .values(
            Array.from({ length: Math.min(2_000, total - start) }, (_, i) => ({
              campaignId: campaign!.id,
              userId,
              email: `lead${start + i}@example.com`,
              firstName: `Lead${start + i}`,
            })),
          )
          .returning({ id: campaignContacts.id, email: campaignContacts.email })),
      );
    }
    process.stderr.write(`set up ${ACCOUNTS} accounts and ${total} contacts\n`);

    const dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-dispatch-'));
    const workerEnv = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: bench.url,
      ENCRYPTION_KEY: encryptionKey.toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      DEV_MAILBOX_PORT: String(sink.port),
      LOG_LEVEL: 'info',
      DISPATCH_BATCH_SIZE: process.env.DISPATCH_BATCH_SIZE ?? '100',
      DISPATCH_CONCURRENCY: process.env.DISPATCH_CONCURRENCY ?? '3',
    };
    for (let i = 0; i < WORKERS; i++) {
      const child = spawn(
        process.execPath,
        [
          ...WORKER_NODE_FLAGS,
          // BENCH_WORKER_PROFILE=<dir>: each worker writes a CPU profile there when it exits.
          ...(process.env.BENCH_WORKER_PROFILE
            ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_PROFILE}`]
            : []),
          '--import',
          'tsx',
          'src/worker/main.ts',
        ],
        {
          cwd: ROOT,
          env: workerEnv,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      workers.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('worker started')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`worker exited ${code}`)));
      });
    }
    process.stderr.write(`${WORKERS} workers up\n`);

    const queue = await startQueue({ database, url: bench.url, runsWorkers: false });
    const sentCount = async () => {
      const result = await database.db.execute(
        sql`SELECT count(*) FILTER (WHERE state = 'sent')::int AS sent, count(*) FILTER (WHERE state NOT IN ('sent', 'queued', 'sending'))::int AS other FROM outbox_messages`,
      );
      const row = (result as unknown as { rows: { sent: number; other: number }[] }).rows[0]!;
      return { sent: Number(row.sent), other: Number(row.other) };
    };

    if (process.env.BENCH_PGSS) {
      await database.db.execute(sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
      await database.db.execute(
        sql`SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)`,
      );
    }
    const workerCpuBefore = workers.map((w) => processCpuMs(w.pid));
    const postgresCpuBefore = postgresCpuMs();
    const databaseName = new URL(bench.url).pathname.slice(1);
    const ownBackendsBefore = databaseBackendsCpuMs(databaseName);
    // Statistics reach pg_stat_* about once a second; wait so the setup's writes are counted before.
    await new Promise((r) => setTimeout(r, 1_200));
    const statsBefore = await writeStats(database.db);
    const benchCpuBefore = process.cpuUsage();
    let enqueueCpuMs = 0;
    const started = performance.now();
    for (let start = 0; start < total; start += 1_000) {
      const enqueueCpu = process.cpuUsage();
      await queueMessages({
        db: database.db,
        queue,
        appUrl: 'http://localhost:3000',
        campaign: campaign!,
        dispatchConcurrency: WORKERS * Number(workerEnv.DISPATCH_CONCURRENCY),
        messages: contacts.slice(start, start + 1_000).map((c) => ({
          campaignContactId: c.id,
          toEmail: c.email,
          subject: 'Partnership with Kano Foods',
          html: BODY,
        })),
      });
      if (start === 0) {
        // As a resume does: the status, then the messages queued while paused back on the due index.
        await database.db.update(campaigns).set({ status: 'active' }).where(eq(campaigns.id, campaign!.id));
        await releaseCampaignMessages(database.db, campaign!.id);
      }
      const spent = process.cpuUsage(enqueueCpu);
      enqueueCpuMs += (spent.user + spent.system) / 1000;
    }
    const enqueuedMs = performance.now() - started;
    // Counting the whole outbox scans a wide, fast-changing table: polled every 100 ms it cost the
    // database a third of a core. Polling only what is still queued or sending reads the two partial
    // indexes on those states, and the sink's own count (free) says when it is worth looking at all.
    const unfinished = async () => {
      const result = await database.db.execute(
        sql`SELECT (SELECT count(*) FROM outbox_messages WHERE state = 'queued')::int
          + (SELECT count(*) FROM outbox_messages WHERE state = 'sending')::int AS n`,
      );
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
    };
    let lastLook = performance.now();
    await waitFor(
      async () => {
        if (sink.counts.size < total && performance.now() - lastLook < 1_000) return false;
        lastLook = performance.now();
        return (await unfinished()) === 0;
      },
      15 * 60_000,
      20,
    );
    const elapsedMs = performance.now() - started;
    const last = await sentCount();
    const msgsPerSecond = Math.round((total / elapsedMs) * 1000);
    const peakRss = Math.max(...workers.map((w) => peakRssMb(w.pid)));
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const perMessageUs = (ms: number) => Math.round((ms * 1000) / total);
    const workerCpuMs = workers.reduce((sum, w, i) => sum + processCpuMs(w.pid) - workerCpuBefore[i]!, 0);
    let ownBackendsMs = 0;
    for (const [pid, ms] of databaseBackendsCpuMs(databaseName))
      ownBackendsMs += ms - (ownBackendsBefore.get(pid) ?? 0);
    process.stderr.write(
      `enqueued in ${Math.round(enqueuedMs)} ms; all recorded after ${Math.round(elapsedMs)} ms (${last.other} not sent)\n` +
        `CPU per message: workers ${perMessageUs(workerCpuMs)} µs, PostgreSQL ${perMessageUs(postgresCpuMs() - postgresCpuBefore)} µs, ` +
        `enqueue ${perMessageUs(enqueueCpuMs)} µs, bench process in all (enqueue, SMTP sink, polling) ${perMessageUs((benchCpu.user + benchCpu.system) / 1000)} µs\n`,
    );
    await new Promise((r) => setTimeout(r, 1_200));
    const statsAfter = await writeStats(database.db);
    const perMessage = (n: number) => Math.round((n * 100) / total) / 100;
    process.stderr.write(
      `this database's backends ${perMessageUs(ownBackendsMs)} µs per message (the enqueue's included); per message: ` +
        `outbox row updates ${perMessage(statsAfter.upd - statsBefore.upd)} (HOT ${perMessage(statsAfter.hot - statsBefore.hot)}), ` +
        `events ${perMessage(statsAfter.events - statsBefore.events)}, transactions ${perMessage(statsAfter.xacts - statsBefore.xacts)}\n`,
    );

    if (process.env.BENCH_PGSS) {
      const top = (await database.db.execute(sql`
        SELECT calls, round(total_exec_time::numeric * 1000 / ${total})::int AS us_per_msg,
          round(wal_bytes::numeric / ${total})::int AS wal_per_msg, round(rows::numeric / ${total}, 2) AS rows_per_msg,
          left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS q
        FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY total_exec_time DESC LIMIT 25`)) as unknown as { rows: Record<string, unknown>[] };
      const sums = (await database.db.execute(sql`
        SELECT round(sum(total_exec_time)::numeric * 1000 / ${total})::int AS us, round(sum(wal_bytes)::numeric / ${total})::int AS wal
        FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`)) as unknown as {
        rows: Record<string, unknown>[];
      };
      process.stderr.write(`PGSS total per message: ${JSON.stringify(sums.rows[0])}\n`);
      for (const r of top.rows)
        process.stderr.write(
          `PGSS ${r.calls}\t${r.us_per_msg}us\t${r.wal_per_msg}B\t${r.rows_per_msg}r\t${r.q}\n`,
        );
    }
    const ids = (await database.db.execute(
      sql`SELECT message_id FROM outbox_messages WHERE state = 'sent'`,
    )) as unknown as {
      rows: { message_id: string }[];
    };
    let duplicates = 0;
    let lost = total - ids.rows.length;
    for (const { message_id } of ids.rows) {
      const n = sink.counts.get(message_id) ?? 0;
      if (n === 0) lost++;
      if (n > 1) duplicates += n - 1;
    }
    for (const w of workers) w.kill('SIGTERM');
    await queue.stop({ graceful: false }).catch(() => {});
    await database.close();

    sink.counts.clear();
    const bare = await bareRate(sink.port, total);
    return {
      bench: 'dispatch',
      messages: total,
      msgs_per_s: msgsPerSecond,
      bare_msgs_per_s: bare,
      ratio: Math.round((msgsPerSecond / bare) * 100) / 100,
      peak_rss_mb: peakRss,
      duplicates,
      lost,
    };
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await sink.close();
    await bench.drop();
  }
}
