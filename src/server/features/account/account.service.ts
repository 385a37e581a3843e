import { verify } from '@node-rs/argon2';
import { accounts, sessions, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { toUserDto } from '@server/lib/user-dto';
import type { Services } from '@server/services';
import type { SessionInfo, User } from '@shared/auth';
import { and, desc, eq, gt, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { recordAuditEntry } from '../admin/audit.service';
import { clearSignInFailures, startPasswordCheck } from '../auth/account-throttles.service';
import { revokePasswordResetLinks } from '../auth/auth.service';

type Db = Services['db'];

export async function updateProfile(options: {
  db: Db;
  userId: string;
  firstName: string;
  lastName?: string;
}): Promise<User> {
  const lastName = options.lastName?.trim() || null;
  const [row] = await options.db
    .update(users)
    .set({
      firstName: options.firstName,
      lastName,
      name: [options.firstName, lastName].filter(Boolean).join(' '),
      updatedAt: now(),
    })
    .where(eq(users.id, options.userId))
    .returning();
  if (!row) throw notFound('User not found');
  return toUserDto(row);
}

export async function listSessions(options: {
  db: Db;
  userId: string;
  currentSessionId: string;
}): Promise<SessionInfo[]> {
  const rows = await options.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, options.userId), gt(sessions.expiresAt, now())))
    .orderBy(desc(sessions.updatedAt));
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    current: row.id === options.currentSessionId,
  }));
}

export async function revokeSession(options: { db: Db; userId: string; sessionId: string }): Promise<void> {
  const deleted = await options.db
    .delete(sessions)
    .where(and(eq(sessions.id, options.sessionId), eq(sessions.userId, options.userId)))
    .returning({ id: sessions.id });
  if (deleted.length === 0) throw notFound('Session not found');
}

export async function revokeOtherSessions(options: { db: Db; userId: string; currentSessionId: string }) {
  const deleted = await options.db
    .delete(sessions)
    .where(and(eq(sessions.userId, options.userId), ne(sessions.id, options.currentSessionId)))
    .returning({ id: sessions.id });
  return deleted.length;
}

async function assertPassword(db: Db, userId: string, password: string): Promise<void> {
  const [account] = await db
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
    .limit(1);
  const ok = account?.password ? await verify(account.password, password).catch(() => false) : false;
  if (!ok) {
    throw new AppError('bad_request', 'That password is not correct.', {
      errors: [{ path: 'password', message: 'That password is not correct.' }],
    });
  }
}

/** Deletes the account and everything it owns (rows cascade from the user). The audit trail keeps a note. */
export async function deleteAccount(options: {
  db: Db;
  userId: string;
  email: string;
  password: string;
  log?: FastifyBaseLogger;
}) {
  // A stolen session must not be able to guess the password here beyond the per-account limit.
  await startPasswordCheck({ db: options.db, email: options.email, log: options.log });
  await assertPassword(options.db, options.userId, options.password);
  await clearSignInFailures({ db: options.db, email: options.email });
  await options.db.transaction(async (tx) => {
    await tx.delete(users).where(eq(users.id, options.userId));
    // Reset links name the account only by id (no foreign key): they go with it.
    await revokePasswordResetLinks({ db: tx as unknown as Db, userId: options.userId });
    await recordAuditEntry({
      db: tx as unknown as Db,
      actor: { id: options.userId, email: options.email },
      action: 'account.deleted',
      targetType: 'user',
      targetId: options.userId,
    });
  });
}
