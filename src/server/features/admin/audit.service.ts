import type { Database } from '@server/db/client';
import { auditLog } from '@server/db/schema/index';
import type { AuditEntry } from '@shared/admin';
import { count, desc, eq } from 'drizzle-orm';

export interface AuditActor {
  id: string;
  email: string;
  ipAddress?: string | null;
}

export async function recordAuditEntry(options: {
  db: Database;
  actor: AuditActor | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  details?: Record<string, unknown>;
}): Promise<void> {
  await options.db.insert(auditLog).values({
    actorId: options.actor?.id ?? null,
    actorEmail: options.actor?.email ?? null,
    ipAddress: options.actor?.ipAddress ?? null,
    action: options.action,
    targetType: options.targetType,
    targetId: options.targetId ?? null,
    details: options.details ?? {},
  });
}

export async function listAuditEntries(options: { db: Database; page: number; pageSize: number }) {
  const rows = await options.db
    .select()
    .from(auditLog)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  const [total] = await options.db.select({ value: count() }).from(auditLog);
  const entries: AuditEntry[] = rows.map((row) => ({
    id: row.id,
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  }));
  return { entries, total: total?.value ?? 0, page: options.page, pageSize: options.pageSize };
}

/** The latest entries of one kind of action, newest first. */
export async function listAuditEntriesFor(options: {
  db: Database;
  action: string;
  limit: number;
}): Promise<AuditEntry[]> {
  const rows = await options.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, options.action))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(options.limit);
  return rows.map((row) => ({
    id: row.id,
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  }));
}
