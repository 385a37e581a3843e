import { pgliteSnapshot } from '@tests/setup/test-app';
import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './client';

// Opened from the suite's migrated dump (initdb costs seconds of WASM); a PostgreSQL run has none and
// skips this PGlite-only check.
describe.skipIf(pgliteSnapshot() === undefined)('in-memory PGlite', () => {
  let database: DatabaseHandle | null = null;
  afterAll(() => database?.close());

  it('skips the WAL work that only serves crash recovery, which memory never needs', async () => {
    database = await openDatabase({ snapshot: pgliteSnapshot() });
    const { rows } = await database.executeSql(
      "SELECT name, setting FROM pg_settings WHERE name IN ('wal_init_zero', 'full_page_writes') ORDER BY name",
    );
    expect(rows).toEqual([
      { name: 'full_page_writes', setting: 'off' },
      { name: 'wal_init_zero', setting: 'off' },
    ]);
  });
});
