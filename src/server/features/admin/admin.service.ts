import { sessions, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { toUserDto } from '@server/lib/user-dto';
import type { Services } from '@server/services';
import type { AdminOverview, AdminUser, AdminUserListQuery } from '@shared/admin';
import { PLAN_NAMES, type PlanId } from '@shared/plans';
import type { Role } from '@shared/roles';
import { and, count, countDistinct, desc, eq, gt, gte, ilike, or, type SQL, sql } from 'drizzle-orm';
import { clearSignInFailures } from '../auth/account-throttles.service';
import { type AuditActor, recordAuditEntry } from './audit.service';

type Db = Services['db'];

// Drizzle leaves column names unqualified in a one-table select, where "id" inside the subquery would mean
// the session's id; the columns are therefore qualified by hand.
const activeSessionCount = sql<number>`(select count(*)::int from ${sessions} where ${sessions}.user_id = ${users}.id and ${sessions}.expires_at > now())`;
const lastActiveAt = sql<
  Date | string | null
>`(select max(${sessions}.updated_at) from ${sessions} where ${sessions}.user_id = ${users}.id)`;

type UserRow = typeof users.$inferSelect & { activeSessions: number; lastActiveAt: Date | string | null };

function toAdminUser(row: UserRow): AdminUser {
  const { plan: _displayOnly, ...user } = toUserDto(row);
  return {
    ...user,
    planName: PLAN_NAMES[user.subscriptionPlan],
    banned: row.banned ?? false,
    banReason: row.banReason,
    activeSessions: Number(row.activeSessions),
    lastActiveAt: row.lastActiveAt ? new Date(row.lastActiveAt).toISOString() : null,
  };
}

async function selectUsers(
  db: Db,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<UserRow[]> {
  const rows = await db
    .select({ user: users, activeSessions: activeSessionCount, lastActiveAt })
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...r.user, activeSessions: r.activeSessions, lastActiveAt: r.lastActiveAt }));
}

export async function getAdminUserById({ db, id }: { db: Db; id: string }): Promise<AdminUser> {
  const [row] = await selectUsers(db, eq(users.id, id), 1, 0);
  if (!row) throw notFound('User not found');
  return toAdminUser(row);
}

export async function listAdminUsers({ db, query }: { db: Db; query: AdminUserListQuery }) {
  const filters: SQL[] = [];
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(users.email, pattern), ilike(users.name, pattern)) as SQL);
  }
  if (query.role) filters.push(eq(users.role, query.role));
  if (query.plan) filters.push(eq(users.subscriptionPlan, query.plan));
  if (query.status === 'suspended') filters.push(eq(users.banned, true));
  if (query.status === 'active') filters.push(sql`coalesce(${users.banned}, false) = false`);
  const where = filters.length > 0 ? and(...filters) : undefined;
  const rows = await selectUsers(db, where, query.pageSize, (query.page - 1) * query.pageSize);
  const [total] = await db.select({ value: count() }).from(users).where(where);
  return {
    users: rows.map(toAdminUser),
    total: total?.value ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function updateUserByAdmin(options: {
  db: Db;
  actor: AuditActor;
  id: string;
  role?: Role;
  subscriptionPlan?: PlanId;
}): Promise<AdminUser> {
  const before = await getAdminUserById({ db: options.db, id: options.id });
  if (options.id === options.actor.id && options.role && options.role !== 'super_admin') {
    throw new AppError('bad_request', 'You cannot remove your own super admin role.');
  }
  const changes: Partial<typeof users.$inferInsert> = { updatedAt: now() };
  if (options.role) changes.role = options.role;
  if (options.subscriptionPlan && options.subscriptionPlan !== before.subscriptionPlan) {
    Object.assign(changes, planGrant(options.subscriptionPlan, before));
  }
  await options.db.transaction(async (tx) => {
    await tx.update(users).set(changes).where(eq(users.id, options.id));
    await recordAuditEntry({
      db: tx as unknown as Db,
      actor: options.actor,
      action: 'user.updated',
      targetType: 'user',
      targetId: options.id,
      details: {
        email: before.email,
        ...(options.role ? { role: { from: before.role, to: options.role } } : {}),
        ...(options.subscriptionPlan
          ? { plan: { from: before.subscriptionPlan, to: options.subscriptionPlan } }
          : {}),
      },
    });
  });
  return getAdminUserById({ db: options.db, id: options.id });
}

const COMPLIMENTARY_PERIOD_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * An admin moving someone to a paid plan grants it (a complimentary month unless a paid period is
 * already running), so the user is not met by the payment screen; moving to free clears the subscription.
 */
function planGrant(plan: PlanId, before: AdminUser): Partial<typeof users.$inferInsert> {
  if (plan === 'free') {
    return {
      subscriptionPlan: 'free',
      subscriptionStatus: null,
      subscriptionInterval: null,
      subscriptionCurrentPeriodEnd: null,
    };
  }
  const currentEnd = before.subscriptionCurrentPeriodEnd
    ? new Date(before.subscriptionCurrentPeriodEnd)
    : null;
  const running = before.subscriptionStatus === 'active' && currentEnd && currentEnd > now();
  return {
    subscriptionPlan: plan,
    subscriptionStatus: 'active',
    subscriptionInterval: before.subscriptionInterval ?? 'monthly',
    subscriptionCurrentPeriodEnd: running ? currentEnd : new Date(now().getTime() + COMPLIMENTARY_PERIOD_MS),
  };
}

/**
 * Stops everything that sends on the user's behalf, in the suspension's transaction (after the user row is
 * marked banned); what it returns goes into the audit entry. Passed in by the app (campaigns.service.ts
 * pauseSendingOfSuspendedUser), so admin does not depend on the sending features, which record audit
 * entries through it.
 */
export type StopSendingOfUser = (tx: Db, userId: string) => Promise<Record<string, unknown>>;

export async function suspendUser(options: {
  db: Db;
  actor: AuditActor;
  id: string;
  reason: string;
  stopSending: StopSendingOfUser;
}) {
  if (options.id === options.actor.id)
    throw new AppError('bad_request', 'You cannot suspend your own account.');
  const before = await getAdminUserById({ db: options.db, id: options.id });
  await options.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ banned: true, banReason: options.reason, updatedAt: now() })
      .where(eq(users.id, options.id));
    await tx.delete(sessions).where(eq(sessions.userId, options.id));
    // Suspension is to stop their mail: their sending stops with it, in this transaction.
    const sending = await options.stopSending(tx as unknown as Db, options.id);
    await recordAuditEntry({
      db: tx as unknown as Db,
      actor: options.actor,
      action: 'user.suspended',
      targetType: 'user',
      targetId: options.id,
      details: {
        email: before.email,
        reason: options.reason,
        ...sending,
        note: 'Active campaigns paused and scheduled sends returned to drafts; a restore leaves them so.',
      },
    });
  });
  return getAdminUserById({ db: options.db, id: options.id });
}

export async function restoreUser(options: { db: Db; actor: AuditActor; id: string }) {
  const before = await getAdminUserById({ db: options.db, id: options.id });
  await options.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ banned: false, banReason: null, banExpires: null, updatedAt: now() })
      .where(eq(users.id, options.id));
    await recordAuditEntry({
      db: tx as unknown as Db,
      actor: options.actor,
      action: 'user.restored',
      targetType: 'user',
      targetId: options.id,
      details: {
        email: before.email,
        note: 'Campaigns paused by the suspension stay paused until the user resumes them after signing in.',
      },
    });
  });
  return getAdminUserById({ db: options.db, id: options.id });
}

export async function endUserSessions(options: { db: Db; actor: AuditActor; id: string }): Promise<number> {
  const before = await getAdminUserById({ db: options.db, id: options.id });
  return options.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(sessions)
      .where(eq(sessions.userId, options.id))
      .returning({ id: sessions.id });
    await recordAuditEntry({
      db: tx as unknown as Db,
      actor: options.actor,
      action: 'user.sessions_ended',
      targetType: 'user',
      targetId: options.id,
      details: { email: before.email, sessions: deleted.length },
    });
    return deleted.length;
  });
}

/** Lifts a sign-in lock (a locked-out user called support); 404 when the address has no failures. */
export async function clearSignInLock(options: { db: Db; actor: AuditActor; email: string }) {
  await options.db.transaction(async (tx) => {
    const cleared = await clearSignInFailures({ db: tx as unknown as Db, email: options.email });
    if (!cleared) throw notFound('No failed sign-ins are recorded for this address.');
    await recordAuditEntry({
      db: tx as unknown as Db,
      actor: options.actor,
      action: 'security.sign_in_lock_cleared',
      targetType: 'email',
      targetId: null,
      details: { email: options.email },
    });
  });
}

export async function getAdminOverview({ db }: { db: Db }): Promise<AdminOverview> {
  const since = new Date(now().getTime() - 29 * 24 * 60 * 60 * 1000);
  since.setUTCHours(0, 0, 0, 0);
  const [byRole, byPlan, signups, [active], [suspended]] = await Promise.all([
    db.select({ key: users.role, value: count() }).from(users).groupBy(users.role),
    db.select({ key: users.subscriptionPlan, value: count() }).from(users).groupBy(users.subscriptionPlan),
    db
      .select({
        day: sql<string>`to_char(date_trunc('day', ${users.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`,
        value: count(),
      })
      .from(users)
      .where(gte(users.createdAt, since))
      .groupBy(sql`1`),
    db
      .select({ value: countDistinct(sessions.id) })
      .from(sessions)
      .where(gt(sessions.expiresAt, now())),
    db.select({ value: count() }).from(users).where(eq(users.banned, true)),
  ]);
  const signupsByDay = new Map(signups.map((s) => [s.day, Number(s.value)]));
  const signupsPerDay = Array.from({ length: 30 }, (_, i) => {
    const day = new Date(since.getTime() + i * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    return { day, count: signupsByDay.get(day) ?? 0 };
  });
  const usersByRole = Object.fromEntries(byRole.map((r) => [r.key, Number(r.value)]));
  return {
    totalUsers: Object.values(usersByRole).reduce((a, b) => a + b, 0),
    usersByRole,
    usersByPlan: Object.fromEntries(byPlan.map((r) => [r.key, Number(r.value)])),
    signupsPerDay,
    activeSessions: Number(active?.value ?? 0),
    suspendedUsers: Number(suspended?.value ?? 0),
  };
}
