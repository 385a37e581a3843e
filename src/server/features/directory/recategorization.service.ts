import type { Database } from '@server/db/client';
import {
  directoryRecategorizationItems as items,
  directoryRecategorizations as moves,
  directoryContacts as t,
} from '@server/db/schema/index';
import { AppError } from '@server/lib/errors';
import {
  RECATEGORIZE_MAX_ROWS,
  type Recategorization,
  type RecategorizationPreview,
  type RecategorizationRule,
} from '@shared/recategorization';
import { and, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { escapeLike } from './directory.queries';

/*
 * Rule-based category moves of the directory. A move records every record it changed with its previous
 * category, in batches of 1,000 (each its own statement, so a big move never holds the whole directory
 * locked), and an undo puts back those that still carry the category it gave them.
 */

const BATCH = 1000;
const SAMPLE = 20;

function ruleConditions(rule: RecategorizationRule): SQL {
  const conditions: SQL[] = [isNull(t.deletedAt), ne(t.category, rule.toCategory)];
  if (rule.keyword) conditions.push(sql`${t.companyName} ILIKE ${`%${escapeLike(rule.keyword)}%`}`);
  if (rule.fromCategories.length) conditions.push(inArray(t.category, rule.fromCategories));
  if (rule.countries.length) conditions.push(inArray(t.countryCode, rule.countries));
  return and(...conditions)!;
}

export async function previewRecategorization(options: {
  db: Database;
  rule: RecategorizationRule;
}): Promise<RecategorizationPreview> {
  const where = ruleConditions(options.rule);
  const [count, sample] = await Promise.all([
    options.db.$count(t, where),
    options.db
      .select({ id: t.id, companyName: t.companyName, countryCode: t.countryCode, category: t.category })
      .from(t)
      .where(where)
      .orderBy(t.companyName, t.id)
      .limit(SAMPLE),
  ]);
  return { count, sample };
}

function toDto(row: typeof moves.$inferSelect): Recategorization {
  return {
    id: row.id,
    rule: row.rule,
    moved: row.moved,
    state: row.state,
    createdByEmail: row.createdByEmail,
    createdAt: row.createdAt.toISOString(),
    undoneAt: row.undoneAt?.toISOString() ?? null,
    restored: row.restored,
  };
}

export async function applyRecategorization(options: {
  db: Database;
  actor: AuditActor;
  rule: RecategorizationRule;
}): Promise<Recategorization> {
  const { db, rule } = options;
  const where = ruleConditions(rule);
  const count = await db.$count(t, where);
  if (count === 0) throw new AppError('validation', 'No record matches this rule');
  if (count > RECATEGORIZE_MAX_ROWS) {
    throw new AppError(
      'validation',
      `This rule matches ${count.toLocaleString('en')} records; narrow it to at most ${RECATEGORIZE_MAX_ROWS.toLocaleString('en')}`,
    );
  }
  const [move] = await db
    .insert(moves)
    .values({ rule, createdBy: options.actor.id, createdByEmail: options.actor.email })
    .returning();
  let moved = 0;
  for (;;) {
    const result = await db.execute(sql`
      WITH batch AS (
        SELECT ${t.id} AS id, ${t.category} AS category FROM ${t}
        WHERE ${where}
        LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED
      ), saved AS (
        INSERT INTO ${items} (recategorization_id, contact_id, previous_category)
        SELECT ${move!.id}, id, category FROM batch
        RETURNING contact_id
      )
      UPDATE ${t} SET category = ${rule.toCategory}, updated_at = now()
      FROM saved WHERE ${t.id} = saved.contact_id
      RETURNING 1`);
    const changed = (result as unknown as { rows: unknown[] }).rows.length;
    moved += changed;
    if (changed < BATCH) break;
  }
  const [saved] = await db.update(moves).set({ moved }).where(eq(moves.id, move!.id)).returning();
  await recordAuditEntry({
    db,
    actor: options.actor,
    action: 'directory.recategorized',
    targetType: 'directory_recategorization',
    targetId: move!.id,
    details: { rule, moved },
  });
  return toDto(saved!);
}

export async function undoRecategorization(options: {
  db: Database;
  actor: AuditActor;
  id: string;
}): Promise<Recategorization> {
  const { db } = options;
  const [move] = await db.select().from(moves).where(eq(moves.id, options.id));
  if (!move) throw new AppError('not_found', 'Recategorization not found');
  if (move.state === 'undone') throw new AppError('conflict', 'This move has already been undone');
  // Records edited since keep their newer category: only those still in the target are put back.
  const result = await db.execute(sql`
    UPDATE ${t} SET category = i.previous_category, updated_at = now()
    FROM ${items} i
    WHERE i.recategorization_id = ${move.id} AND ${t.id} = i.contact_id AND ${t.category} = ${move.rule.toCategory}
    RETURNING 1`);
  const restored = (result as unknown as { rows: unknown[] }).rows.length;
  const [saved] = await db
    .update(moves)
    .set({ state: 'undone', undoneAt: sql`now()`, restored })
    .where(eq(moves.id, move.id))
    .returning();
  await recordAuditEntry({
    db,
    actor: options.actor,
    action: 'directory.recategorization_undone',
    targetType: 'directory_recategorization',
    targetId: move.id,
    details: { rule: move.rule, moved: move.moved, restored },
  });
  return toDto(saved!);
}

export async function listRecategorizations({ db }: { db: Database }): Promise<Recategorization[]> {
  const rows = await db.select().from(moves).orderBy(desc(moves.createdAt)).limit(50);
  return rows.map(toDto);
}
