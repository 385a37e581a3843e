import { randomBytes } from 'node:crypto';
import { openDatabase } from '@server/db/client';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * On PostgreSQL, a migrated database of the calling file's own, for tests that change every account's
 * rows (dropping whole partitions, moving every old message): the run's database is shared by the files
 * running meanwhile. On PGlite every file has its own database already: no env, nothing to drop.
 * Returns the env that points the test app at it and the function that drops it.
 */
export async function ownDatabase(
  prefix: string,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const shared = inject('databaseUrl');
  if (!shared) return { env: {}, drop: async () => {} };
  const name = `tambari_test_${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 1 });
  await database.migrate();
  await database.close();
  return {
    env: { DATABASE_URL: url.toString() },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
