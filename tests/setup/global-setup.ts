import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null;
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
    return;
  }
  const name = `tambari_test_${process.pid}_${Date.now()}`;
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
