import { randomBytes } from 'node:crypto';
import type { Role } from '@shared/roles';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index';
import { findUserByEmail } from '../features/auth/auth.service';
import type { Services } from '../services';

export const DEMO_ACCOUNTS: { role: Role; email: string; firstName: string; lastName: string }[] = [
  { role: 'user', email: 'demo@tambari.test', firstName: 'Adaeze', lastName: 'Okafor' },
  { role: 'super_admin', email: 'admin@tambari.test', firstName: 'Tunde', lastName: 'Bakare' },
  { role: 'data_entry', email: 'dataentry@tambari.test', firstName: 'Amina', lastName: 'Yusuf' },
];

export function generatePassword(): string {
  return `tmb-${randomBytes(9).toString('base64url')}`;
}

/** Creates a user with a role through better-auth (so the password is hashed the one way we hash). */
export async function createAccount(
  services: Pick<Services, 'auth' | 'db'>,
  input: { email: string; password: string; firstName: string; lastName?: string; role: Role },
): Promise<string> {
  const { user } = await services.auth.api.signUpEmail({
    body: {
      email: input.email.toLowerCase(),
      password: input.password,
      name: [input.firstName, input.lastName].filter(Boolean).join(' '),
      firstName: input.firstName,
      lastName: input.lastName,
    },
  });
  if (input.role !== 'user')
    await services.db.update(users).set({ role: input.role }).where(eq(users.id, user.id));
  return user.id;
}

/**
 * First start of the embedded default: the three demo accounts, each printed once as
 * `demo login: <role> <email> <password>`. Later starts find them and print nothing.
 */
export async function seedDemoAccounts(
  services: Pick<Services, 'auth' | 'db'>,
  options: { password?: string; print: (line: string) => void },
): Promise<number> {
  let created = 0;
  for (const account of DEMO_ACCOUNTS) {
    if (await findUserByEmail({ db: services.db, email: account.email })) continue;
    const password = options.password ?? generatePassword();
    await createAccount(services, { ...account, password });
    options.print(`demo login: ${account.role} ${account.email} ${password}`);
    created++;
  }
  return created;
}
