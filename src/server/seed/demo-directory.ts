import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client';
import { assertSyntheticDataAllowed, seedDirectory } from './seed-directory';

/** How many synthetic businesses the embedded default starts with (a few seconds on PGlite). */
export const DEMO_DIRECTORY_SIZE = 20_000;

/**
 * First start of the embedded default: an empty directory gets synthetic businesses (example.com
 * addresses only), so lead discovery has something to show. Later starts find rows and do nothing.
 */
export async function seedDemoDirectory(
  database: DatabaseHandle,
  options: { count?: number; nodeEnv?: string; print: (line: string) => void },
): Promise<number> {
  assertSyntheticDataAllowed(options.nodeEnv ?? process.env.NODE_ENV);
  const result = (await database.db.execute(
    sql`SELECT EXISTS (SELECT 1 FROM directory_contacts) AS any`,
  )) as unknown as {
    rows: { any: boolean }[];
  };
  if (result.rows[0]?.any) return 0;
  const { inserted, ms } = await seedDirectory({
    database,
    nodeEnv: options.nodeEnv,
    count: options.count ?? DEMO_DIRECTORY_SIZE,
  });
  options.print(
    `demo directory: ${inserted.toLocaleString('en-US')} synthetic businesses (sample data on example.com addresses) in ${(ms / 1000).toFixed(1)} s`,
  );
  return inserted;
}
