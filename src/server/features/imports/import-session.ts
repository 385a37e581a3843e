import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { DatabaseHandle } from '@server/db/client';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export interface SessionResult<T> {
  rows: T[];
  rowCount: number;
}

/**
 * One connection for the whole import, whichever engine: parameterised queries, COPY … FROM STDIN for
 * bulk rows (pg-copy-streams on PostgreSQL, PGlite's /dev/blob), and transactions on that connection.
 */
export interface ImportSession {
  readonly kind: DatabaseHandle['kind'];
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SessionResult<T>>;
  /** `data` is COPY text format: tab-separated, `\N` for null, one row per line (see `copyLine`). */
  copyIn(table: string, columns: readonly string[], data: string | Uint8Array): Promise<void>;
  /**
   * PostgreSQL only: a COPY … FROM STDIN (text format) left open to be fed piece by piece; it ends with
   * the stream ('finish' once the server has the rows). Until then the connection can do nothing else.
   */
  openCopy?(table: string, columns: readonly string[]): Writable;
  transaction<T>(work: (tx: ImportSession) => Promise<T>): Promise<T>;
  /** `destroy`: close the connection instead of returning it to the pool (the server rolls back). */
  release(destroy?: boolean): Promise<void>;
}

export async function openImportSession(database: DatabaseHandle): Promise<ImportSession> {
  const client = (database.db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (database.kind === 'postgres') return postgresSession(await (client as pg.Pool).connect());
  return pgliteSession(client as PGlite);
}

function postgresSession(client: pg.PoolClient): ImportSession {
  let broken = false;
  // A connection that drops while checked out emits 'error' on the client; unheard, it would end the
  // process. The query in flight fails on its own; the client is then destroyed at release.
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  const session: ImportSession = {
    kind: 'postgres',
    async query<T>(text: string, params?: unknown[]) {
      try {
        const result = await client.query(text, params as unknown[] | undefined);
        return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        if (!(error as { code?: string }).code) broken = true;
        throw error;
      }
    },
    async copyIn(table, columns, data) {
      const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
      await pipeline(Readable.from([typeof data === 'string' ? Buffer.from(data, 'utf8') : data]), stream);
    },
    openCopy(table, columns) {
      return client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
    },
    async transaction(work) {
      await session.query('BEGIN');
      try {
        const result = await work(session);
        await session.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      }
    },
    async release(destroy) {
      client.off('error', onError);
      client.release(broken || destroy ? true : undefined);
    },
  };
  return session;
}

function pgliteSession(client: PGlite): ImportSession {
  const wrap = (runner: PGlite | Transaction, inTransaction: boolean): ImportSession => ({
    kind: 'pglite',
    async query<T>(text: string, params?: unknown[]) {
      const result = await runner.query<T>(text, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async copyIn(table, columns, data) {
      await runner.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob'`, [], {
        blob: new Blob([data as string | Uint8Array<ArrayBuffer>]),
      });
    },
    async transaction(work) {
      if (inTransaction) return work(wrap(runner, true));
      // PGlite's transaction holds its single connection: other callers wait until it ends.
      return (runner as PGlite).transaction((tx) => work(wrap(tx, true)));
    },
    async release() {},
  });
  return wrap(client, false);
}

/**
 * COPY text encoded to UTF-8 as each row is added. A batch built as one growing string kept every row's
 * pieces alive until the batch was written: thousands of strings per batch lived long enough for V8 to
 * move them to the old generation, and garbage collection took a fifth of a 1,000,000-row import. Here
 * each row's strings die young and the batch is one buffer.
 */
export class CopyText {
  private bytes: Buffer;
  private used = 0;

  /**
   * `expectedBytes`: about what the batch before took. Grown from 64 KB by doubling, a 1.3 MB batch
   * allocated and copied ~4 MB of buffers, and that much new memory outside the heap made V8 collect its
   * old generation more often (6 full collections in a 200,000-row import instead of 4).
   */
  constructor(expectedBytes = 0) {
    this.bytes = Buffer.allocUnsafe(
      expectedBytes > 0 ? expectedBytes + (expectedBytes >> 3) + 4096 : 64 * 1024,
    );
  }

  append(text: string): void {
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    const worst = text.length * 3;
    if (this.used + worst > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + worst));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += this.bytes.write(text, this.used, 'utf8');
  }

  /** Bytes written so far. */
  get length(): number {
    return this.used;
  }

  /** The text so far (a view: nothing appended after this call shows in it). */
  toBuffer(): Buffer {
    return this.bytes.subarray(0, this.used);
  }
}

/** One row of COPY text format. */
export function copyLine(values: readonly (string | number | boolean | null)[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += '\t';
    const value = values[i];
    if (value === null || value === undefined) line += '\\N';
    else if (typeof value === 'string') line += copyEscape(value);
    else line += String(value);
  }
  return `${line}\n`;
}

const COPY_SPECIAL = /[\\\t\n\r]/;

export function copyEscape(value: string): string {
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}
