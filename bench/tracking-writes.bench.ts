// What one tracking event costs the database by the size of the statement that writes it.
// `npm run bench -- tracking-writes [--db postgres] [--count N]` (N: rows written per batch size, default 10,000).
//
// The events go through the app's own write path (createDatabaseTrackingBuffer: one INSERT … SELECT unnest
// per batch on PGlite, one COPY on PostgreSQL), with the email_events triggers (analytics roll-ups,
// newsletter report) in place, in batches of 1 to 5,000 rows. It answers whether writing hits in small
// groups (a group commit where each request waits for its rows) could match the buffer's large batches:
// on PGlite the database runs inside the server's process, so its CPU time per row is the server's.
// Printed per batch size: this process's CPU µs per row (PGlite: database included), the PostgreSQL
// backends' CPU µs per row (PostgreSQL only) and wall µs per row.
// BENCH_BATCH_SIZES=5000,5000 picks the batch sizes (in order; a size may repeat, which shows how much
// back-to-back figures differ on a loaded machine). BENCH_SETUP_SQL runs once before the seed: a variant of
// email_events (an index dropped or replaced, a trigger function redefined) measured through the same
// write path without a migration. Run variants alternately, several times each: CPU per row moves by
// ±20% between runs of the same code when other programs share the machine.
import { buildApp } from '@server/app';
import { campaignContacts, campaigns, outboxMessages, users } from '@server/db/schema/index';
import { parseEnv } from '@server/env';
import { createDatabaseTrackingBuffer } from '@server/features/tracking/tracking-buffer';
import type { TrackingHit } from '@server/features/tracking/tracking-hits';
import { ephemeralSecrets } from '@server/lib/secrets';
import { createBenchDatabase } from './support';
import { postgresBackendCpu } from './tracking.bench';

const BATCH_SIZES = process.env.BENCH_BATCH_SIZES
  ? process.env.BENCH_BATCH_SIZES.split(',').map(Number)
  : [1, 10, 50, 500, 5_000];
const MESSAGES = 1_000;
const USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  const rowsPerSize = options.count ?? 10_000;
  const bench = options.db === 'postgres' ? await createBenchDatabase() : null;
  const app = await buildApp({
    env: parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DEV_MAILBOX_PORT: '0',
      // The app's own buffer stays idle: this benchmark writes through a buffer of its own.
      TRACKING_FLUSH_MS: '60000',
      ...(bench ? { DATABASE_URL: bench.url } : {}),
    }),
    secrets: ephemeralSecrets(),
    persistent: false,
  });
  try {
    const { db } = app.services;
    if (process.env.BENCH_SETUP_SQL) await app.services.database.executeSql(process.env.BENCH_SETUP_SQL);
    const userId = `bench-${process.pid}-${Date.now()}`;
    await db.insert(users).values({ id: userId, name: 'Bench', email: `${userId}@tambari.test` });
    const [campaign] = await db
      .insert(campaigns)
      .values({ userId, name: 'Tracking writes bench', status: 'active' })
      .returning();
    const contacts = await db
      .insert(campaignContacts)
      .values(
        Array.from({ length: MESSAGES }, (_, i) => ({
          campaignId: campaign!.id,
          userId,
          email: `lead${i}@bench.example.com`,
        })),
      )
      .returning({ id: campaignContacts.id, email: campaignContacts.email });
    const messages = await db
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
          messageId: `bench-${i}-${Date.now()}@bench.example.com`,
          links: ['https://kanofoods.example.com/offer'],
          state: 'sent' as const,
          sentAt: new Date(Date.now() - 3_600_000),
        })),
      )
      .returning({ id: outboxMessages.id, campaignContactId: outboxMessages.campaignContactId });
    // One owner object per message, as the token cache shares them.
    const owners = messages.map((message) => ({
      userId,
      campaignId: campaign!.id,
      stepId: null,
      campaignContactId: message.campaignContactId!,
      senderAccountId: null,
    }));
    // Each message's pixel and a click, in turn, as bench/tracking sends them.
    const hit = (i: number): TrackingHit => {
      const m = Math.floor(i / 2) % messages.length;
      const open = i % 2 === 0;
      return {
        outboxMessageId: messages[m]!.id,
        owner: owners[m]!,
        type: open ? 'opened' : 'clicked',
        occurredAt: new Date(),
        detail: open ? null : 'https://kanofoods.example.com/offer',
        machine: false,
        machineReason: null,
        userAgent: USER_AGENT,
        metadata: null,
      };
    };

    const results: Record<
      string,
      { cpu_us_per_row: number; db_cpu_us_per_row: number | null; wall_us_per_row: number }
    > = {};
    let next = 0;
    const write = async (size: number, rows: number) => {
      const buffer = createDatabaseTrackingBuffer({
        db,
        log: app.log,
        batchSize: size,
        flushIntervalMs: 60_000,
      });
      for (let written = 0; written < rows; written += size) {
        for (let i = 0; i < size; i++) buffer.push(hit(next++));
        const flushed = await buffer.flush();
        if (flushed.failed) throw new Error(`a batch of ${size} failed`);
      }
      await buffer.close();
    };
    // Warm-up: plans cached, the triggers' functions compiled, the roll-ups' first rows made.
    await write(500, 2_000);
    for (const size of BATCH_SIZES) {
      // Small batches take long on a loaded machine: fewer rows for them, still hundreds of statements.
      const rows = Math.max(size, Math.min(rowsPerSize, size * 400));
      const dbBefore = bench ? await postgresBackendCpu(app.services.database) : null;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await write(size, rows);
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const dbAfter = bench ? await postgresBackendCpu(app.services.database) : null;
      let dbUs: number | null = null;
      if (dbBefore && dbAfter) {
        dbUs = 0;
        for (const [pid, after] of dbAfter) dbUs += after - (dbBefore.get(pid) ?? 0);
      }
      // A repeated size gets its own entry: "5000", "5000 (2)"…
      let key = String(size);
      for (let n = 2; key in results; n++) key = `${size} (${n})`;
      results[key] = {
        cpu_us_per_row: Math.round(((cpu.user + cpu.system) / rows) * 10) / 10,
        db_cpu_us_per_row: dbUs === null ? null : Math.round(dbUs / rows),
        wall_us_per_row: Math.round((wallMs * 1000) / rows),
      };
      process.stdout.write(`batch ${size}: ${rows} rows, ${JSON.stringify(results[key])}\n`);
    }
    return { bench: 'tracking-writes', db: options.db, per_batch_size: results };
  } finally {
    await app.close();
    await bench?.drop();
  }
}
