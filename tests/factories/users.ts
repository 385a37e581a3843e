import { randomUUID } from 'node:crypto';
import { users } from '@server/db/schema/index';
import type { User } from '@shared/auth';
import type { PlanId } from '@shared/plans';
import type { Role } from '@shared/roles';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { sessionCookieFrom } from '../setup/test-app';

export const TEST_PASSWORD = 'Kola-nut-2026!';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@tambari.test`;
}

export interface TestUser {
  user: User;
  email: string;
  password: string;
  cookie: string;
}

/** Registers through the API (as a person would), then sets what only an admin or payment could set. */
export async function createUser(
  app: FastifyInstance,
  options: {
    role?: Role;
    plan?: PlanId;
    status?: string | null;
    periodEnd?: Date | null;
    firstName?: string;
    email?: string;
  } = {},
): Promise<TestUser> {
  const email = options.email ?? uniqueEmail(options.role ?? 'user');
  const register = await app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { email, password: TEST_PASSWORD, firstName: options.firstName ?? 'Chidi', lastName: 'Eze' },
  });
  if (register.statusCode !== 201)
    throw new Error(`register failed ${register.statusCode}: ${register.body}`);
  const created = register.json<User>();
  const changes: Partial<typeof users.$inferInsert> = {};
  if (options.role) changes.role = options.role;
  if (options.plan) changes.subscriptionPlan = options.plan;
  if (options.status !== undefined) changes.subscriptionStatus = options.status;
  if (options.periodEnd !== undefined) changes.subscriptionCurrentPeriodEnd = options.periodEnd;
  if (Object.keys(changes).length > 0) {
    await app.services.db.update(users).set(changes).where(eq(users.id, created.id));
  }
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password: TEST_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login failed ${login.statusCode}: ${login.body}`);
  return { user: login.json<User>(), email, password: TEST_PASSWORD, cookie: sessionCookieFrom(login) };
}

/** How many accounts exist for this email (any case): 0 or 1 unless something is badly wrong. */
export async function countUsersWithEmail(app: FastifyInstance, email: string): Promise<number> {
  const rows = await app.services.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return rows.length;
}

/** The stored row of a user, as the database holds it. */
export async function userRow(app: FastifyInstance, id: string) {
  const [row] = await app.services.db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Signs in through the API and returns the new session cookie. */
export async function login(app: FastifyInstance, email: string, password = TEST_PASSWORD): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  if (response.statusCode !== 200) throw new Error(`login failed ${response.statusCode}: ${response.body}`);
  return sessionCookieFrom(response);
}
