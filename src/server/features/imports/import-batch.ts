import { createHash } from 'node:crypto';
import { now } from '@server/lib/clock';
import { IMPORT_REASONS } from '@shared/imports';
import { listCopyLine } from './import-eager-move';
import { CopyText, type ImportSession } from './import-session';
import {
  findExisting,
  REJECTION_COLUMNS,
  rejectionCopyLine,
  STAGING_COLUMNS,
  stagedCopyLine,
  type TargetRef,
} from './import-staging';
import { type RejectCounter, type RowOutcome, reportValues, type StagedRow } from './row-processor';
import type { MxChecker } from './row-rules';

export interface ImportCounters {
  processed: number;
  staged: number;
  duplicate: number;
  existing: number;
  invalid: number;
  roleAddress: number;
  /** Rows without a value: skipped, not processed (they still count for resuming, see import-run). */
  empty: number;
  bytes: number;
}

export const ZERO_COUNTERS: ImportCounters = {
  processed: 0,
  staged: 0,
  duplicate: 0,
  existing: 0,
  invalid: 0,
  roleAddress: 0,
  empty: 0,
  bytes: 0,
};

/** A batch ready to be written: COPY text for the staging table and the report, and the new totals. */
export interface PreparedBatch {
  staged: Buffer;
  rejected: Buffer;
  counters: ImportCounters;
  /** With an eager move: the batch's rows in list_contacts' COPY columns (and `staged` is empty). */
  listCopy: Buffer;
  listRows: { count: number; roleAddresses: number };
}

/** Thrown inside the batch transaction when the import was cancelled from the API. */
export class ImportCancelled extends Error {}

/** Lists up to this size are read into memory once; bigger targets are asked batch by batch. */
const PRELOAD_LIMIT = 200_000;

/**
 * "Already in the target": a list's addresses are read once at the start when the list is small (one
 * query instead of one per batch); the directory, suppressions and big lists are asked per batch.
 * Rows added by someone else meanwhile are caught by the final move (ON CONFLICT / NOT EXISTS).
 */
export class ExistingChecker {
  private preloaded: Set<string> | null = null;
  /** Hashes of addresses erased on their owner's request: never added to a list or the directory. */
  private erased = new Set<string>();

  constructor(
    private readonly session: ImportSession,
    private readonly ref: TargetRef,
  ) {}

  async start(): Promise<void> {
    if (this.ref.target === 'suppression') return;
    // Erasures are rare (data-protection requests), so their hashes are held in memory; rows are
    // hashed only when there is at least one.
    const erased = await this.session.query<{ h: string }>(
      "SELECT email_hash AS h FROM suppressions WHERE user_id IS NULL AND reason = 'erased'",
    );
    this.erased = new Set(erased.rows.map((r) => r.h));
    if (this.ref.target !== 'list') return;
    const { rows } = await this.session.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM (SELECT 1 FROM list_contacts WHERE list_id = $1 LIMIT $2) x',
      [this.ref.listId, PRELOAD_LIMIT + 1],
    );
    if (Number(rows[0]?.n ?? 0) > PRELOAD_LIMIT) return;
    const found = await this.session.query<{ e: string }>(
      'SELECT email_normalized AS e FROM list_contacts WHERE list_id = $1',
      [this.ref.listId],
    );
    this.preloaded = new Set(found.rows.map((r) => r.e));
  }

  /** Whether this normalised address was erased everywhere (see suppression.service.ts). */
  isErased(normalized: string): boolean {
    if (this.erased.size === 0) return false;
    return this.erased.has(createHash('sha256').update(normalized).digest('hex'));
  }

  /** Whether the target holds this address, when known without asking the database. */
  knows(email: string): boolean | undefined {
    return this.preloaded ? this.preloaded.has(email) : undefined;
  }

  async check(emails: string[]): Promise<Set<string>> {
    if (!this.preloaded) return findExisting(this.session, this.ref, emails);
    const existing = new Set<string>();
    if (this.preloaded.size === 0) return existing;
    for (const email of emails) if (this.preloaded.has(email)) existing.add(email);
    return existing;
  }
}

/**
 * Collects one batch as rows are read: each row's outcome goes straight into COPY text when it can be
 * decided at once (no MX check, and the target's addresses are in memory), so a row's objects die
 * young instead of waiting for the whole batch; otherwise the candidates wait for the batch's checks.
 */
export class BatchBuilder {
  private readonly staged: CopyText;
  private readonly rejected: CopyText;
  private readonly listCopy: CopyText;
  private readonly listRows = { count: 0, roleAddresses: 0 };
  private waiting: { row: StagedRow; values: string[] }[] = [];
  private readonly next: ImportCounters;
  /** Rows taken into this batch (blank rows excluded). */
  size = 0;

  constructor(
    private readonly input: {
      ref: TargetRef;
      importId: string;
      existing: ExistingChecker;
      mx: MxChecker | null;
      counters: ImportCounters;
      /** The eager move is on: its rows go to list_contacts' COPY text instead of the staging table. */
      eagerList?: boolean;
      /** Only the first this many contacts go in (the plan's room); the rest are reported. */
      maxRows?: number | null;
      /** The COPY texts' sizes in the batch before: this one's first guess (see CopyText). */
      expectedBytes?: { staged: number; rejected: number; listCopy: number };
    },
  ) {
    this.next = { ...input.counters };
    const { expectedBytes } = input;
    this.staged = new CopyText(expectedBytes?.staged);
    this.rejected = new CopyText(expectedBytes?.rejected);
    this.listCopy = new CopyText(expectedBytes?.listCopy);
  }

  /** Empty rows met before the next row (a row always follows them in the same batch). */
  addEmpty(count: number): void {
    this.next.empty += count;
  }

  add(outcome: RowOutcome): void {
    if (outcome.kind === 'blank') return;
    this.size++;
    this.next.processed++;
    if (outcome.kind === 'rejected') {
      this.reject(outcome.line, outcome.reason, outcome.values, outcome.counter);
      return;
    }
    if (this.input.mx) {
      this.waiting.push(outcome);
      return;
    }
    const known = this.input.existing.knows(outcome.row.normalized);
    if (known === undefined) this.waiting.push({ row: outcome.row, values: outcome.values });
    else this.place(outcome.row, outcome.values, known);
  }

  /** The batch's checks that need DNS or the database, then the COPY text and the new totals. */
  async finish(bytesRead: number, sizeBytes: number): Promise<PreparedBatch> {
    let candidates = this.waiting;
    this.waiting = [];
    if (this.input.mx && candidates.length > 0) {
      const receives = await this.input.mx.checkAll(candidates.map((c) => c.row.domain));
      const kept: typeof candidates = [];
      for (const candidate of candidates) {
        if (receives.get(candidate.row.domain) === false) {
          this.reject(candidate.row.line, IMPORT_REASONS.noMx, reportValues(candidate.values), 'invalid');
        } else kept.push(candidate);
      }
      candidates = kept;
    }
    if (candidates.length > 0) {
      const existing = await this.input.existing.check(candidates.map((c) => c.row.normalized));
      for (const candidate of candidates) {
        this.place(candidate.row, candidate.values, existing.has(candidate.row.normalized));
      }
    }
    this.next.bytes = Math.min(bytesRead, sizeBytes);
    return {
      staged: this.staged.toBuffer(),
      rejected: this.rejected.toBuffer(),
      counters: this.next,
      listCopy: this.listCopy.toBuffer(),
      listRows: this.listRows,
    };
  }

  private place(row: StagedRow, values: string[], alreadyThere: boolean): void {
    if (this.input.existing.isErased(row.normalized)) {
      this.reject(row.line, IMPORT_REASONS.erased, reportValues(values), 'invalid');
      return;
    }
    if (alreadyThere) {
      const reason =
        this.input.ref.target === 'directory' ? IMPORT_REASONS.existingDirectory : IMPORT_REASONS.existing;
      this.reject(row.line, reason, reportValues(values), 'existing');
      return;
    }
    const { maxRows } = this.input;
    if (maxRows != null && this.next.staged >= maxRows) {
      this.reject(row.line, IMPORT_REASONS.overLimit, reportValues(values), 'invalid');
      return;
    }
    this.next.staged++;
    if (row.roleAddress) this.next.roleAddress++;
    const { ref } = this.input;
    if (this.input.eagerList && ref.listId) {
      // Straight into the list (the eager move): nothing goes through the staging table.
      this.listCopy.append(listCopyLine(row, ref.userId, ref.listId));
      this.listRows.count++;
      if (row.roleAddress) this.listRows.roleAddresses++;
    } else {
      this.staged.append(stagedCopyLine(row));
    }
  }

  private reject(line: number, reason: string, values: string[], counter: RejectCounter): void {
    this.rejected.append(rejectionCopyLine(this.input.ref.userId, this.input.importId, line, reason, values));
    if (counter === 'invalid') this.next.invalid++;
    else if (counter === 'duplicate') this.next.duplicate++;
    else this.next.existing++;
  }
}

/**
 * Writes a prepared batch: staged rows, report rows and progress in one transaction, so a rerun
 * resumes exactly after the last batch written. Throws ImportCancelled (rolling back) when the import
 * was cancelled meanwhile.
 */
export async function writeBatch(
  session: ImportSession,
  input: { table: string; importId: string; batch: PreparedBatch },
): Promise<void> {
  const { batch, importId } = input;
  const c = batch.counters;
  await session.transaction(async (tx) => {
    // A batch lost to a server crash is read again on resume (staging is unlogged and lost with it),
    // so waiting for the WAL flush buys nothing here; the final move commits durably.
    await tx.query('SET LOCAL synchronous_commit TO off');
    if (batch.staged.length > 0) await tx.copyIn(input.table, STAGING_COLUMNS, batch.staged);
    if (batch.rejected.length > 0) await tx.copyIn('import_rejections', REJECTION_COLUMNS, batch.rejected);
    const saved = await tx.query(
      `UPDATE imports SET processed_rows = $2, staged_rows = $3, duplicate_rows = $4, existing_rows = $5,
         invalid_rows = $6, role_address_rows = $7, bytes_processed = $8, updated_at = $9, empty_rows = $10
       WHERE id = $1 AND status = 'running' RETURNING id`,
      [
        importId,
        c.processed,
        c.staged,
        c.duplicate,
        c.existing,
        c.invalid,
        c.roleAddress,
        c.bytes,
        now(),
        c.empty,
      ],
    );
    if (saved.rowCount === 0) throw new ImportCancelled();
  });
}
