import { isUniqueViolation } from '@server/lib/db-errors';
import { pgliteSnapshot } from '@tests/setup/test-app';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './client';
import type { PgliteThread } from './pglite-thread';

// PGlite runs in a worker thread: what crosses the thread must behave as PGlite on the main thread did.
describe.skipIf(pgliteSnapshot() === undefined)('PGlite on its own thread', () => {
  let database: DatabaseHandle;
  let client: PgliteThread;
  beforeAll(async () => {
    database = await openDatabase({ snapshot: pgliteSnapshot() });
    client = (database.db as unknown as { $client: PgliteThread }).$client;
    await database.executeSql(
      'CREATE TABLE thread_check (id int PRIMARY KEY, label text CONSTRAINT thread_check_label UNIQUE)',
    );
  });
  afterAll(() => database?.close());

  it("keeps PostgreSQL's error fields, which the app maps to user errors", async () => {
    await database.db.execute(sql`INSERT INTO thread_check VALUES (1, 'one')`);
    const error = await database.db.execute(sql`INSERT INTO thread_check VALUES (2, 'one')`).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isUniqueViolation(error, 'thread_check_label')).toBe(true);
    // Drizzle wraps the driver's error: the fields are on its cause, as with PGlite on the main thread.
    expect((error as { cause?: unknown }).cause).toMatchObject({
      code: '23505',
      constraint: 'thread_check_label',
      table: 'thread_check',
      detail: 'Key (label)=(one) already exists.',
    });
  });

  it('rolls back a transaction whose callback throws, and runs transactions one after the other', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO thread_check VALUES (10, 'ten')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstMayEnd = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const first = database.db.transaction(async (tx) => {
      order.push('first begins');
      await tx.execute(sql`INSERT INTO thread_check VALUES (11, 'eleven')`);
      await firstMayEnd;
      order.push('first ends');
    });
    const second = database.db.transaction(async (tx) => {
      order.push('second begins');
      const result = await tx.execute(sql`SELECT count(*)::int AS n FROM thread_check WHERE id = 11`);
      order.push(`second sees ${(result as unknown as { rows: { n: number }[] }).rows[0]!.n}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first begins', 'first ends', 'second begins', 'second sees 1']);
    const { rows } = await database.executeSql('SELECT id FROM thread_check WHERE id >= 10 ORDER BY id');
    expect(rows).toEqual([{ id: 11 }]);
  });

  it('loads a blob with COPY and delivers notifications', async () => {
    await client.query("COPY thread_check FROM '/dev/blob'", [], {
      blob: new Blob(['20\ttwenty\n21\ttwenty-one\n']),
    });
    const { rows } = await database.executeSql('SELECT label FROM thread_check WHERE id >= 20 ORDER BY id');
    expect(rows).toEqual([{ label: 'twenty' }, { label: 'twenty-one' }]);

    const heard: string[] = [];
    const unlisten = await client.listen('thread_check', (payload) => heard.push(payload));
    await database.executeSql("NOTIFY thread_check, 'hello'");
    await expect.poll(() => heard).toEqual(['hello']);
    await unlisten();
  });

  it('refuses query options whose functions it cannot carry to the thread', async () => {
    await expect(
      client.query('SELECT 1 AS one', [], { parsers: { 23: (value: string) => Number(value) * 2 } }),
    ).rejects.toThrow('cannot reach');
  });
});
