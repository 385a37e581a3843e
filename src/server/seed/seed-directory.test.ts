import { randomBytes } from 'node:crypto';
import { type DatabaseHandle, openDatabase } from '@server/db/client';
import { pgliteSnapshot } from '@tests/setup/test-app';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { finishInterruptedSeed, pendingSeedIndexes, seedDirectory } from './seed-directory';

/*
 * Bulk loads drop and rebuild directory_contacts' indexes, so on PostgreSQL this file gets a database of
 * its own (the run's is shared by files running meanwhile).
 */
let database: DatabaseHandle;
let ownDatabase: { admin: string; name: string } | null = null;

async function rows<T>(text: string): Promise<T[]> {
  return (await database.executeSql(text)).rows as T[];
}
const indexNames = async () =>
  (
    await rows<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'directory_contacts' ORDER BY 1`,
    )
  ).map((row) => row.indexname);
const rollup = () =>
  rows<Record<string, string>>(
    `SELECT country_code, category, city, total::text, verified::text, with_phone::text, with_website::text,
       verified_phone::text, verified_website::text, phone_website::text, verified_phone_website::text
     FROM directory_facet_counts ORDER BY country_code, category, city`,
  );

beforeAll(async () => {
  const shared = inject('databaseUrl');
  if (shared) {
    const name = `tambari_test_seed_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: shared });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    ownDatabase = { admin: shared, name };
    const url = new URL(shared);
    url.pathname = `/${name}`;
    database = await openDatabase({ url: url.toString(), poolSize: 4 });
  } else {
    database = await openDatabase({ snapshot: pgliteSnapshot() });
  }
  await database.migrate();
}, 60_000);

afterAll(async () => {
  await database?.close();
  if (ownDatabase) {
    const admin = new pg.Client({ connectionString: ownDatabase.admin });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${ownDatabase.name} WITH (FORCE)`);
    await admin.end();
  }
});

describe('a bulk load of the directory', () => {
  it('counts the roll-up exactly as a rebuild from the rows would, and puts every index back', async () => {
    const indexesBefore = await indexNames();
    // Into the empty table, then again into a non-empty one (the second load still counts as bulk).
    for (const count of [2_000, 2_500]) {
      const result = await seedDirectory({ database, count, nodeEnv: 'test', batchSize: 1_000 });
      expect(result.inserted).toBe(count);
      const counted = await rollup();
      expect(counted.length).toBeGreaterThan(100);
      await rows('SELECT directory_facets_rebuild()');
      expect(counted).toEqual(await rollup());
      expect(await indexNames()).toEqual(indexesBefore);
      expect(await pendingSeedIndexes(database)).toEqual([]);
    }
    const [totals] = await rows<{ n: string; synthetic: string; invalid: string }>(
      `SELECT count(*)::text AS n, count(*) FILTER (WHERE synthetic)::text AS synthetic,
         count(*) FILTER (WHERE verification_status = 'invalid')::text AS invalid FROM directory_contacts`,
    );
    expect(totals).toMatchObject({ n: '4500', synthetic: '4500' });
    expect(Number(totals!.invalid)).toBeGreaterThan(0);
  }, 120_000);

  it.runIf(inject('databaseUrl'))(
    'on PostgreSQL, keeps the rows of a load whose index builds failed, lists what is missing and finishes it later',
    async () => {
      await rows('DELETE FROM directory_contacts');
      const indexesBefore = await indexNames();
      // An index the loaded rows cannot satisfy: its rebuild after the load fails.
      await rows('CREATE UNIQUE INDEX directory_contacts_seed_test_idx ON directory_contacts (country_code)');
      await expect(seedDirectory({ database, count: 500, nodeEnv: 'test' })).rejects.toThrow(
        /directory_contacts_seed_test_idx/,
      );
      expect(await rows('SELECT id FROM directory_contacts')).toHaveLength(500);
      const pending = await pendingSeedIndexes(database);
      expect(pending.some((definition) => definition.includes('directory_contacts_seed_test_idx'))).toBe(
        true,
      );
      expect(await indexNames()).not.toContain('directory_contacts_seed_test_idx');

      // While the data still breaks it, finishing fails again and the list stays.
      await expect(finishInterruptedSeed(database)).rejects.toThrow(/directory_contacts_seed_test_idx/);
      expect(await pendingSeedIndexes(database)).toEqual(pending);

      // Once it can be built, the next seed finishes the interrupted one before loading.
      await rows(
        `DELETE FROM directory_contacts WHERE id NOT IN (SELECT DISTINCT ON (country_code) id FROM directory_contacts)`,
      );
      expect(await finishInterruptedSeed(database)).toEqual(pending);
      expect(await pendingSeedIndexes(database)).toEqual([]);
      expect(await indexNames()).toEqual([...indexesBefore, 'directory_contacts_seed_test_idx'].sort());
      const [comment] = await rows<{ c: string | null }>(
        `SELECT obj_description('directory_contacts'::regclass, 'pg_class') AS c`,
      );
      expect(comment!.c).toBeNull();
      await rows('DROP INDEX directory_contacts_seed_test_idx');
    },
    120_000,
  );
});
