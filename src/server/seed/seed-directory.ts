import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DatabaseHandle } from '../db/client';
import { createDirectoryGenerator, SEED_COLUMNS, type SeedRow } from './directory-generator';

/*
 * Loads synthetic businesses into directory_contacts with COPY: COPY FROM STDIN (pg-copy-streams) on
 * PostgreSQL, COPY FROM '/dev/blob' on PGlite. A small load goes through the statement-level triggers
 * that fold each batch into the audience roll-up; a bulk load rebuilds the roll-up at the end instead.
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

export async function seedDirectory(
  options: SeedDirectoryOptions,
): Promise<{ inserted: number; ms: number; phases: SeedPhases }> {
  assertSyntheticDataAllowed(options.nodeEnv ?? process.env.NODE_ENV);
  const started = performance.now();
  const { database, count } = options;
  const db = database.db;
  const countResult = await db.execute(sql`SELECT count(*)::bigint AS n FROM directory_contacts`);
  const existing = Number((countResult as unknown as { rows: { n: string | number }[] }).rows[0]?.n ?? 0);
  // The offset keeps email domains unique across runs (domains carry the row number).
  const next = createDirectoryGenerator({ seed: options.seed ?? 20_260_101 + existing, offset: existing });
  const batchSize = options.batchSize ?? (database.kind === 'pglite' ? 25_000 : 100_000);
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  const nextId = sequentialIds();
  const phases: SeedPhases = { copyMs: 0, indexesMs: 0, rollupMs: 0, analyzeMs: 0 };
  const timed = async (phase: keyof SeedPhases, work: () => Promise<unknown>) => {
    const phaseStarted = performance.now();
    await work();
    phases[phase] += Math.round(performance.now() - phaseStarted);
  };

  // A load bigger than the table is much faster with the secondary indexes built afterwards (the two
  // trigram GIN indexes above all). Done in one transaction, so a failure leaves the indexes in place;
  // the table is locked meanwhile, which only a seed or a benchmark can afford.
  const bulk = existing === 0 || count >= Math.max(50_000, existing);
  let inserted = 0;
  const load = async (run: Runner) => {
    const indexes = bulk ? await dropSecondaryIndexes(run) : [];
    // The roll-up is rebuilt at the end anyway; within this transaction nobody else sees the gap.
    if (bulk) await run.query('ALTER TABLE directory_contacts DISABLE TRIGGER directory_facets_insert');
    while (inserted < count) {
      const size = Math.min(batchSize, count - inserted);
      await timed('copyMs', () => run.copy(size, next));
      inserted += size;
      options.onProgress?.(inserted);
    }
    await timed('indexesMs', async () => {
      for (const definition of indexes) await run.query(definition);
    });
    if (bulk) {
      await run.query('ALTER TABLE directory_contacts ENABLE TRIGGER directory_facets_insert');
      await timed('rollupMs', () => run.query('SELECT directory_facets_rebuild()'));
    }
  };

  if (database.kind === 'postgres') {
    const connection = await (client as pg.Pool).connect();
    const run: Runner = {
      query: async (text) => (await connection.query(text)).rows,
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
    try {
      if (bulk) {
        await connection.query('BEGIN');
        // Sorts of ten million keys and the trigram GIN builds (which flush whenever this fills up) run
        // several times faster in memory; the load is a one-off, so it may borrow a gigabyte.
        await connection.query("SET LOCAL maintenance_work_mem = '1GB'");
      }
      await load(run);
      if (bulk) await connection.query('COMMIT');
    } catch (error) {
      if (bulk) await connection.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      connection.release();
    }
  } else {
    const pglite = client as PGlite;
    const runner = (target: PGlite | Transaction): Runner => ({
      query: async (text) => (await target.query<Record<string, unknown>>(text)).rows,
      copy: async (size, nextRow) => {
        const rows: SeedRow[] = [];
        for (let i = 0; i < size; i++) rows.push(nextRow());
        await target.query(COPY_SQL.replace('FROM STDIN', "FROM '/dev/blob'"), [], {
          blob: new Blob([copyText(rows, nextId)]),
        });
      },
    });
    if (bulk) await pglite.transaction((tx) => load(runner(tx)));
    else await load(runner(pglite));
  }
  await timed('analyzeMs', () => db.execute(sql`ANALYZE directory_contacts`));
  return { inserted, ms: Math.round(performance.now() - started), phases };
}

interface Runner {
  query(text: string): Promise<Record<string, unknown>[]>;
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
