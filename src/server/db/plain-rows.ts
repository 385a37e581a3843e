import { type Column, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/*
 * A hot path's rows read without drizzle's result mapping. Drizzle turns each row from an array into an
 * object column by column, with an iterator and a few small arrays per column: reading a claimed batch
 * (100 outbox rows of 33 columns) that way was a tenth of everything a dispatch worker allocated. Here
 * each column is named after its property in the SELECT list, so the driver builds the row object
 * itself, and only the timestamps (strings on PGlite, as drizzle asks it for them) are turned into Dates.
 * Only column types that both drivers give back exactly as drizzle would are accepted; any other type
 * throws when the reader is made, so a new column cannot be read wrong silently.
 */

const AS_IS = new Set(['PgUUID', 'PgText', 'PgVarchar', 'PgInteger', 'PgBoolean', 'PgJsonb']);

export interface PlainRowReader<Row> {
  /** Every column, `"column" AS "property"`, for `SELECT ${selection} FROM table`. */
  selection: SQL;
  /** The rows of a `db.execute` result, as drizzle's select would have answered them. */
  read(result: unknown): Row[];
}

export function plainRowReader<T extends PgTable>(table: T): PlainRowReader<T['$inferSelect']> {
  const timestamps: string[] = [];
  const parts = Object.entries(getTableColumns(table) as Record<string, Column>).map(([property, column]) => {
    const name = sql.identifier(column.name);
    const as = sql.identifier(property);
    if (AS_IS.has(column.columnType)) return sql`${name} AS ${as}`;
    // A date in string mode: PostgreSQL's driver would make a Date of it.
    if (column.columnType === 'PgDateString') return sql`${name}::text AS ${as}`;
    if (
      column.columnType === 'PgTimestamp' &&
      (column as unknown as { withTimezone: boolean }).withTimezone
    ) {
      timestamps.push(property);
      return sql`${name} AS ${as}`;
    }
    throw new Error(`plainRowReader: ${column.name} (${column.columnType}) is not read as drizzle reads it`);
  });
  return {
    selection: sql.join(parts, sql`, `),
    read(result) {
      const rows = (result as { rows: Record<string, unknown>[] }).rows;
      for (const row of rows) {
        for (const property of timestamps) {
          const value = row[property];
          if (typeof value === 'string') row[property] = new Date(value);
        }
      }
      return rows as T['$inferSelect'][];
    },
  };
}
