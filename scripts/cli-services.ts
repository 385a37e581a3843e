// Opens the database and better-auth for one-off commands (seed, create-super-admin) without HTTP.
import path from 'node:path';
import { openDatabase } from '../src/server/db/client';
import { parseEnv } from '../src/server/env';
import { createAuth } from '../src/server/lib/auth';
import { secureDataDirOrWarn } from '../src/server/lib/data-dir';
import { resolveSecrets } from '../src/server/lib/secrets';

export async function openCliServices() {
  const env = parseEnv();
  secureDataDirOrWarn(env.DATA_DIR);
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: path.join(env.DATA_DIR, 'pglite') });
  await database.migrate();
  const auth = createAuth({
    db: database.db,
    appUrl: env.APP_URL,
    secret: resolveSecrets(env).sessionSecret,
    secureCookies: env.NODE_ENV === 'production',
    trustedOrigins: [new URL(env.APP_URL).origin],
    sendResetPassword: async () => {},
  });
  return { env, database, db: database.db, auth };
}
