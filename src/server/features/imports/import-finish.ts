import type { DatabaseHandle } from '@server/db/client';
import { type imports, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { CONTACT_MESSAGES, CUSTOM_FIELDS_MAX } from '@shared/contacts';
import { IMPORT_MESSAGES } from '@shared/imports';
import { eq } from 'drizzle-orm';
import { assertRecipientCapacity } from '../plans/plan-access.service';
import { getPlanLimits } from '../plans/plan-limits.service';
import type { ImportCounters } from './import-batch';
import type { EagerListMove } from './import-eager-move';
import type { ImportSession } from './import-session';
import { type MoveResult, moveStagedRows } from './import-staging';

type ImportRow = typeof imports.$inferSelect;

/** An import that cannot complete for a reason the user is told (its message is shown as is). */
export class ImportRefused extends Error {}

class OverRecipientLimit extends Error {
  constructor(
    readonly used: number,
    readonly adding: number,
  ) {
    super('over the plan recipient limit');
  }
}

/**
 * The plan's recipient limit counts list contacts (lists.service does the same for single adds): an
 * import that would pass it fails as a whole, with the plan's own message, and changes nothing.
 */
export async function finishImport(input: {
  database: DatabaseHandle;
  session: ImportSession;
  row: ImportRow;
  table: string;
  counters: ImportCounters;
  /** The rows were copied while the file was read (import-eager-move.ts); its transaction ends here. */
  eager?: EagerListMove | null;
}): Promise<'completed' | 'cancelled'> {
  const { database, session, row, table, counters } = input;
  const [owner] = await database.db.select({ role: users.role }).from(users).where(eq(users.id, row.userId));
  const limit =
    row.target !== 'list' || owner?.role === 'super_admin'
      ? -1
      : (await getPlanLimits({ db: database.db, userId: row.userId })).recipients;
  try {
    const eager = input.eager;
    await eager?.settle();
    if (eager?.healthy) {
      const outcome = await finishEagerly(eager, row, counters, limit).catch(async (error: unknown) => {
        await eager.abandon();
        throw error;
      });
      if (outcome === 'cancelled') await eager.abandon();
      else await eager.commit();
      return outcome;
    }
    await eager?.abandon();
    return await session.transaction((tx) =>
      finish(tx, row, counters, limit, {
        usedIncludesMoved: false,
        move: () => moveStagedRows(tx, table, { target: row.target, userId: row.userId, listId: row.listId }),
      }),
    );
  } catch (error) {
    if (!(error instanceof OverRecipientLimit)) throw error;
    try {
      await assertRecipientCapacity({
        db: database.db,
        actor: { id: row.userId, role: owner?.role ?? 'user' },
        used: error.used,
        adding: error.adding,
      });
    } catch (refusal) {
      if (refusal instanceof AppError) throw new ImportRefused(refusal.message);
      throw refusal;
    }
    throw new ImportRefused("This import would pass your plan's contact limit.");
  }
}

/** The final checks in the eager move's transaction, whose rows are already in the list. */
function finishEagerly(
  eager: EagerListMove,
  row: ImportRow,
  counters: ImportCounters,
  recipientLimit: number,
): Promise<'completed' | 'cancelled'> {
  return finish(eager.transaction, row, counters, recipientLimit, {
    usedIncludesMoved: true,
    move: async () => ({ inserted: eager.inserted, roleAddresses: eager.roleAddresses }),
  });
}

/**
 * The last statements of the one transaction that changes the target: the cancel check, the plan's
 * recipient limit, the list's custom fields and the import's totals, around the move of the rows (or,
 * with the eager move, after it). Returns 'cancelled' when the import was cancelled first.
 */
async function finish(
  tx: ImportSession,
  row: ImportRow,
  counters: ImportCounters,
  recipientLimit: number,
  options: {
    move: () => Promise<MoveResult>;
    /** The contact counts already include the moved rows (the eager move's inserts fired the trigger). */
    usedIncludesMoved: boolean;
  },
): Promise<'completed' | 'cancelled'> {
  const { rows: locked } = await tx.query<{ status: string }>(
    'SELECT status FROM imports WHERE id = $1 FOR UPDATE',
    [row.id],
  );
  if (locked[0]?.status !== 'running') return 'cancelled';
  let customFields: string[] | null = null;
  let used = 0;
  if (row.target === 'list') {
    // The same per-user lock as single adds, so two writers cannot both pass the recipient limit.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`contacts:${row.userId}`]);
    const { rows: totals } = await tx.query<{ n: number }>(
      'SELECT coalesce(sum(contact_count), 0)::int AS n FROM contact_lists WHERE user_id = $1 AND deleted_at IS NULL',
      [row.userId],
    );
    used = Number(totals[0]?.n ?? 0);
    const { rows: lists } = await tx.query<{
      custom_fields: string[];
      name: string;
      frozen_at: Date | null;
      frozen_reason: string | null;
    }>(
      `SELECT custom_fields, name, frozen_at, frozen_reason FROM contact_lists
       WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`,
      [row.listId, row.userId],
    );
    if (!lists[0])
      throw new ImportRefused('The list was deleted during the import, so nothing was imported.');
    // Frozen by an admin while the file was read: nothing goes in (the transaction rolls back).
    if (lists[0].frozen_at)
      throw new ImportRefused(CONTACT_MESSAGES.listFrozen(lists[0].name, lists[0].frozen_reason));
    customFields = mergeCustomFields(lists[0].custom_fields, row.mapping ?? {});
    // Checked at start too; the list may have gained fields since (PATCH /api/lists/:id).
    if (customFields.length > CUSTOM_FIELDS_MAX)
      throw new ImportRefused(IMPORT_MESSAGES.mappingTooManyCustom);
  }
  const moved = await options.move();
  if (options.usedIncludesMoved) used -= moved.inserted;
  if (recipientLimit >= 0 && used + moved.inserted > recipientLimit)
    throw new OverRecipientLimit(used, moved.inserted);
  const raced = counters.staged - moved.inserted;
  if (row.target === 'list') {
    // contact_count follows list_contacts through the migration's statement trigger.
    await tx.query('UPDATE contact_lists SET custom_fields = $2::jsonb, updated_at = $3 WHERE id = $1', [
      row.listId,
      JSON.stringify(customFields),
      now(),
    ]);
  }
  await tx.query(
    `UPDATE imports SET status = 'completed', total_rows = $2, processed_rows = $2, imported_rows = $3,
       existing_rows = existing_rows + $4, role_address_rows = $5, bytes_processed = size_bytes,
       finished_at = $6, updated_at = $6
     WHERE id = $1`,
    [row.id, counters.processed, moved.inserted, raced, moved.roleAddresses, now()],
  );
  return 'completed';
}

function mergeCustomFields(current: unknown, mapping: Record<string, string>): string[] {
  const names = Array.isArray(current) ? current.filter((v): v is string => typeof v === 'string') : [];
  for (const value of Object.values(mapping)) {
    if (value.startsWith('custom:')) {
      const name = value.slice('custom:'.length);
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}
