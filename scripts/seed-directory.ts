// `npm run seed:directory -- --count N [--db-url postgres://…] [--seed S]`: synthetic businesses for demos
// and benchmarks (emails and websites under example.com). Without --db-url it uses DATABASE_URL, else the
// embedded database under DATA_DIR; with the embedded one, stop `npm start` first (one process per PGlite).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/server/db/client';
import { parseEnv } from '../src/server/env';
import { secureDataDirOrWarn } from '../src/server/lib/data-dir';
import {
  assertSyntheticDataAllowed,
  pendingSeedIndexes,
  seedDirectory,
} from '../src/server/seed/seed-directory';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    'db-url': { type: 'string' },
    seed: { type: 'string' },
  },
});
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write('--count must be a positive whole number\n');
  process.exit(1);
}
const env = parseEnv();
try {
  assertSyntheticDataAllowed(env.NODE_ENV);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
secureDataDirOrWarn(env.DATA_DIR);
const url = values['db-url'] ?? env.DATABASE_URL;
const database = await openDatabase({ url, dataDir: path.join(env.DATA_DIR, 'pglite') });
await database.migrate();
process.stdout.write(
  `Seeding ${count.toLocaleString('en-US')} directory contacts into ${url ? 'PostgreSQL' : 'PGlite'}…\n`,
);
let lastReport = 0;
const result = await seedDirectory({
  database,
  nodeEnv: env.NODE_ENV,
  count,
  seed: values.seed ? Number(values.seed) : undefined,
  onProgress: (inserted) => {
    if (inserted - lastReport >= 100_000 || inserted === count) {
      lastReport = inserted;
      process.stdout.write(`  ${inserted.toLocaleString('en-US')} rows\n`);
    }
  },
}).catch(async (error: unknown) => {
  // On PostgreSQL the rows are committed before the secondary indexes are built: say what is missing.
  const pending = await pendingSeedIndexes(database).catch(() => []);
  if (pending.length > 0) {
    process.stderr.write(
      `The rows are loaded but ${pending.length} directory index(es) are not built yet; run this command again (with any --count) to build them.\n`,
    );
  }
  throw error;
});
process.stdout.write(
  `Done: ${result.inserted.toLocaleString('en-US')} contacts in ${(result.ms / 1000).toFixed(1)} s (roll-up and indexes up to date).\n`,
);
await database.close();
