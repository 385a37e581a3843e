import { afterAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './client';

describe('in-memory PGlite', () => {
  let database: DatabaseHandle | null = null;
  afterAll(() => database?.close());

  it('skips the WAL work that only serves crash recovery, which memory never needs', async () => {
    database = await openDatabase({});
    const { rows } = await database.executeSql(
      "SELECT name, setting FROM pg_settings WHERE name IN ('wal_init_zero', 'full_page_writes') ORDER BY name",
    );
    expect(rows).toEqual([
      { name: 'full_page_writes', setting: 'off' },
      { name: 'wal_init_zero', setting: 'off' },
    ]);
  });
});
