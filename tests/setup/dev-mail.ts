import { devMailMessages } from '@server/db/schema/index';
import { and, desc, eq, ilike } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

export type StoredMail = typeof devMailMessages.$inferSelect;

/** The messages the development mailbox holds for one recipient, newest first. */
export async function mailTo(app: FastifyInstance, to: string): Promise<StoredMail[]> {
  return app.services.db
    .select()
    .from(devMailMessages)
    .where(ilike(devMailMessages.toAddress, `%${to}%`))
    .orderBy(desc(devMailMessages.receivedAt));
}

/**
 * Waits until the development mailbox holds a message for `to` (optionally with this subject). Mail is
 * sent after the request has been answered, so it may arrive a moment later.
 */
export async function waitForMail(
  app: FastifyInstance,
  to: string,
  options: { subject?: string; timeoutMs?: number } = {},
): Promise<StoredMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const [found] = await app.services.db
      .select()
      .from(devMailMessages)
      .where(
        and(
          ilike(devMailMessages.toAddress, `%${to}%`),
          options.subject ? eq(devMailMessages.subject, options.subject) : undefined,
        ),
      )
      .orderBy(desc(devMailMessages.receivedAt))
      .limit(1);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no mail for ${to} arrived within ${options.timeoutMs ?? 5_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
