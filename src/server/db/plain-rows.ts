import { type Column, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/*
 * A hot path's rows read without drizzle's query builder and result mapping. Drizzle turns each row
 * from an array into an object column by column, with an iterator, a few small arrays and an entity
 * check (`is()`) per column, and builds a select's column list again on every call: reading a claimed
 * batch (100 outbox rows of 33 columns) that way was a tenth of everything a dispatch worker
 * allocated, and the dispatcher's per-batch selects ~5% of its CPU. Here the column list is written
 * once, each column named after its property (`"column" AS "property"`), so the driver builds the row
 * object itself; then each value that is not already final (anything but text, uuid, varchar and
 * boolean) goes through its column's own `mapFromDriverValue`, as drizzle's mapping does. `db.execute`
 * asks both drivers for the same type parsers as drizzle's selects (timestamps and dates as strings),
 * so the rows are the ones drizzle's select would answer.
 */

/** Column types whose driver value is already what drizzle answers (their mapping is the identity). */
const FINAL = new Set(['PgUUID', 'PgText', 'PgVarchar', 'PgBoolean']);

export interface PlainRowReader<Row> {
  /** The columns, `"column" AS "property"`, for `SELECT ${selection} FROM table`. */
  selection: SQL;
  /** The rows of a `db.execute` result, as drizzle's select would have answered them. */
  read(result: unknown): Row[];
}

/** Reads every column of `table`, or only `properties` (then the rows have only those). */
export function plainRowReader<T extends PgTable>(table: T): PlainRowReader<T['$inferSelect']>;
export function plainRowReader<T extends PgTable, K extends keyof T['$inferSelect'] & string>(
  table: T,
  properties: readonly K[],
): PlainRowReader<Pick<T['$inferSelect'], K>>;
export function plainRowReader(table: PgTable, properties?: readonly string[]): PlainRowReader<unknown> {
  const columns = getTableColumns(table) as Record<string, Column>;
  const picked = properties ?? Object.keys(columns);
  const mapped: [property: string, column: Column][] = [];
  const parts = picked.map((property) => {
    const column = columns[property];
    if (!column) throw new Error(`plainRowReader: the table has no column ${property}`);
    if (!FINAL.has(column.columnType)) mapped.push([property, column]);
    return `${quoted(column.name)} AS ${quoted(property)}`;
  });
  return {
    selection: sql.raw(parts.join(', ')),
    read(result) {
      const rows = (result as { rows: Record<string, unknown>[] }).rows;
      for (const row of rows) {
        for (const [property, column] of mapped) {
          const value = row[property];
          if (value !== null && value !== undefined) row[property] = column.mapFromDriverValue(value);
        }
      }
      return rows;
    },
  };
}

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
