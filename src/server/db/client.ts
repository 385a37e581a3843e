import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { tightenTree } from '../lib/data-dir';
import { PgliteThread } from './pglite-thread';
import * as schema from './schema/index';

export { growInMemoryFilesByHalf } from './pglite-worker';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface SqlResult {
  rows: Record<string, unknown>[];
}

/** One database, whichever engine: Drizzle for our code, raw SQL for pg-boss and health checks. */
export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Database;
  /** pg-boss's adapter contract. On PGlite parameterless multi-statement SQL must go through `exec`. */
  executeSql(text: string, values?: unknown[]): Promise<SqlResult>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball, for `OpenDatabaseOptions.snapshot`. */
  dumpDataDir?(): Promise<Blob>;
  /**
   * PGlite only: LISTEN on the connection, pg-boss's adapter contract (on PostgreSQL pg-boss holds a
   * listening connection of its own). The connection never drops, so nothing is ever missed to recover.
   */
  listen?(channel: string, onNotification: (payload: string) => void): Promise<{ close(): Promise<void> }>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url));

// Any constant works; it only has to be the same for every process that migrates this database.
const MIGRATION_LOCK_ID = 7_262_730_001;

export interface OpenDatabaseOptions {
  /** postgres://… ; unset means embedded PGlite. */
  url?: string;
  /** PGlite data directory; unset (with no url) means in-memory, used by tests. */
  dataDir?: string;
  poolSize?: number;
  /**
   * In-memory PGlite only: start from this dump (`dumpDataDir`) instead of running initdb, which costs
   * ~3 s of WASM per instance. The test suite migrates one database, dumps it, and opens every test
   * file's database from it.
   */
  snapshot?: Blob;
  /** PGlite only: how often the database checkpoints (PGLITE_CHECKPOINT_INTERVAL_MS by default). */
  checkpointIntervalMs?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10)
    : openPglite(
        options.dataDir,
        options.snapshot,
        options.checkpointIntervalMs ?? PGLITE_CHECKPOINT_INTERVAL_MS,
      );
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // A dropped idle connection must not take the process down; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    kind: 'postgres',
    db,
    async executeSql(text, values) {
      const result = await pool.query(text, values as unknown[] | undefined);
      return { rows: result.rows };
    },
    async migrate() {
      // Several web and worker processes may boot at once; only one applies migrations at a time.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/*
 * An in-memory database keeps its WAL in memory too, and nothing survives a crash to recover from, so what
 * the WAL does for a crash costs for nothing here. Left on, each new 16 MB WAL segment was zero-filled in
 * steps that made the in-memory file system grow and copy the file ~25 times (about 200 MB of copying per
 * segment, ~7% of bench/tracking's server CPU, where every open and click writes a row); full-page images
 * only guard against pages torn by a crash.
 */
const IN_MEMORY_SETTINGS = ['-c', 'wal_init_zero=off', '-c', 'full_page_writes=off'];

/*
 * PGlite runs PostgreSQL as one single-user backend, with no checkpointer: PostgreSQL asks for a checkpoint
 * when max_wal_size worth of WAL is written only under a postmaster, and checkpoint_timeout is the
 * checkpointer's own timer. So nothing checkpointed before the process closed, and no WAL segment was
 * removed or recycled: about 750 bytes per tracking event (150 MB of WAL after 200,000 events, 470 MB after
 * 700,000, on disk in a data directory until the next start; in memory, RAM). A checkpoint as often as
 * PostgreSQL's default checkpoint_timeout lets the segments before it go (two left after 200,000 events
 * with checkpoints every few seconds). It writes the dirty pages in one go (the engine is synchronous):
 * 40-160 ms measured, depending on how much changed since the last one. CPU per event written did not
 * measurably change; in a data directory the first change to each page after a checkpoint logs the whole
 * page (full_page_writes), once per page per five minutes.
 */
export const PGLITE_CHECKPOINT_INTERVAL_MS = 5 * 60_000;

async function openPglite(
  dataDir: string | undefined,
  snapshot: Blob | undefined,
  checkpointIntervalMs: number,
): Promise<DatabaseHandle> {
  if (dataDir) mkdirSync(path.resolve(dataDir), { recursive: true, mode: 0o700 });
  // Loaded here, not at the top: a process on PostgreSQL never needs them. PGlite's engine (~45 MB of
  // WASM) starts in its own thread (pglite-worker.ts), so that its statements leave the event loop free.
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const client = new PgliteThread({
    dataDir: dataDir ? path.resolve(dataDir) : undefined,
    snapshot,
    startParams: IN_MEMORY_SETTINGS,
  });
  await client.waitReady;
  // PGlite's initdb unpacks its template database with 0666 files, and a few files it writes later (the
  // relcache's pg_internal.init) come out 0644, whatever the umask: tightened after opening and after
  // closing (a walk of ~1,300 entries, a few milliseconds).
  const tighten = () => {
    if (dataDir) tightenTree(path.resolve(dataDir));
  };
  tighten();
  const db = drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Database;
  let checkpointing: Promise<void> | null = null;
  const checkpointTimer = setInterval(() => {
    if (checkpointing || client.closed) return;
    // A failed checkpoint is tried again at the next tick.
    checkpointing = client
      .exec('CHECKPOINT')
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
        checkpointing = null;
      });
  }, checkpointIntervalMs);
  // The timer alone must not keep a process alive.
  checkpointTimer.unref();
  return {
    kind: 'pglite',
    db,
    async executeSql(text, values) {
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
      }
      const result = await client.query(text, values as unknown[]);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    async migrate() {
      await migratePglite(drizzlePglite(client as unknown as PGlite, { schema }), {
        migrationsFolder: MIGRATIONS_FOLDER,
      });
    },
    async close() {
      clearInterval(checkpointTimer);
      await checkpointing;
      await client.close();
      tighten();
    },
    dumpDataDir: () => client.dumpDataDir(),
    async listen(channel, onNotification) {
      const unlisten = await client.listen(channel, onNotification);
      return { close: () => unlisten() };
    },
  };
}
