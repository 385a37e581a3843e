// The outbox archive (migration 0062) at scale: seeds N finished messages (default 1,000,000, --count) whose
// last change falls between the start of the month 98 days ago and 8 days ago, so the oldest month is
// whole, and N/10 (at least 1,000) finished in the last 6 days; each with a ~1.3 KB body, a token and a
// Message-ID, over 100 users, 1,000 campaigns and a contact per three messages. The archive has a
// partition for every month the rows fall in, as the hourly job makes them ahead. Then:
// (a) the move: one run of archiveFinishedOutbox (the archive-outbox job's batches of 2,000) takes the N
//     old rows to outbox_archive; rows/s, the PostgreSQL backends' CPU µs per row (/proc schedstat of this
//     database's connections; on PGlite this process's CPU, the database included) and WAL bytes per row
//     (pg_stat_statements of this database when the server loads it, else pg_current_wal_insert_lsn,
//     which counts the whole server's WAL); this process's CPU µs per row beside them;
// (b) readers through the view outbox_all: 1,000 lookups by token (the tracking path's loadTrackedMessage)
//     and 1,000 by Message-ID (reply matching's query) of rows that get archived and of rows that stay,
//     before the move (everything in outbox_messages) and after it; p50/p95/max of each;
// (c) retention (OUTBOX_RETENTION_MONTHS): expireOutboxArchive dropping the oldest month's partition,
//     against a DELETE of the same rows from that partition (rolled back; on more than 500,000 rows, a
//     sample of them scaled up). The DELETE's later vacuum is not counted.
// `npm run bench -- archive [--db postgres|pglite] [--count N]`.
import { createHash } from 'node:crypto';
import type { DatabaseHandle } from '@server/db/client';
import { listMonthPartitions } from '@server/db/month-partitions';
import {
  archiveFinishedOutbox,
  ensureOutboxArchivePartitions,
  expireOutboxArchive,
} from '@server/features/sending/outbox-archive.service';
import { loadTrackedMessage } from '@server/features/tracking/tracking.service';
import { startOfUtcMonth } from '@server/lib/clock';
import { sql } from 'drizzle-orm';
import {
  type BenchDb,
  latencyStats,
  openBenchDatabase,
  postgresBackendsCpuClock,
  processCpuMs,
  rowsOf,
  say,
  scalar,
  timedStep,
} from './support';

/** Who the messages belong to: users, each with campaigns, each with contacts (one per three messages). */
const SEEDED = { users: 100, campaigns: 1_000 } as const;
/** Lookups of each kind (by token, by Message-ID; archived, live), before the move and after it. */
const LOOKUPS = 1_000;
/** A month of more rows than this has its DELETE timed on this many of them, scaled up. */
const DELETE_SAMPLE_MAX = 500_000;
const DAY_MS = 86_400_000;

export async function run(options: { db: BenchDb; count?: number }) {
  const archived = options.count ?? 1_000_000;
  const live = Math.max(1_000, Math.round(archived / 10));
  const total = archived + live;
  const bench = await openBenchDatabase(options.db);
  const { database } = bench;
  const { db } = database;
  try {
    const now = new Date();
    const oldest = startOfUtcMonth(new Date(now.getTime() - 98 * DAY_MS));
    const lastArchived = new Date(now.getTime() - 8 * DAY_MS);
    say(
      `seeding ${archived.toLocaleString('en-US')} old and ${live.toLocaleString('en-US')} recent finished messages on ${options.db}…`,
    );
    await seed(database, { archived, live, total, now, oldest, lastArchived });
    const wal = await walMeter(database);

    // (b) before: every message still in outbox_messages.
    // Spread over the range; none of the cancelled (g % 100 >= 98), which have no Message-ID.
    const pick = (i: number, n: number, offset: number) => {
      const g = offset + 1 + ((i * 7_919 + 13) % n);
      return g % 100 < 98 ? g : g - 3 > offset ? g - 3 : g + 3;
    };
    const archivedIds = Array.from({ length: LOOKUPS }, (_, i) => pick(i, archived, 0));
    const liveIds = Array.from({ length: LOOKUPS }, (_, i) => pick(i, live, archived));
    // As the seed writes them: message g to contact g % contacts, of campaign 1 + contact % campaigns, of
    // user 1 + campaign % users.
    const contacts = Math.ceil(total / 3);
    const ownerOf = (g: number) =>
      `bench-archive-${1 + ((1 + ((g % contacts) % SEEDED.campaigns)) % SEEDED.users)}`;
    // The seed's tokens: md5('token' || g).
    const tokens = new Map<number, string>();
    for (const g of [...archivedIds, ...liveIds])
      tokens.set(g, createHash('md5').update(`token${g}`).digest('hex'));
    const byToken = async (ids: number[]) => {
      const timings: number[] = [];
      for (const g of ids) {
        const started = performance.now();
        const found = await loadTrackedMessage({ db, token: tokens.get(g)! });
        timings.push(performance.now() - started);
        if (!found) throw new Error(`message ${g} not found by token`);
      }
      return latencyStats(timings, 2);
    };
    // Reply matching's query (process-inbound findMatchingMessage): the message with its contact and
    // campaign, by the Message-ID a reply references, among the mailbox owner's messages.
    const byMessageId = async (ids: number[]) => {
      const timings: number[] = [];
      for (const g of ids) {
        const messageId = `${tokens.get(g)!}@sender.test`;
        const started = performance.now();
        const variants = [...new Set([messageId, messageId.toLowerCase()])];
        const rows = rowsOf<{ id: string }>(
          await db.execute(sql`
            SELECT o.id, o.state, o.message_id, c.email, k.name FROM outbox_all o
            JOIN campaign_contacts c ON c.id = o.campaign_contact_id JOIN campaigns k ON k.id = o.campaign_id
            WHERE o.message_id IN (${sql.join(
              variants.map((v) => sql`${v}`),
              sql`, `,
            )}) AND o.user_id = ${ownerOf(g)}`),
        );
        timings.push(performance.now() - started);
        if (rows.length !== 1) throw new Error(`message ${g} found ${rows.length} times by Message-ID`);
      }
      return latencyStats(timings, 2);
    };
    const lookups = async () => {
      // The first round warms the plan and buffer caches, as a running server has them.
      await byToken(archivedIds.slice(0, 50));
      await byMessageId(archivedIds.slice(0, 50));
      return {
        tokenArchived: await byToken(archivedIds),
        tokenLive: await byToken(liveIds),
        messageIdArchived: await byMessageId(archivedIds),
        messageIdLive: await byMessageId(liveIds),
      };
    };
    const before = await lookups();

    // (a) the move.
    const cpu = await cpuMeter(database);
    const walStart = await wal.read();
    const move = await timedStep('archiveFinishedOutbox', () => archiveFinishedOutbox({ db, at: now }));
    const cpuUs = cpu.read();
    const processUs = cpu.processUs();
    const walBytes = (await wal.read()) - walStart;
    const left = await scalar(database, sql`SELECT count(*) FROM outbox_messages`);
    const inArchive = await scalar(database, sql`SELECT count(*) FROM outbox_archive`);
    if (move.result.moved !== archived || left !== live || inArchive !== archived) {
      throw new Error(
        `moved ${move.result.moved}, ${left} left, ${inArchive} archived; expected ${archived} and ${live}`,
      );
    }
    // As autovacuum leaves the partitions once they have filled.
    await db.execute(sql`ANALYZE outbox_archive`);
    const after = await lookups();
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await db.execute(sql`EXPLAIN SELECT id FROM outbox_all WHERE token = ${tokens.get(archivedIds[0]!)!}`),
    ).map((r) => r['QUERY PLAN']);
    // Only the empty partitions (months ahead, the default one) are scanned: the planner knows them empty.
    const lookupsIndexed = plan.every(
      (line) => !line.includes('Seq Scan') || line.includes('cost=0.00..0.00'),
    );

    // (c) retention: the oldest month, dropped, against a DELETE of its rows.
    const [month] = await listMonthPartitions(db, 'outbox_archive');
    if (!month?.from || month.from.getTime() !== oldest.getTime())
      throw new Error(`no partition of ${oldest.toISOString()}`);
    const monthRows = await scalar(database, sql`SELECT count(*) FROM ${sql.identifier(month.name)}`);
    // The month's first rows by time (they are spread evenly over it), or all of them.
    const share = Math.min(1, DELETE_SAMPLE_MAX / monthRows);
    const sampleBefore = new Date(
      month.from.getTime() + share * (month.to!.getTime() - month.from.getTime()),
    );
    const deleteWalStart = await wal.read();
    const deleted = await deleteRolledBack(database, month.name, sampleBefore);
    const deleteWal = (await wal.read()) - deleteWalStart;
    const sample = deleted.rows;
    const deleteEstimateMs = (deleted.ms / sample) * monthRows;
    const retentionMonths =
      now.getUTCFullYear() * 12 +
      now.getUTCMonth() -
      (month.to!.getUTCFullYear() * 12 + month.to!.getUTCMonth());
    const dropWalStart = await wal.read();
    const drop = await timedStep(`drop ${month.name}`, () =>
      expireOutboxArchive({ db, retentionMonths, at: now }),
    );
    const dropWal = (await wal.read()) - dropWalStart;
    if (drop.result.dropped.join() !== month.name) throw new Error(`dropped ${drop.result.dropped.join()}`);
    const remaining = await scalar(database, sql`SELECT count(*) FROM outbox_archive`);
    if (remaining !== archived - monthRows) throw new Error(`${remaining} archived rows left`);

    const rowsPerS = Math.round((archived / move.ms) * 1000);
    const perRow = (n: number) => Math.round((n / archived) * 10) / 10;
    const show = (s: { p50: number; p95: number; max: number }) =>
      `p50 ${s.p50} ms, p95 ${s.p95} ms, max ${s.max} ms`;
    say(
      `move of ${archived.toLocaleString('en-US')} rows in ${move.result.batches} batches: ${rowsPerS} rows/s, ` +
        `${cpu.label} ${perRow(cpuUs)} µs a row, this process ${perRow(processUs)} µs a row, ` +
        `WAL ${perRow(walBytes)} B a row (${wal.label})`,
    );
    for (const [label, key] of [
      ['by token, archived    ', 'tokenArchived'],
      ['by token, live        ', 'tokenLive'],
      ['by Message-ID, archived', 'messageIdArchived'],
      ['by Message-ID, live   ', 'messageIdLive'],
    ] as const) {
      say(`${label}: before ${show(before[key])}; after ${show(after[key])}`);
    }
    say(`  plan by token: ${plan.join(' | ')}`);
    say(
      `retention, ${month.name} (${monthRows.toLocaleString('en-US')} rows): drop ${Math.round(drop.ms)} ms, WAL ${dropWal} B; ` +
        `DELETE ${Math.round(deleteEstimateMs)} ms${sample < monthRows ? ` (estimated from ${sample.toLocaleString('en-US')} rows)` : ''}, ` +
        `WAL ${Math.round((deleteWal / sample) * monthRows)} B`,
    );
    return {
      bench: 'archive',
      db: options.db,
      archived,
      live,
      batches: move.result.batches,
      move_rows_per_s: rowsPerS,
      move_db_cpu_us_per_row: perRow(cpuUs),
      move_process_cpu_us_per_row: perRow(processUs),
      move_wal_bytes_per_row: perRow(walBytes),
      wal_source: wal.label,
      token_archived_before_ms: before.tokenArchived,
      token_archived_after_ms: after.tokenArchived,
      token_live_before_ms: before.tokenLive,
      token_live_after_ms: after.tokenLive,
      message_id_archived_before_ms: before.messageIdArchived,
      message_id_archived_after_ms: after.messageIdArchived,
      message_id_live_before_ms: before.messageIdLive,
      message_id_live_after_ms: after.messageIdLive,
      lookups_indexed: lookupsIndexed,
      month_rows: monthRows,
      drop_month_ms: Math.round(drop.ms),
      drop_month_wal_bytes: dropWal,
      delete_month_ms: Math.round(deleteEstimateMs),
      delete_month_wal_bytes: Math.round((deleteWal / sample) * monthRows),
      delete_sampled_rows: sample,
    };
  } finally {
    await bench.close();
  }
}

/** Users, campaigns, contacts and the finished messages, written by the database itself. */
async function seed(
  database: DatabaseHandle,
  o: { archived: number; live: number; total: number; now: Date; oldest: Date; lastArchived: Date },
) {
  const { db } = database;
  const contacts = Math.ceil(o.total / 3);
  await timedStep('users, campaigns, contacts', async () => {
    await db.execute(sql`
      INSERT INTO "user" (id, name, email, created_at, updated_at, first_name)
      SELECT 'bench-archive-' || g, 'Bench ' || g, 'bench-archive' || g || '@tambari.test', now(), now(), 'Bench'
      FROM generate_series(1, ${SEEDED.users}) g`);
    await db.execute(sql`
      INSERT INTO campaigns (id, user_id, name, status)
      SELECT md5('campaign' || g)::uuid, 'bench-archive-' || (1 + g % ${SEEDED.users}), 'Campaign ' || g, 'active'
      FROM generate_series(1, ${SEEDED.campaigns}) g`);
    // Contact c belongs to campaign 1 + c % campaigns; its messages are those g with g % contacts = c.
    await db.execute(sql`
      INSERT INTO campaign_contacts (id, campaign_id, user_id, email)
      SELECT md5('contact' || c)::uuid, md5('campaign' || (1 + c % ${SEEDED.campaigns}))::uuid,
        'bench-archive-' || (1 + (1 + c % ${SEEDED.campaigns}) % ${SEEDED.users}), 'lead' || c || '@example.com'
      FROM generate_series(0, ${contacts - 1}) c`);
  });
  // The archive's months, as the job makes them ahead of their rows.
  const months =
    o.now.getUTCFullYear() * 12 +
    o.now.getUTCMonth() -
    (o.oldest.getUTCFullYear() * 12 + o.oldest.getUTCMonth());
  await ensureOutboxArchivePartitions({ db, at: o.oldest, ahead: months + 1 });
  await timedStep(`${o.total.toLocaleString('en-US')} finished messages`, async () => {
    const step = 250_000;
    for (let first = 1; first <= o.total; first += step) {
      const last = Math.min(o.total, first + step - 1);
      // Messages 1..archived finished between `oldest` and `lastArchived`, the rest in the last 6 days;
      // 92 % sent, 3 % bounced, 3 % failed, 2 % cancelled (no Message-ID: never handed to SMTP).
      await db.execute(sql`
        INSERT INTO outbox_messages (id, token, user_id, campaign_id, campaign_contact_id, to_email, subject,
          html, links, message_id, state, attempts, send_after, sent_at, created_at, updated_at)
        SELECT md5('message' || g)::uuid, t.token, 'bench-archive-' || (1 + (1 + (g % ${contacts}) % ${SEEDED.campaigns}) % ${SEEDED.users}),
          md5('campaign' || (1 + (g % ${contacts}) % ${SEEDED.campaigns}))::uuid, md5('contact' || (g % ${contacts}))::uuid,
          'lead' || (g % ${contacts}) || '@example.com', 'Hello from campaign ' || (g % ${SEEDED.campaigns}),
          '<p>' || repeat(md5(g::text), 40) || '</p>',
          jsonb_build_array('https://example.com/a?g=' || g, 'https://example.com/b'),
          CASE WHEN s.state = 'cancelled' THEN NULL ELSE t.token || '@sender.test' END,
          s.state, 1, s.at - interval '2 minutes', CASE WHEN s.state IN ('sent', 'bounced') THEN s.at END,
          s.at - interval '1 hour', s.at
        FROM generate_series(${first}::int, ${last}::int) g
        CROSS JOIN LATERAL (SELECT md5('token' || g) AS token) t
        CROSS JOIN LATERAL (SELECT
          CASE WHEN g % 100 < 92 THEN 'sent' WHEN g % 100 < 95 THEN 'bounced' WHEN g % 100 < 98 THEN 'failed'
            ELSE 'cancelled' END AS state,
          CASE WHEN g <= ${o.archived}
            THEN ${o.oldest.toISOString()}::timestamptz
              + (g::float8 / ${o.archived}) * (${o.lastArchived.toISOString()}::timestamptz - ${o.oldest.toISOString()}::timestamptz)
            ELSE ${o.now.toISOString()}::timestamptz - interval '1 hour'
              - ((g - ${o.archived})::float8 / ${o.live}) * interval '6 days' END AS at) s`);
    }
  });
  // As autovacuum leaves a settled table.
  await timedStep('vacuum analyze', () => db.execute(sql`VACUUM ANALYZE outbox_messages`));
}

/** This database's CPU since the meter started: its PostgreSQL backends', or this process's (PGlite). */
async function cpuMeter(database: DatabaseHandle) {
  // Every pooled connection the move may use is open before the clock reads their pids.
  await Promise.all(Array.from({ length: 4 }, () => database.db.execute(sql`SELECT pg_sleep(0.05)`)));
  const backends = await postgresBackendsCpuClock(database);
  const processStart = processCpuMs();
  const backendsStart = backends?.() ?? 0;
  return {
    label: backends ? 'PostgreSQL CPU' : 'process CPU (database included)',
    /** Microseconds: the backends' on PostgreSQL (when /proc can tell), else this process's. */
    read: () => (backends ? (backends() - backendsStart) / 1000 : (processCpuMs() - processStart) * 1000),
    processUs: () => (processCpuMs() - processStart) * 1000,
  };
}

/**
 * WAL bytes written so far: this database's statements' (pg_stat_statements, when the server loads it),
 * else the server's WAL position (which counts other databases' writes too on a shared server).
 */
async function walMeter(database: DatabaseHandle) {
  if (database.kind === 'postgres') {
    try {
      await database.executeSql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await database.executeSql('SELECT count(*) FROM pg_stat_statements');
      return {
        label: 'pg_stat_statements, this database',
        read: async () => {
          const { rows } = await database.executeSql(
            `SELECT coalesce(sum(wal_bytes), 0)::float8 AS b FROM pg_stat_statements
             WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          );
          return Number(rows[0]?.b ?? 0);
        },
      };
    } catch {
      // not loaded: the server's WAL position below
    }
  }
  return {
    label:
      database.kind === 'postgres' ? 'pg_current_wal_insert_lsn, whole server' : 'pg_current_wal_insert_lsn',
    read: async () => {
      const { rows } = await database.executeSql(
        `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::float8 AS b`,
      );
      return Number(rows[0]?.b ?? 0);
    },
  };
}

/**
 * A retention DELETE of the rows of `partition` last changed before `before` (the partition itself, as
 * expireOutboxArchive deletes from the default one: no trigger counts them gone), in a transaction rolled
 * back after it: the rows deleted and the milliseconds it took.
 */
async function deleteRolledBack(
  database: DatabaseHandle,
  partition: string,
  before: Date,
): Promise<{ rows: number; ms: number }> {
  const deleted = { rows: 0, ms: 0 };
  await database.db
    .transaction(async (tx) => {
      const started = performance.now();
      const [row] = rowsOf<{ n: number }>(
        await tx.execute(sql`
          WITH gone AS (
            DELETE FROM ${sql.identifier(partition)} WHERE updated_at < ${before.toISOString()}::timestamptz
            RETURNING 1)
          SELECT count(*)::int AS n FROM gone`),
      );
      deleted.ms = performance.now() - started;
      deleted.rows = Number(row?.n ?? 0);
      if (deleted.rows === 0) throw new Error(`nothing in ${partition} before ${before.toISOString()}`);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return deleted;
}

class RolledBack extends Error {}
