import { auditLog } from '@server/db/schema/index';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/** The audit entries one actor left, oldest first (read from the table: other tests write there too). */
export async function auditEntriesOf(app: FastifyInstance, actorId: string) {
  return app.services.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.actorId, actorId))
    .orderBy(asc(auditLog.createdAt));
}
