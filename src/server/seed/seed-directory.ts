import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DatabaseHandle } from '../db/client';
import { FacetTally, facetTallyStatement } from './directory-facet-tally';
import { createDirectoryGenerator, SEED_COLUMNS, type SeedRow } from './directory-generator';

/*
 * Loads synthetic businesses into directory_contacts with COPY: COPY FROM STDIN (pg-copy-streams) on
 * PostgreSQL, COPY FROM '/dev/blob' on PGlite. A small load goes through the statement-level triggers
 * that fold each batch into the audience roll-up. A bulk load drops the secondary indexes, counts the
 * roll-up as it generates the rows and adds it in the load's transaction, then builds the indexes.
 */

const COPY_SQL = `COPY directory_contacts (id, ${SEED_COLUMNS.join(', ')}) FROM STDIN`;

/**
 * Ids in insertion order (UUID version 7 layout: the load's start in ms, then a counter), so the primary
 * key, the one index a bulk load keeps, only ever grows at its right edge. With random ids each row
 * lands on a random page of a key larger than the buffer cache: at ten million rows that is a read, a
 * dirty page and, after each checkpoint, a full-page image in the WAL for most rows.
 */
function sequentialIds(): () => string {
  const stamp = Date.now().toString(16).padStart(12, '0');
  const head = `${stamp.slice(0, 8)}-${stamp.slice(8, 12)}-7`;
  let counter = 0;
  return () => {
    const n = (counter++).toString(16).padStart(18, '0');
    // Variant bits 10xx: '8' followed by the counter's remaining digits.
    return `${head}${n.slice(0, 3)}-8${n.slice(3, 6)}-${n.slice(6, 18)}`;
  };
}

function copyText(rows: SeedRow[], nextId: () => string): string {
  let out = '';
  for (const row of rows) {
    out += nextId();
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      // Generated values never hold tabs, newlines or backslashes; only null needs its marker.
      out += value === null || value === undefined ? '\t\\N' : `\t${value}`;
    }
    out += '\n';
  }
  return out;
}

/**
 * Synthetic businesses exist only in demo/embedded installations (PRODUCT.md: "Sample data is labelled"):
 * a production process refuses to generate them, whoever asks.
 */
export function assertSyntheticDataAllowed(nodeEnv: string | undefined): void {
  if (nodeEnv === 'production') {
    throw new Error(
      'Refusing to generate synthetic directory contacts with NODE_ENV=production: sample data is for demos and benchmarks only.',
    );
  }
}

export interface SeedDirectoryOptions {
  database: DatabaseHandle;
  /** The process's NODE_ENV (from the parsed environment); 'production' refuses. */
  nodeEnv?: string;
  count: number;
  seed?: number;
  /** Rows per COPY statement. */
  batchSize?: number;
  onProgress?: (inserted: number) => void;
}

/** Milliseconds of each step of a load, for the benchmarks. */
export interface SeedPhases {
  copyMs: number;
  indexesMs: number;
  rollupMs: number;
  analyzeMs: number;
}

/*
 * On PostgreSQL a bulk load commits its rows first and builds the secondary indexes afterwards, several
 * at once on their own connections (one transaction could only build them one after another). Until
 * they are all back the table's comment lists the ones still to build, written in the load's own
 * transaction: a seed that failed or was stopped in between leaves that list behind, and the next
 * seedDirectory (or finishInterruptedSeed) builds what is missing before anything else.
 */
const PENDING_KEY = 'tambariSeedPendingIndexes';

/** Index builds run side by side, each on one core; the GIN index alone is about a third of the work. */
const INDEX_CONNECTIONS = Math.min(4, Math.max(2, availableParallelism()));

export async function seedDirectory(
  options: SeedDirectoryOptions,
): Promise<{ inserted: number; ms: number; phases: SeedPhases }> {
  assertSyntheticDataAllowed(options.nodeEnv ?? process.env.NODE_ENV);
  const started = performance.now();
  const { database, count } = options;
  const db = database.db;
  const phases: SeedPhases = { copyMs: 0, indexesMs: 0, rollupMs: 0, analyzeMs: 0 };
  const timed = async (phase: keyof SeedPhases, work: () => Promise<unknown>) => {
    const phaseStarted = performance.now();
    await work();
    phases[phase] += Math.round(performance.now() - phaseStarted);
  };
  if (database.kind === 'postgres') await timed('indexesMs', () => finishInterruptedSeed(database));

  const countResult = await db.execute(sql`SELECT count(*)::bigint AS n FROM directory_contacts`);
  const existing = Number((countResult as unknown as { rows: { n: string | number }[] }).rows[0]?.n ?? 0);
  // The offset keeps email domains unique across runs (domains carry the row number).
  const generate = createDirectoryGenerator({
    seed: options.seed ?? 20_260_101 + existing,
    offset: existing,
  });
  const batchSize = options.batchSize ?? (database.kind === 'pglite' ? 25_000 : 100_000);
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  const nextId = sequentialIds();

  // A load bigger than the table is much faster with the secondary indexes built afterwards (the GIN
  // keyword index above all) and the roll-up counted here rather than by the insert trigger. The table
  // is locked while the rows go in, which only a seed or a benchmark can afford.
  const bulk = existing === 0 || count >= Math.max(50_000, existing);
  const tally = new FacetTally();
  const next = bulk
    ? () => {
        const row = generate();
        tally.add(row);
        return row;
      }
    : generate;
  let inserted = 0;
  /** Loads the rows; on a bulk load returns the dropped indexes' definitions, still to rebuild. */
  const load = async (run: Runner): Promise<string[]> => {
    const indexes = bulk ? await dropSecondaryIndexes(run) : [];
    if (bulk) await run.query('ALTER TABLE directory_contacts DISABLE TRIGGER directory_facets_insert');
    while (inserted < count) {
      const size = Math.min(batchSize, count - inserted);
      await timed('copyMs', () => run.copy(size, next));
      inserted += size;
      options.onProgress?.(inserted);
    }
    if (bulk) {
      await run.query('ALTER TABLE directory_contacts ENABLE TRIGGER directory_facets_insert');
      const rollup = facetTallyStatement(tally);
      await timed('rollupMs', () => run.query(rollup.text, rollup.values));
    }
    return indexes;
  };

  if (database.kind === 'postgres') {
    const pool = client as pg.Pool;
    const connection = await pool.connect();
    const run: Runner = {
      query: async (text, values) => (await connection.query(text, values)).rows,
      copy: async (size, nextRow) => {
        // Streamed in 5,000-row chunks so a large batch never sits in memory as one string.
        const chunks = (function* () {
          for (let done = 0; done < size; done += 5_000) {
            const rows: SeedRow[] = [];
            for (let i = 0; i < Math.min(5_000, size - done); i++) rows.push(nextRow());
            yield Buffer.from(copyText(rows, nextId), 'utf8');
          }
        })();
        await pipeline(Readable.from(chunks), connection.query(copyFrom(COPY_SQL)));
      },
    };
    let indexes: string[] = [];
    try {
      if (bulk) await connection.query('BEGIN');
      indexes = await load(run);
      if (indexes.length > 0) await markPending(run, indexes);
      if (bulk) await connection.query('COMMIT');
    } catch (error) {
      if (bulk) await connection.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      connection.release();
    }
    await timed('indexesMs', () => buildIndexes(pool, indexes));
  } else {
    // PGlite is one connection: the whole load, index builds included, is one transaction.
    const pglite = client as PGlite;
    const runner = (target: PGlite | Transaction): Runner => ({
      query: async (text, values) => (await target.query<Record<string, unknown>>(text, values)).rows,
      copy: async (size, nextRow) => {
        const rows: SeedRow[] = [];
        for (let i = 0; i < size; i++) rows.push(nextRow());
        await target.query(COPY_SQL.replace('FROM STDIN', "FROM '/dev/blob'"), [], {
          blob: new Blob([copyText(rows, nextId)]),
        });
      },
    });
    const loadAndIndex = async (run: Runner) => {
      const indexes = await load(run);
      await timed('indexesMs', async () => {
        for (const definition of indexes) await run.query(definition);
      });
    };
    if (bulk) await pglite.transaction((tx) => loadAndIndex(runner(tx)));
    else await loadAndIndex(runner(pglite));
  }
  await timed('analyzeMs', () => db.execute(sql`ANALYZE directory_contacts`));
  return { inserted, ms: Math.round(performance.now() - started), phases };
}

/** Definitions of the indexes a failed or interrupted bulk load has not built yet (none on PGlite). */
export async function pendingSeedIndexes(database: DatabaseHandle): Promise<string[]> {
  if (database.kind !== 'postgres') return [];
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const pending = await readPending((text, values) => pool.query(text, values).then((r) => r.rows));
  return pending?.indexes ?? [];
}

/**
 * Builds the indexes an interrupted bulk load left out (listed in the table's comment), if any. Safe to
 * run at any time; a no-op when nothing is pending.
 */
export async function finishInterruptedSeed(database: DatabaseHandle): Promise<string[]> {
  if (database.kind !== 'postgres') return []; // PGlite loads in one transaction: nothing half-done.
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const pending = await readPending((text, values) => pool.query(text, values).then((r) => r.rows));
  if (!pending) return [];
  await buildIndexes(pool, pending.indexes);
  return pending.indexes;
}

interface Runner {
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  copy(size: number, nextRow: () => SeedRow): Promise<void>;
}

/** Drops the table's indexes that back no constraint; returns their definitions to recreate them. */
async function dropSecondaryIndexes(run: Runner): Promise<string[]> {
  const rows = await run.query(`
    SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = 'directory_contacts'
      AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = 'directory_contacts'::regclass)`);
  for (const row of rows) await run.query(`DROP INDEX ${JSON.stringify(String(row.indexname))}`);
  return rows.map((row) => String(row.indexdef));
}

type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

async function readPending(query: Query): Promise<{ indexes: string[]; comment: string | null } | null> {
  const rows = await query(`SELECT obj_description('directory_contacts'::regclass, 'pg_class') AS comment`);
  const comment = rows[0]?.comment;
  if (typeof comment !== 'string' || !comment.includes(PENDING_KEY)) return null;
  const parsed = JSON.parse(comment) as { [PENDING_KEY]: string[]; comment: string | null };
  return { indexes: parsed[PENDING_KEY], comment: parsed.comment };
}

/** Lists the indexes still to build in the table's comment, keeping any comment it had. */
async function markPending(run: Runner, indexes: string[]): Promise<void> {
  const rows = await run.query(
    `SELECT obj_description('directory_contacts'::regclass, 'pg_class') AS comment`,
  );
  const marker = JSON.stringify({ [PENDING_KEY]: indexes, comment: rows[0]?.comment ?? null });
  await run.query(`COMMENT ON TABLE directory_contacts IS ${quoteLiteral(marker)}`);
}

const quoteLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * A rough rank of how long an index takes to build, to start the longest first and leave the short ones
 * to fill in at the end: the GIN index (a third of all the work), then btrees by their number of columns.
 */
function buildCost(definition: string): number {
  if (/ USING gin /i.test(definition)) return 100;
  const start = definition.indexOf('(', definition.search(/ USING /i));
  let depth = 0;
  let columns = 1;
  for (let i = start; i < definition.length; i++) {
    const char = definition[i];
    if (char === '(') depth++;
    else if (char === ')' && --depth === 0) break;
    else if (char === ',' && depth === 1) columns++;
  }
  return columns;
}

/**
 * Builds indexes on several connections at once, the longest first, each in its own transaction
 * with a large maintenance_work_mem: the sorts and the GIN build flush to disk whenever it fills up.
 * The parallelism comes from building several indexes at once, so no build asks for parallel workers.
 * Then clears the pending list; a failure leaves it for the next run and throws.
 */
async function buildIndexes(pool: pg.Pool, definitions: string[]): Promise<void> {
  if (definitions.length === 0) return;
  const queue = [...definitions]
    .map((definition) => definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '))
    .sort((a, b) => buildCost(b) - buildCost(a));
  let failure: unknown = null;
  await Promise.all(
    Array.from({ length: Math.min(INDEX_CONNECTIONS, queue.length) }, async () => {
      const connection = await pool.connect();
      try {
        for (let definition = queue.shift(); definition && !failure; definition = queue.shift()) {
          const gin = / USING gin /i.test(definition);
          await connection.query('BEGIN');
          try {
            await connection.query(`SET LOCAL maintenance_work_mem = '${gin ? '2GB' : '1GB'}'`);
            await connection.query('SET LOCAL max_parallel_maintenance_workers = 0');
            await connection.query(definition);
            await connection.query('COMMIT');
          } catch (error) {
            await connection.query('ROLLBACK').catch(() => {});
            throw error;
          }
        }
      } catch (error) {
        failure ??= error;
      } finally {
        connection.release();
      }
    }),
  );
  if (failure) throw failure;
  const query: Query = (text, values) => pool.query(text, values).then((r) => r.rows);
  const pending = await readPending(query);
  if (pending) {
    const comment = pending.comment === null ? 'NULL' : quoteLiteral(pending.comment);
    await query(`COMMENT ON TABLE directory_contacts IS ${comment}`);
  }
}
