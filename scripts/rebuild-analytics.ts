// `npm run analytics:rebuild`: recomputes the analytics roll-ups from email_events in DATABASE_URL (or the
// embedded PGlite in DATA_DIR). The triggers of migration 0044 keep them in step; this repairs or checks.
// Months of events expired by EVENT_RETENTION_MONTHS keep their roll-ups: only the kept months are recounted.
import path from 'node:path';
import { openDatabase } from '../src/server/db/client';
import { parseEnv } from '../src/server/env';
import { rebuildAnalytics } from '../src/server/features/analytics/analytics.service';
import { secureDataDirOrWarn } from '../src/server/lib/data-dir';

const env = parseEnv();
secureDataDirOrWarn(env.DATA_DIR);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: path.join(env.DATA_DIR, 'pglite') });
try {
  await database.migrate();
  const { rows, ms } = await rebuildAnalytics({ db: database.db });
  process.stdout.write(`Analytics roll-ups rebuilt: ${rows} daily rows in ${ms} ms.\n`);
} finally {
  await database.close();
}
