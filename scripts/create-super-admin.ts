// `npm run create-super-admin -- --email you@company.com [--password …] [--first-name …] [--last-name …]`
// Creates a super admin, or promotes an existing account. Prints a generated password when none is given.
// With the embedded database, stop `npm start` first: only one process may open PGlite.
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { users } from '../src/server/db/schema/index';
import { findUserByEmail } from '../src/server/features/auth/auth.service';
import { isCommonPassword } from '../src/server/features/auth/password-policy';
import { createAccount, generatePassword } from '../src/server/seed/demo-accounts';
import { registerSchema } from '../src/shared/auth';
import { openCliServices } from './cli-services';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'first-name': { type: 'string', default: 'Admin' },
    'last-name': { type: 'string' },
  },
});
const generated = values.password === undefined;
const password = values.password ?? generatePassword();
const input = registerSchema.safeParse({
  email: values.email,
  password,
  firstName: values['first-name'],
  lastName: values['last-name'],
});
if (!input.success) {
  process.stderr.write(`${input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n')}\n`);
  process.exit(1);
}
if (isCommonPassword(password)) {
  process.stderr.write(
    'That password is too common. Choose another, or leave --password out to get one generated.\n',
  );
  process.exit(1);
}

const services = await openCliServices();
const existing = await findUserByEmail({ db: services.db, email: input.data.email });
if (existing) {
  await services.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, existing.id));
  process.stdout.write(`${existing.email} is now a super admin (password unchanged).\n`);
} else {
  await createAccount(services, { ...input.data, role: 'super_admin' });
  process.stdout.write(
    `Created super admin ${input.data.email.toLowerCase()}${generated ? ` with password ${password}` : ''}.\n`,
  );
}
await services.database.close();
