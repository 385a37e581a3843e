import type { User } from '@shared/auth';

/*
 * The user as the API shows it, apart from http.ts: services that shape a user (payments, account, admin)
 * run in the worker too, which then need not load better-auth for it.
 */

export type UserRow = {
  id: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  name?: string | null;
  role?: string | null;
  subscriptionPlan?: string | null;
  subscriptionStatus?: string | null;
  subscriptionInterval?: string | null;
  subscriptionCurrentPeriodEnd?: Date | string | null;
  createdAt: Date | string;
};

const iso = (value: Date | string | null | undefined) =>
  value == null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** The user as the API shows it: email, names, role, plan and subscription state; nothing else of the row. */
export function toUserDto(row: UserRow): User {
  const plan = (row.subscriptionPlan ?? 'free') as User['subscriptionPlan'];
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName || row.name || '',
    lastName: row.lastName ?? null,
    role: (row.role ?? 'user') as User['role'],
    subscriptionPlan: plan,
    plan: plan === 'free' ? 'free' : 'premium',
    subscriptionStatus: row.subscriptionStatus ?? null,
    subscriptionInterval: (row.subscriptionInterval ?? null) as User['subscriptionInterval'],
    subscriptionCurrentPeriodEnd: iso(row.subscriptionCurrentPeriodEnd),
    createdAt: iso(row.createdAt) ?? new Date(0).toISOString(),
  };
}
