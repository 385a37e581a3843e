import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@server/db/client';
import { seedPricingPlans } from '@server/features/plans/plans.service';
import { seedLibraryTemplates } from '@server/seed/templates/index';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null;
    /** PGlite runs: a migrated, seeded database dump every test file's in-memory database starts from. */
    pgliteSnapshotPath: string | null;
  }
}

/**
 * With TEST_DATABASE_URL the suite runs against real PostgreSQL, in a database of its own made here and
 * dropped at the end, so runs never see each other's rows. Without it each test file uses in-memory PGlite.
 */
export default async function setup(project: TestProject) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    project.provide('databaseUrl', null);
    // initdb in WASM costs ~3 s per PGlite; loading a dump of an initialised, migrated database ~0.5 s.
    const database = await openDatabase({});
    await database.migrate();
    await seedPricingPlans({ db: database.db });
    await seedLibraryTemplates({ db: database.db });
    const snapshot = await database.dumpDataDir!();
    await database.close();
    const snapshotPath = path.join(
      tmpdir(),
      `tambari-test-pglite-${process.pid}-${Date.now()}-${randomBytes(4).toString('hex')}.tar`,
    );
    writeFileSync(snapshotPath, Buffer.from(await snapshot.arrayBuffer()));
    project.provide('pgliteSnapshotPath', snapshotPath);
    return () => rmSync(snapshotPath, { force: true });
  }
  project.provide('pgliteSnapshotPath', null);
  // Each vitest project sets up its own database; a random part keeps two made in the same millisecond apart.
  const name = `tambari_test_${process.pid}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 2 });
  await database.migrate();
  await database.close();
  project.provide('databaseUrl', url.toString());

  return async () => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  };
}
