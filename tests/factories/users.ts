import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { User } from '../../src/shared/auth';
import type { PlanId } from '../../src/shared/plans';
import type { Role } from '../../src/shared/roles';
import { users } from '../../src/server/db/schema/index';
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
  if (register.statusCode !== 201) throw new Error(`register failed ${register.statusCode}: ${register.body}`);
  const created = register.json<User>();
  const changes: Partial<typeof users.$inferInsert> = {};
  if (options.role) changes.role = options.role;
  if (options.plan) changes.subscriptionPlan = options.plan;
  if (options.status !== undefined) changes.subscriptionStatus = options.status;
  if (options.periodEnd !== undefined) changes.subscriptionCurrentPeriodEnd = options.periodEnd;
  if (Object.keys(changes).length > 0) {
    await app.services.db.update(users).set(changes).where(eq(users.id, created.id));
  }
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password: TEST_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login failed ${login.statusCode}: ${login.body}`);
  return { user: login.json<User>(), email, password: TEST_PASSWORD, cookie: sessionCookieFrom(login) };
}
