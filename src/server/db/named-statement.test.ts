import type { Database } from '@server/db/client';
import { createTestApp } from '@tests/setup/test-app';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeNamed } from './named-statement';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

describe('executeNamed', () => {
  it('answers the rows as db.execute does, on the pool and in a transaction', async () => {
    const db = app.services.db;
    const query = sql`SELECT ${41}::int + 1 AS n, ${'x'}::text AS s`;
    expect(rowsOf(await executeNamed(db, 'named_probe', query))).toEqual(rowsOf(await db.execute(query)));
    await db.transaction(async (trx) => {
      const tx = trx as unknown as Database;
      expect(rowsOf(await executeNamed(tx, 'named_probe', sql`SELECT ${2}::int AS n`))).toEqual([{ n: 2 }]);
    });
  });

  it.skipIf(!onPostgres)(
    'keeps the statement prepared on the connection: later calls only bind their parameters',
    async () => {
      const db = app.services.db;
      await db.transaction(async (trx) => {
        const tx = trx as unknown as Database;
        for (let i = 0; i < 3; i++) await executeNamed(tx, 'named_probe_kept', sql`SELECT ${i}::int AS n`);
        const prepared = rowsOf(
          await tx.execute(
            sql`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'named_probe_kept%'`,
          ),
        );
        expect(prepared).toHaveLength(1);
        expect(String(prepared[0]!.statement)).toContain('SELECT $1::int AS n');
      });
    },
  );

  it('gives two different texts under one label two names (node-postgres refuses one name for two texts)', async () => {
    const db = app.services.db;
    await db.transaction(async (trx) => {
      const tx = trx as unknown as Database;
      expect(rowsOf(await executeNamed(tx, 'named_probe_two', sql`SELECT ${1}::int AS n`))).toEqual([
        { n: 1 },
      ]);
      expect(rowsOf(await executeNamed(tx, 'named_probe_two', sql`SELECT ${1}::int + 1 AS n`))).toEqual([
        { n: 2 },
      ]);
    });
  });
});
