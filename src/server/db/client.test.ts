import { pgliteSnapshot } from '@tests/setup/test-app';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, growInMemoryFilesByHalf, openDatabase } from './client';

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

  it('checkpoints on its own, so the WAL of a long-lived process does not grow without end', async () => {
    // PGlite runs PostgreSQL as a single backend with no checkpointer: without a checkpoint every WAL
    // segment written since the start is kept (on disk in a data directory, in memory here).
    const own = await openDatabase({ snapshot: pgliteSnapshot(), checkpointIntervalMs: 20 });
    try {
      const lsn = async () => {
        const { rows } = await own.executeSql(
          'SELECT checkpoint_lsn::text AS lsn FROM pg_control_checkpoint()',
        );
        return String(rows[0]!.lsn);
      };
      const before = await lsn();
      await own.executeSql('CREATE TABLE wal_check AS SELECT i FROM generate_series(1, 1000) i');
      await vi.waitFor(async () => expect(await lsn()).not.toBe(before), { timeout: 10_000, interval: 20 });
    } finally {
      await own.close();
    }
  });

  it('keeps tables that outgrow their file storage whole', async () => {
    database ??= await openDatabase({ snapshot: pgliteSnapshot() });
    // About 6 MB of rows: the table's file grows past 1 MB several times; the checkpoint writes every page
    // into it.
    await database.executeSql(
      'CREATE TABLE grow_check AS SELECT i, repeat(md5(i::text), 4) AS pad FROM generate_series(1, 40000) i',
    );
    await database.executeSql('CHECKPOINT');
    const { rows } = await database.executeSql(
      "SELECT count(*)::int AS n, sum(i)::text AS total, count(DISTINCT pad)::int AS pads, pg_relation_size('grow_check') > 4000000 AS big FROM grow_check",
    );
    expect(rows).toEqual([{ n: 40000, total: '800020000', pads: 40000, big: true }]);
  });
});

describe('growInMemoryFilesByHalf', () => {
  type Node = { contents: Uint8Array | null; usedBytes: number };
  function memfs() {
    const module = { MEMFS: { expandFileStorage: (_node: Node, _needed: number) => {} } };
    expect(growInMemoryFilesByHalf(module)).toBe(true);
    return module.MEMFS;
  }

  it('grows a file past 1 MB by half of itself, keeping its bytes', () => {
    const fs = memfs();
    const contents = new Uint8Array(2 * 1024 * 1024);
    contents.set([1, 2, 3]);
    contents[contents.length - 1] = 9;
    const node: Node = { contents, usedBytes: contents.length };
    fs.expandFileStorage(node, contents.length + 8192);
    expect(node.contents?.length).toBe(3 * 1024 * 1024);
    expect([...(node.contents?.subarray(0, 3) ?? [])]).toEqual([1, 2, 3]);
    expect(node.contents?.[contents.length - 1]).toBe(9);
    expect(node.contents?.[contents.length]).toBe(0);
  });

  it('doubles small files, takes a larger request as it is, and leaves a large enough file alone', () => {
    const fs = memfs();
    const node: Node = { contents: new Uint8Array(8192), usedBytes: 100 };
    fs.expandFileStorage(node, 8193);
    expect(node.contents?.length).toBe(16384);
    fs.expandFileStorage(node, 100_000);
    expect(node.contents?.length).toBe(100_000);
    const same = node.contents;
    fs.expandFileStorage(node, 50_000);
    expect(node.contents).toBe(same);
    const empty: Node = { contents: null, usedBytes: 0 };
    fs.expandFileStorage(empty, 10);
    expect(empty.contents?.length).toBe(10);
  });

  it('leaves a PGlite build without the function as it is', () => {
    expect(growInMemoryFilesByHalf({})).toBe(false);
    expect(growInMemoryFilesByHalf(undefined)).toBe(false);
  });
});
