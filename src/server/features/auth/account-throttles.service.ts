import { passwordResetMailLog, signInFailures, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import type { Services } from '@server/services';
import type { SignInFailure } from '@shared/admin';
import { MESSAGES } from '@shared/auth';
import { count, desc, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';

// Per-account limits beside the per-IP ones of auth.routes.ts: an attacker with many addresses can still
// flood one mailbox or guess one password without them. The state is in the database, so every web
// process counts together, and it is keyed by address whether or not an account has it, so nothing a
// caller sees tells a known address from an unknown one.

type Db = Services['db'];

export const RESET_MAILS_PER_HOUR = 3;
const RESET_MAIL_WINDOW_MS = 60 * 60_000;

/** The failure that locks: the 5th of a streak; each further failure doubles the lock, up to the cap. */
export const SIGN_IN_FAILURES_BEFORE_LOCK = 5;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 15 * 60_000;
/** A streak ends after this long without a failure (counted from the end of its last lock). */
const STREAK_QUIET_MS = 15 * 60_000;

const normalise = (email: string) => email.trim().toLowerCase();

/**
 * Whether another reset mail may go to this address now; if so, it is counted. At most
 * RESET_MAILS_PER_HOUR in any hour, however many requests race each other (the row lock orders them).
 */
export async function claimResetMail({ db, email }: { db: Db; email: string }): Promise<boolean> {
  const address = normalise(email);
  const at = now();
  return db.transaction(async (tx) => {
    await tx
      .insert(passwordResetMailLog)
      .values({ email: address, sentAt: [], lastRequestedAt: at })
      .onConflictDoNothing();
    const [row] = await tx
      .select({ sentAt: passwordResetMailLog.sentAt })
      .from(passwordResetMailLog)
      .where(eq(passwordResetMailLog.email, address))
      .for('update');
    const since = at.getTime() - RESET_MAIL_WINDOW_MS;
    const recent = (row?.sentAt ?? []).map((t) => new Date(t)).filter((t) => t.getTime() > since);
    const allowed = recent.length < RESET_MAILS_PER_HOUR;
    await tx
      .update(passwordResetMailLog)
      .set({ sentAt: allowed ? [...recent, at] : recent, lastRequestedAt: at })
      .where(eq(passwordResetMailLog.email, address));
    return allowed;
  });
}

export function lockDurationMs(failures: number): number {
  if (failures < SIGN_IN_FAILURES_BEFORE_LOCK) return 0;
  return Math.min(MAX_LOCK_MS, FIRST_LOCK_MS * 2 ** (failures - SIGN_IN_FAILURES_BEFORE_LOCK));
}

export type SignInAttempt =
  | { allowed: false }
  | { allowed: true; failures: number; lockedUntil: Date | null };

/**
 * Starts a sign-in attempt for an address. A locked address is refused (and the refusal counted).
 * Otherwise the attempt is counted as a failure before the password is checked, so parallel guesses
 * cannot all slip past the count; `clearSignInFailures` forgets the streak once the password proves right.
 */
export async function beginSignInAttempt({ db, email }: { db: Db; email: string }): Promise<SignInAttempt> {
  const address = normalise(email);
  const at = now();
  return db.transaction(async (tx) => {
    await tx
      .insert(signInFailures)
      .values({ email: address, firstFailedAt: at, lastFailedAt: at, lastAttemptAt: at })
      .onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(signInFailures)
      .where(eq(signInFailures.email, address))
      .for('update');
    if (row?.lockedUntil && row.lockedUntil > at) {
      await tx
        .update(signInFailures)
        .set({ refused: sql`${signInFailures.refused} + 1`, lastAttemptAt: at })
        .where(eq(signInFailures.email, address));
      return { allowed: false } as const;
    }
    const streakEnd = Math.max(row?.lastFailedAt.getTime() ?? 0, row?.lockedUntil?.getTime() ?? 0);
    const fresh = !row || row.failures === 0 || streakEnd < at.getTime() - STREAK_QUIET_MS;
    const failures = fresh ? 1 : row.failures + 1;
    const lockMs = lockDurationMs(failures);
    const lockedUntil = lockMs > 0 ? new Date(at.getTime() + lockMs) : null;
    await tx
      .update(signInFailures)
      .set({
        failures,
        ...(fresh ? { firstFailedAt: at, refused: 0 } : {}),
        lastFailedAt: at,
        lastAttemptAt: at,
        lockedUntil,
      })
      .where(eq(signInFailures.email, address));
    return { allowed: true, failures, lockedUntil } as const;
  });
}

/**
 * Counts a password check (a sign-in, or a signed-in session confirming its password) for the address
 * before it runs, and refuses it with the rate limiter's answer while the address is locked.
 */
export async function startPasswordCheck(options: {
  db: Db;
  email: string;
  log?: FastifyBaseLogger;
}): Promise<void> {
  const attempt = await beginSignInAttempt(options);
  if (!attempt.allowed) throw new AppError('rate_limited', MESSAGES.tooManyAttempts);
  if (attempt.lockedUntil) {
    options.log?.warn(
      { failures: attempt.failures, lockedUntil: attempt.lockedUntil.toISOString() },
      'repeated wrong passwords for one address: further attempts locked',
    );
  }
}

/** Forgets an address's failed sign-ins (its password proved right, was reset, or an admin lifted the lock). */
export async function clearSignInFailures({ db, email }: { db: Db; email: string }): Promise<boolean> {
  const deleted = await db
    .delete(signInFailures)
    .where(eq(signInFailures.email, normalise(email)))
    .returning({ email: signInFailures.email });
  return deleted.length > 0;
}

export async function listSignInFailures(options: {
  db: Db;
  lockedOnly: boolean;
  page: number;
  pageSize: number;
}): Promise<{ entries: SignInFailure[]; total: number; page: number; pageSize: number }> {
  const at = now();
  const where: SQL | undefined = options.lockedOnly ? gt(signInFailures.lockedUntil, at) : undefined;
  const rows = await options.db
    .select({ row: signInFailures, userId: users.id })
    .from(signInFailures)
    .leftJoin(users, eq(users.email, signInFailures.email))
    .where(where)
    .orderBy(desc(signInFailures.lastAttemptAt), signInFailures.email)
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  const [total] = await options.db.select({ value: count() }).from(signInFailures).where(where);
  return {
    entries: rows.map(({ row, userId }) => ({
      email: row.email,
      accountExists: userId !== null,
      failures: row.failures,
      refused: row.refused,
      firstFailedAt: row.firstFailedAt.toISOString(),
      lastFailedAt: row.lastFailedAt.toISOString(),
      lastAttemptAt: row.lastAttemptAt.toISOString(),
      lockedUntil: row.lockedUntil?.toISOString() ?? null,
      locked: row.lockedUntil !== null && row.lockedUntil > at,
    })),
    total: total?.value ?? 0,
    page: options.page,
    pageSize: options.pageSize,
  };
}

/** How long a quiet address stays on the operator's list after its last attempt or lock. */
const FAILURE_RETENTION_MS = 24 * 60 * 60_000;

/** Drops throttle rows that no longer limit or tell anything (the hourly purge job; safe to run twice). */
export async function pruneAccountThrottles({ db }: { db: Db }): Promise<number> {
  const at = now().getTime();
  const cutoff = new Date(at - FAILURE_RETENTION_MS).toISOString();
  const failures = await db
    .delete(signInFailures)
    .where(
      sql`greatest(${signInFailures.lastAttemptAt}, ${signInFailures.lockedUntil}) < ${cutoff}::timestamptz`,
    )
    .returning({ email: signInFailures.email });
  const mails = await db
    .delete(passwordResetMailLog)
    .where(lt(passwordResetMailLog.lastRequestedAt, new Date(at - RESET_MAIL_WINDOW_MS)))
    .returning({ email: passwordResetMailLog.email });
  return failures.length + mails.length;
}
