import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client';

/*
 * A statement sent without a name is parsed, analysed and planned by PostgreSQL on every call. The
 * dispatcher's 'sent' write (a CTE over the outbox and the events) paid ~300-400 µs of backend CPU a call
 * for that on the shared machine, ~15% of the statement at 12 rows (docs/sending.md, issue 19). Sent with
 * a name, each pooled connection parses and analyses the text once and later calls only bind their
 * parameters; PostgreSQL still plans each call for its own parameters while that is cheaper than one plan
 * for all (its plan cache's choice), so an array of 12 ids is not planned as one of 100.
 */

/** Names already made, by label and statement text: each text hashed once, not once per call. */
const names = new Map<string, Map<string, string>>();

function nameFor(label: string, text: string): string {
  let byText = names.get(label);
  if (byText === undefined) {
    byText = new Map();
    names.set(label, byText);
  }
  let name = byText.get(text);
  if (name === undefined) {
    // The text's digest is part of the name: node-postgres refuses one name for two texts on a
    // connection, and a statement built with an optional clause is two texts.
    name = `${label}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
    byText.set(text, name);
  }
  return name;
}

/**
 * `db.execute(query)` as a named prepared statement: the same rows. Only for statements of a fixed shape
 * run many times (each distinct text stays prepared on each connection until it closes). PGlite (one
 * connection, no wire protocol) ignores the name and runs it as `execute` does.
 */
export async function executeNamed(db: Database, label: string, query: SQL): Promise<unknown> {
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  const built = dialect.sqlToQuery(query);
  return db._.session.prepareQuery(built, undefined, nameFor(label, built.sql), false).execute();
}
