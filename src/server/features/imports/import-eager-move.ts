import type { Writable } from 'node:stream';
import type { DatabaseHandle } from '@server/db/client';
import type { FastifyBaseLogger } from 'fastify';
import { copyEscape, copyLine, type ImportSession, openImportSession } from './import-session';
import type { StagedRow } from './row-processor';

/*
 * The eager move (list imports on PostgreSQL): a second connection holds ONE transaction for the whole
 * import and copies each batch into list_contacts as soon as it is read, while the job's own connection
 * stages the same rows and the next batch is parsed. The database's work then overlaps the file's
 * reading instead of following it, and the transaction commits with the import's final checks
 * (import-finish.ts), so the list is still changed all at once or not at all.
 *
 * It is only a faster road to the same place: the rows are staged as before, so whenever the eager move
 * cannot go on (someone else's address conflicts, the connection drops, a resumed run) it is rolled back
 * and the final move copies the staged rows as it always did.
 *
 * It takes the user's contacts lock (the one single adds and lead-discovery adds take) at its start, so
 * nobody adds to the user's lists meanwhile: those requests wait until the import ends, and no address
 * can arrive between the check against the list and the copy.
 */

export const LIST_COPY_COLUMNS = [
  'user_id',
  'list_id',
  'email',
  'email_normalized',
  'first_name',
  'last_name',
  'company',
  'job_title',
  'phone',
  'website',
  'city',
  'country_code',
  'custom_fields',
  'role_address',
  'source',
] as const;

/** One staged row in list_contacts' COPY columns. */
export function listCopyLine(row: StagedRow, userId: string, listId: string): string {
  if (row.plain) {
    // What copyLine would write, without testing each value for characters to escape (a tenth of this
    // process's work per row): the row's record held none. The custom fields' JSON may (\").
    const custom = row.customFields ? copyEscape(JSON.stringify(row.customFields)) : '{}';
    return `${copyEscape(userId)}\t${copyEscape(listId)}\t${row.email}\t${row.normalized}\t${orNull(row.firstName)}\t${orNull(row.lastName)}\t${orNull(row.company)}\t${orNull(row.jobTitle)}\t${orNull(row.phone)}\t${orNull(row.website)}\t${orNull(row.city)}\t${orNull(row.countryCode)}\t${custom}\t${row.roleAddress}\timport\n`;
  }
  return copyLine([
    userId,
    listId,
    row.email,
    row.normalized,
    row.firstName,
    row.lastName,
    row.company,
    row.jobTitle,
    row.phone,
    row.website,
    row.city,
    row.countryCode,
    row.customFields ? JSON.stringify(row.customFields) : '{}',
    row.roleAddress,
    'import',
  ]);
}

function orNull(value: string | null): string {
  return value === null ? '\\N' : value;
}

/** Rows per COPY statement of the eager move (see add). */
const ROWS_PER_COPY = 100_000;

export class EagerListMove {
  /** Rows copied into list_contacts so far (uncommitted). */
  inserted = 0;
  roleAddresses = 0;
  private failed = false;
  /** Set once the transaction is being ended (committed or rolled back); settles when it is. */
  private closing: Promise<void> | null = null;
  /**
   * One COPY statement for many batches, fed a batch at a time. A COPY per batch left this backend
   * idle between batches for two round trips (the statement, then the server's go-ahead), each answered
   * only when this process got back to its event loop, or to a CPU on a busy machine; an open COPY
   * always has the next batch waiting in the socket.
   */
  private copy: Writable | null = null;
  /** Rows written into the open COPY. */
  private copyRows = 0;
  /** Settles when the COPY fails (a lost connection, a row the server refuses). */
  private copyFailed: Promise<void> = new Promise(() => {});

  private constructor(
    private readonly session: ImportSession,
    private readonly listId: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Opens the transaction and takes the user's contacts lock; null where the eager move does not apply. */
  static async open(options: {
    database: DatabaseHandle;
    userId: string;
    listId: string | null;
    log?: FastifyBaseLogger;
  }): Promise<EagerListMove | null> {
    // PGlite has one connection: a second transaction would wait for the first.
    if (options.database.kind !== 'postgres' || !options.listId) return null;
    const session = await openImportSession(options.database);
    try {
      await session.query('BEGIN');
      await session.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`contacts:${options.userId}`]);
    } catch (error) {
      await session.query('ROLLBACK').catch(() => {});
      await session.release();
      options.log?.warn({ err: error }, 'eager import move not started; the final move will copy the rows');
      return null;
    }
    return new EagerListMove(session, options.listId, options.log);
  }

  /** Whether every batch so far went in: the final checks may then commit this transaction. */
  get healthy(): boolean {
    return !this.failed && this.closing === null;
  }

  /**
   * Copies one batch (list_contacts COPY text, see listCopyLine); settles once the batch is on its way
   * (handed to the socket), so the reader stays at most a socket's worth ahead of the server. Never
   * throws: a failure rolls the eager move back for good and the staged rows take the usual road.
   */
  async add(copyText: Uint8Array, rows: { count: number; roleAddresses: number }): Promise<void> {
    if (copyText.length === 0 || !this.healthy) return;
    // The count trigger's transition table holds a statement's rows and spills to a temporary file past
    // work_mem: a new COPY every ROWS_PER_COPY rows keeps that file small (~25 MB).
    if (this.copyRows >= ROWS_PER_COPY) await this.settle();
    if (!this.healthy) return;
    this.copy ??= this.startCopy();
    const copy = this.copy;
    this.copyRows += rows.count;
    // Counted now: any row the server refuses fails the whole COPY, and the move with it.
    this.inserted += rows.count;
    this.roleAddresses += rows.roleAddresses;
    await new Promise<void>((resolve) => {
      copy.write(copyText, () => resolve());
      void this.copyFailed.then(resolve);
    });
  }

  private startCopy(): Writable {
    if (!this.session.openCopy) throw new Error('the eager move needs PostgreSQL');
    const copy = this.session.openCopy('list_contacts', LIST_COPY_COLUMNS);
    this.copyRows = 0;
    let failed!: () => void;
    this.copyFailed = new Promise((resolve) => {
      failed = resolve;
    });
    copy.on('error', (error) => {
      failed();
      if (!this.healthy) return;
      this.log?.info(
        { err: error, listId: this.listId },
        'eager import move rolled back; the final move will copy the staged rows',
      );
      void this.abandon();
    });
    return copy;
  }

  /** Ends the COPY and waits for the server's answer; then `healthy` tells whether the rows went in. */
  async settle(): Promise<void> {
    const copy = this.copy;
    if (!copy || !this.healthy) return;
    await new Promise<void>((resolve) => {
      copy.end(() => resolve());
      void this.copyFailed.then(resolve);
    });
    if (this.healthy) this.copy = null;
  }

  /** The open transaction, for the final checks; the caller commits it with `commit`. */
  get transaction(): ImportSession {
    return this.session;
  }

  async commit(): Promise<void> {
    if (this.closing) throw new Error('the eager move is closed');
    if (this.copy) throw new Error('the eager move has a COPY open: settle it first');
    const closing = (async () => {
      try {
        await this.session.query('COMMIT');
      } finally {
        await this.session.release();
      }
    })();
    this.closing = closing.catch(() => {});
    await closing;
  }

  /** Rolls everything back (idempotent). Any failure path must call it before touching the list. */
  abandon(): Promise<void> {
    if (this.closing) return this.closing;
    this.failed = true;
    // A COPY still open (a cancel, an error elsewhere, the COPY's own failure): closing the connection
    // ends it, and the server rolls the transaction back.
    const copyOpen = this.copy !== null;
    this.copy = null;
    this.closing = (async () => {
      if (!copyOpen) await this.session.query('ROLLBACK').catch(() => {});
      await this.session.release(copyOpen);
    })();
    return this.closing;
  }
}
