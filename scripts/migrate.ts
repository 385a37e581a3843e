// `npm run db:migrate`: applies committed migrations to DATABASE_URL (or the embedded PGlite in DATA_DIR).
import path from 'node:path';
import { openDatabase } from '../src/server/db/client';
import { parseEnv } from '../src/server/env';
import { secureDataDirOrWarn } from '../src/server/lib/data-dir';

const env = parseEnv();
secureDataDirOrWarn(env.DATA_DIR);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: path.join(env.DATA_DIR, 'pglite') });
await database.migrate();
await database.close();
process.stdout.write(
  `Migrations applied to ${env.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${env.DATA_DIR}`}.\n`,
);
