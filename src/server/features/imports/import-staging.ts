import type { ImportTarget } from '@shared/imports';
import { copyLine, type ImportSession } from './import-session';
import type { StagedRow } from './row-processor';

/**
 * Rows of an import wait in their own UNLOGGED table until the end, so the target is touched once, in
 * one transaction. Unlogged: no WAL for data that is thrown away; a server crash empties it, which the
 * job notices (staged_rows) and answers by starting the file over.
 */
export function stagingTable(importId: string): string {
  if (!/^[0-9a-f-]{36}$/.test(importId)) throw new Error('not an import id');
  return `import_staging_${importId.replaceAll('-', '')}`;
}

export const STAGING_COLUMNS = [
  'line',
  'email',
  'email_normalized',
  'first_name',
  'last_name',
  'company',
  'job_title',
  'phone',
  'website',
  'address',
  'city',
  'country_code',
  'category',
  'custom_fields',
  'role_address',
  'reason',
  'note',
] as const;

export async function createStaging(session: ImportSession, table: string): Promise<void> {
  await session.query(
    `CREATE UNLOGGED TABLE IF NOT EXISTS ${table} (
      line integer NOT NULL, email text NOT NULL, email_normalized text NOT NULL,
      first_name text, last_name text, company text, job_title text, phone text, website text,
      address text, city text, country_code text, category text, custom_fields jsonb,
      role_address boolean NOT NULL, reason text, note text)`,
  );
}

export async function dropStaging(session: ImportSession, table: string): Promise<void> {
  await session.query(`DROP TABLE IF EXISTS ${table}`);
}

export function stagedCopyLine(row: StagedRow): string {
  return copyLine([
    row.line,
    row.email,
    row.normalized,
    row.firstName,
    row.lastName,
    row.company,
    row.jobTitle,
    row.phone,
    row.website,
    row.address,
    row.city,
    row.countryCode,
    row.category,
    row.customFields ? JSON.stringify(row.customFields) : null,
    row.roleAddress,
    row.reason,
    row.note,
  ]);
}

export const REJECTION_COLUMNS = ['user_id', 'import_id', 'line', 'reason', 'values'] as const;

export function rejectionCopyLine(
  userId: string,
  importId: string,
  line: number,
  reason: string,
  values: string[],
) {
  return copyLine([userId, importId, line, reason, JSON.stringify(values)]);
}

export interface TargetRef {
  target: ImportTarget;
  userId: string;
  listId: string | null;
}

/** Which of these normalised addresses the target already holds. */
export async function findExisting(
  session: ImportSession,
  ref: TargetRef,
  emails: string[],
): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  let rows: { e: string }[];
  if (ref.target === 'list') {
    ({ rows } = await session.query<{ e: string }>(
      'SELECT email_normalized AS e FROM list_contacts WHERE list_id = $1 AND email_normalized = ANY($2::text[])',
      [ref.listId, emails],
    ));
  } else if (ref.target === 'directory') {
    ({ rows } = await session.query<{ e: string }>(
      'SELECT lower(email) AS e FROM directory_contacts WHERE lower(email) = ANY($1::text[]) AND deleted_at IS NULL',
      [emails],
    ));
  } else {
    ({ rows } = await session.query<{ e: string }>(
      `SELECT x AS e FROM unnest($2::text[]) AS x
       WHERE EXISTS (SELECT 1 FROM suppressions s WHERE s.user_id = $1 AND s.email_hash = ${SQL_EMAIL_HASH('x')})`,
      [ref.userId, emails],
    ));
  }
  return new Set(rows.map((r) => r.e));
}

/** sha256 hex of the normalised address: the suppression key (see schema/contacts.ts). */
const SQL_EMAIL_HASH = (column: string) => `encode(sha256(convert_to(${column}, 'UTF8')), 'hex')`;
/** j***@example.com */
const SQL_EMAIL_HINT = (column: string) =>
  `left(${column}, 1) || '***@' || substring(${column} from '@([^@]*)$')`;

export interface MoveResult {
  inserted: number;
  roleAddresses: number;
}

/**
 * Moves the staged rows into the target. Runs inside the final transaction. The rows were checked
 * against the target batch by batch, so a plain INSERT is tried first (an upsert's speculative
 * insertion costs more per row); when someone added one of these addresses meanwhile, the insert is
 * rolled back to a savepoint and redone skipping conflicts, which the caller counts as existing.
 */
export async function moveStagedRows(tx: ImportSession, table: string, ref: TargetRef): Promise<MoveResult> {
  await tx.query('SAVEPOINT import_move');
  try {
    const result = await insertStaged(tx, table, ref, '');
    await tx.query('RELEASE SAVEPOINT import_move');
    return result;
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
    await tx.query('ROLLBACK TO SAVEPOINT import_move');
    return insertStaged(tx, table, ref, 'ON CONFLICT DO NOTHING');
  }
}

async function insertStaged(
  tx: ImportSession,
  table: string,
  ref: TargetRef,
  onConflict: string,
): Promise<MoveResult> {
  let sql: string;
  let params: unknown[];
  if (ref.target === 'list') {
    sql = `WITH ins AS (
        INSERT INTO list_contacts (user_id, list_id, email, email_normalized, first_name, last_name, company,
          job_title, phone, website, city, country_code, custom_fields, role_address, source)
        SELECT $1, $2::uuid, email, email_normalized, first_name, last_name, company, job_title, phone, website,
          city, country_code, coalesce(custom_fields, '{}'::jsonb), role_address, 'import'
        FROM ${table}
        ${onConflict}
        RETURNING role_address)
      SELECT count(*)::int AS inserted, (count(*) FILTER (WHERE role_address))::int AS role FROM ins`;
    params = [ref.userId, ref.listId];
  } else if (ref.target === 'directory') {
    sql = `WITH ins AS (
        INSERT INTO directory_contacts (company_name, contact_name, job_title, email, phone, website, address,
          city, country_code, category, source, created_by)
        SELECT company, nullif(concat_ws(' ', first_name, last_name), ''), job_title, email, phone, website,
          address, city, country_code, category, 'import', $1
        FROM ${table}
        ${onConflict}
        RETURNING 1)
      SELECT count(*)::int AS inserted, 0 AS role FROM ins`;
    params = [ref.userId];
  } else {
    sql = `WITH ins AS (
        INSERT INTO suppressions (user_id, email_hash, email_hint, reason, source, note)
        SELECT $1, ${SQL_EMAIL_HASH('email_normalized')}, ${SQL_EMAIL_HINT('email_normalized')}, reason, 'import', note
        FROM ${table}
        ${onConflict}
        RETURNING 1)
      SELECT count(*)::int AS inserted, 0 AS role FROM ins`;
    params = [ref.userId];
  }
  const { rows } = await tx.query<{ inserted: number; role: number }>(sql, params);
  return { inserted: Number(rows[0]?.inserted ?? 0), roleAddresses: Number(rows[0]?.role ?? 0) };
}
