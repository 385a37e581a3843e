import { createHash } from 'node:crypto';
import type { Database } from '@server/db/client';
import { suppressions, suppressionTombstones } from '@server/db/schema/index';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { AppError, notFound } from '@server/lib/errors';
import {
  CONTACT_MESSAGES,
  emailDedupeKey,
  maskEmail,
  REMOVABLE_SUPPRESSION_REASONS,
  type SuppressionReason,
} from '@shared/contacts';
import type { Suppression } from '@shared/suppression';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';

/*
 * Addresses never to be mailed. A row is either the user's own (user_id) or platform-wide (user_id null,
 * kept by super admins and by hard bounces/complaints the platform sees). Only a sha256 of the address is
 * stored, so the entry outlives the contact and the list it came from.
 */

type SuppressionRow = typeof suppressions.$inferSelect;

/** sha256 hex of the trimmed, lower-cased address. */
export function hashEmail(email: string): string {
  return createHash('sha256').update(emailDedupeKey(email)).digest('hex');
}

export function toSuppressionDto(row: SuppressionRow): Suppression {
  return {
    id: row.id,
    emailHint: row.emailHint,
    reason: row.reason,
    source: row.source,
    note: row.note,
    removable:
      row.reason !== 'erased' && (row.userId === null || REMOVABLE_SUPPRESSION_REASONS.includes(row.reason)),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The user's own entries or the platform's, for these hashes (two probes of the unique index). */
function ownerOrPlatform(userId: string, hashes: string[]): SQL {
  return sql`(${suppressions.userId} = ${userId} OR ${suppressions.userId} IS NULL) AND ${inArray(suppressions.emailHash, hashes)}`;
}

/** Whether this address may not be mailed by this user (their own list or the platform's). */
export async function isSuppressed(options: {
  db: Database;
  userId: string;
  email: string;
}): Promise<boolean> {
  const [row] = await options.db
    .select({ id: suppressions.id })
    .from(suppressions)
    .where(ownerOrPlatform(options.userId, [hashEmail(options.email)]))
    .limit(1);
  return row !== undefined;
}

/**
 * SQL: the address in `normalizedEmail` (already trimmed and lower-cased, as list_contacts keeps it) is not
 * suppressed for this user, hashed in SQL exactly as hashEmail does, so a count in SQL leaves out the
 * addresses filterSuppressed leaves out at send time.
 */
export function notSuppressedSql(userId: string, normalizedEmail: SQL): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${suppressions} WHERE (${suppressions.userId} = ${userId} OR ${suppressions.userId} IS NULL) AND ${suppressions.emailHash} = encode(sha256(convert_to(${normalizedEmail}, 'UTF8')), 'hex'))`;
}

/**
 * The addresses among `emails` that this user may not mail, as given. One query per 1,000 addresses,
 * for send-time checks and imports.
 */
export async function filterSuppressed(options: {
  db: Database;
  userId: string;
  emails: readonly string[];
}): Promise<Set<string>> {
  const suppressed = new Set<string>();
  for (let start = 0; start < options.emails.length; start += 1_000) {
    const batch = options.emails.slice(start, start + 1_000);
    const byHash = new Map<string, string[]>();
    for (const email of batch) {
      const hash = hashEmail(email);
      const emails = byHash.get(hash);
      if (emails) emails.push(email);
      else byHash.set(hash, [email]);
    }
    // The hashes as one array parameter: drizzle's inArray builds a parameter per hash, a few µs each,
    // and the dispatcher asks this for every message it sends. The same probes of the same index.
    const rows = await options.db
      .selectDistinct({ hash: suppressions.emailHash })
      .from(suppressions)
      .where(
        sql`(${suppressions.userId} = ${options.userId} OR ${suppressions.userId} IS NULL) AND ${suppressions.emailHash} = ANY(${sql.param([...byHash.keys()])}::text[])`,
      );
    for (const row of rows) for (const email of byHash.get(row.hash) ?? []) suppressed.add(email);
  }
  return suppressed;
}

export interface SuppressionEntry {
  email: string;
  reason?: SuppressionReason;
  note?: string | null;
}

/**
 * Adds entries for a user (or platform-wide with `userId: null`) in batches; an address already
 * suppressed for that owner is left as it is. Safe to run twice. The CSV importer calls this.
 */
export async function addSuppressions(options: {
  db: Database;
  userId: string | null;
  entries: readonly SuppressionEntry[];
  source?: string | null;
  defaultReason?: SuppressionReason;
}): Promise<{ added: number; alreadySuppressed: number }> {
  let added = 0;
  const unique = new Map<string, SuppressionEntry>();
  for (const entry of options.entries) {
    const hash = hashEmail(entry.email);
    if (!unique.has(hash)) unique.set(hash, entry);
  }
  const rows = [...unique.entries()].map(([emailHash, entry]) => ({
    userId: options.userId,
    emailHash,
    emailHint: maskEmail(entry.email),
    reason: entry.reason ?? options.defaultReason ?? 'manual',
    source: options.source ?? null,
    note: entry.note ?? null,
  }));
  for (let start = 0; start < rows.length; start += 1_000) {
    const inserted = await options.db
      .insert(suppressions)
      .values(rows.slice(start, start + 1_000))
      .onConflictDoNothing({ target: [suppressions.userId, suppressions.emailHash] })
      .returning({ id: suppressions.id });
    added += inserted.length;
  }
  return { added, alreadySuppressed: options.entries.length - added };
}

export async function addSuppression(options: {
  db: Database;
  userId: string | null;
  email: string;
  reason: SuppressionReason;
  source?: string | null;
  note?: string | null;
}): Promise<{ added: boolean }> {
  const result = await addSuppressions({
    db: options.db,
    userId: options.userId,
    entries: [{ email: options.email, reason: options.reason, note: options.note }],
    source: options.source,
  });
  return { added: result.added === 1 };
}

const ownerIs = (userId: string | null) =>
  userId === null ? isNull(suppressions.userId) : eq(suppressions.userId, userId);

/** One owner's entries, newest first (keyset). `userId: null` lists the platform-wide ones. */
export async function listSuppressions(options: {
  db: Database;
  userId: string | null;
  email?: string;
  reason?: SuppressionReason;
  cursor?: string;
  limit: number;
}): Promise<{ items: Suppression[]; nextCursor: string | null }> {
  const after = decodeCursor('suppressions', options.cursor, 2);
  const conditions: SQL[] = [ownerIs(options.userId)];
  if (options.email) conditions.push(eq(suppressions.emailHash, hashEmail(options.email)));
  if (options.reason) conditions.push(eq(suppressions.reason, options.reason));
  if (after) {
    conditions.push(
      sql`(${suppressions.createdAt}, ${suppressions.id}) < (${String(after[0])}::timestamptz, ${String(after[1])}::uuid)`,
    );
  }
  const rows = await options.db
    .select({ row: suppressions, createdAtText: sql<string>`${suppressions.createdAt}::text` })
    .from(suppressions)
    .where(and(...conditions))
    .orderBy(desc(suppressions.createdAt), desc(suppressions.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => toSuppressionDto(r.row)),
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor('suppressions', [last.createdAtText, last.row.id])
        : null,
  };
}

/**
 * Lifts one entry. A user may lift their manual and bounce entries; unsubscribes and complaints are
 * permanent (PRODUCT.md: honoured at once and forever). Super admins manage the platform-wide list.
 */
export async function removeSuppression(options: {
  db: Database;
  userId: string | null;
  id: string;
}): Promise<SuppressionRow> {
  const [row] = await options.db
    .select()
    .from(suppressions)
    .where(and(eq(suppressions.id, options.id), ownerIs(options.userId)))
    .limit(1);
  if (!row) throw notFound('Suppression not found');
  if (row.reason === 'erased') throw new AppError('forbidden', CONTACT_MESSAGES.erasedPermanent);
  if (options.userId !== null && !REMOVABLE_SUPPRESSION_REASONS.includes(row.reason)) {
    throw new AppError('forbidden', CONTACT_MESSAGES.suppressionPermanent);
  }
  await options.db.delete(suppressions).where(eq(suppressions.id, row.id));
  return row;
}

/**
 * Gives a new account the suppressions a deleted account with the same email left behind (the
 * user-delete trigger of migration 0016 keeps them): someone who unsubscribed stays unsubscribed when
 * their sender closes the account and signs up again. The owner hash is computed in SQL, as the trigger
 * does, so the two always agree. Resolves with the number restored.
 */
export async function restoreSuppressionTombstones(options: {
  db: Database;
  userId: string;
}): Promise<number> {
  const result = await options.db.execute(sql`
    WITH restored AS (
      INSERT INTO suppressions (user_id, email_hash, email_hint, reason, source, note, created_at)
      SELECT u.id, t.email_hash, t.email_hint, t.reason, t.source, 'Kept from a deleted account', t.created_at
      FROM "user" u
      JOIN ${suppressionTombstones} t
        ON t.owner_email_hash = encode(sha256(convert_to(lower(u.email), 'UTF8')), 'hex')
      WHERE u.id = ${options.userId}
      ON CONFLICT ON CONSTRAINT suppressions_user_hash_key DO NOTHING
      RETURNING 1)
    SELECT count(*)::int AS n FROM restored`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------------
// Erasure tombstones: a platform-wide entry with reason 'erased', left when an admin erases an address
// everywhere on its owner's request. It blocks sending like any platform entry, and the directory, the
// lists and the importer refuse the address, so it is never added again.

const erasedIs = (hashes: string[]) =>
  and(
    isNull(suppressions.userId),
    eq(suppressions.reason, 'erased'),
    inArray(suppressions.emailHash, hashes),
  );

/** The hint an erasure keeps: the domain only (the person's part of the address is gone). */
export function erasedHint(email: string): string {
  const key = emailDedupeKey(email);
  return `***${key.slice(key.lastIndexOf('@'))}`;
}

export async function isErased(options: { db: Database; email: string }): Promise<boolean> {
  const [row] = await options.db
    .select({ id: suppressions.id })
    .from(suppressions)
    .where(erasedIs([hashEmail(options.email)]))
    .limit(1);
  return row !== undefined;
}

/** Refuses an erased address with a clear message (the directory and list writers call this). */
export async function assertNotErased(options: { db: Database; email: string; path?: string }) {
  if (await isErased(options)) {
    throw new AppError('validation', CONTACT_MESSAGES.erasedAddress, {
      errors: [{ path: options.path ?? 'email', message: CONTACT_MESSAGES.erasedAddress }],
    });
  }
}

/**
 * Every erasure tombstone's hash, for the CSV importer to check rows in memory. Erasures are rare
 * (data-protection requests), so the set stays small; the importer hashes rows only when it is not
 * empty.
 */
export async function listErasedHashes({ db }: { db: Database }): Promise<Set<string>> {
  const rows = await db
    .select({ hash: suppressions.emailHash })
    .from(suppressions)
    .where(and(isNull(suppressions.userId), eq(suppressions.reason, 'erased')));
  return new Set(rows.map((r) => r.hash));
}

/**
 * Leaves the tombstone (platform-wide, the hash and the domain only). An existing platform entry for
 * the address becomes the tombstone, so the address is held by one row. Resolves with the hash.
 */
export async function addErasureTombstone(options: { db: Database; email: string }): Promise<string> {
  const emailHash = hashEmail(options.email);
  await options.db
    .insert(suppressions)
    .values({
      userId: null,
      emailHash,
      emailHint: erasedHint(options.email),
      reason: 'erased',
      source: 'erasure',
      note: null,
    })
    .onConflictDoUpdate({
      target: [suppressions.userId, suppressions.emailHash],
      set: { reason: 'erased', emailHint: erasedHint(options.email), source: 'erasure', note: null },
    });
  return emailHash;
}
