import type { Database } from '@server/db/client';
import { sql } from 'drizzle-orm';

/*
 * A campaign's per-recipient-domain pace (at most N messages an hour to gmail.com, say), shared by every
 * worker through one counter row per user, domain and hour.
 */

export function recipientDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

export function hourStartOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
}

/**
 * Takes one unit of this hour's pace for the recipient's domain, or answers when the next hour starts
 * if the hour is full. Atomic (one upsert guarded by the limit), so concurrent workers share the pace.
 */
export async function takeDomainPace(
  db: Database,
  options: { userId: string; perHour: number; email: string; at: Date },
): Promise<{ hourStart: Date } | { nextHour: Date }> {
  const hourStart = hourStartOf(options.at);
  const result = await db.execute(sql`
    INSERT INTO domain_pace_counters (user_id, domain, hour_start, sent)
    VALUES (${options.userId}, ${recipientDomain(options.email)}, ${hourStart.toISOString()}::timestamptz, 1)
    ON CONFLICT (user_id, domain, hour_start)
    DO UPDATE SET sent = domain_pace_counters.sent + 1
    WHERE domain_pace_counters.sent < ${options.perHour}
    RETURNING sent`);
  const taken = (result as unknown as { rows: unknown[] }).rows.length > 0;
  return taken ? { hourStart } : { nextHour: new Date(hourStart.getTime() + 3_600_000) };
}

/** Gives back a unit of pace taken for a message that then did not leave. */
export async function releaseDomainPace(
  db: Database,
  options: { userId: string; email: string; hourStart: Date },
): Promise<void> {
  await db.execute(sql`
    UPDATE domain_pace_counters SET sent = greatest(sent - 1, 0)
    WHERE user_id = ${options.userId} AND domain = ${recipientDomain(options.email)}
      AND hour_start = ${options.hourStart.toISOString()}::timestamptz`);
}
