import type { Database } from '@server/db/client';
import { contactLists } from '@server/db/schema/index';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { assertWithinLimit } from './plan-limits.service';

/** Who is asking, as the contacts features need it. */
export interface ContactsActor {
  id: string;
  role?: string | null;
}

/** Staff work on the shared directory; plan limits are for subscribers. */
export const isStaff = (actor: ContactsActor) => actor.role === 'super_admin' || actor.role === 'data_entry';

/** Contacts the user holds across live lists: what the plan's `recipients` limit counts. */
export async function countRecipients({ db, userId }: { db: Database; userId: string }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${contactLists.contactCount}), 0)::int` })
    .from(contactLists)
    .where(and(eq(contactLists.userId, userId), isNull(contactLists.deletedAt)));
  return Number(row?.n ?? 0);
}

/**
 * Throws 403 (reason `plan_limit`, limit `recipients`) when `used + adding` passes the plan's recipient
 * limit. Super admins are not limited. Callers hold the user's advisory lock (see lockUserContacts).
 */
export async function assertRecipientCapacity(options: {
  db: Database;
  actor: ContactsActor;
  used: number;
  adding: number;
}): Promise<void> {
  if (options.adding <= 0 || options.actor.role === 'super_admin') return;
  await assertWithinLimit({
    db: options.db,
    userId: options.actor.id,
    limit: 'recipients',
    used: options.used,
    adding: options.adding,
  });
}

/** Serialises one user's list writes within a transaction, so two adds cannot both pass the limit. */
export async function lockUserContacts({ db, userId }: { db: Database; userId: string }): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`contacts:${userId}`}))`);
}
