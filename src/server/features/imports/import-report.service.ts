import { Readable } from 'node:stream';
import type { Database } from '@server/db/client';
import { importRejections, type imports } from '@server/db/schema/index';
import { escapeCsvFormula, type ImportRejections } from '@shared/imports';
import { stringify } from 'csv-stringify';
import { and, eq, gt } from 'drizzle-orm';
import { getImportRow } from './imports.service';

type ImportRow = typeof imports.$inferSelect;

function reportColumns(row: ImportRow): string[] {
  return row.inspection.columns.map((c) => c.header);
}

export async function listImportRejections(options: {
  db: Database;
  userId: string;
  id: string;
  after: number;
  limit: number;
}): Promise<ImportRejections> {
  const row = await getImportRow(options.db, options.userId, options.id);
  const rows = await options.db
    .select({ line: importRejections.line, reason: importRejections.reason, values: importRejections.values })
    .from(importRejections)
    .where(
      and(
        eq(importRejections.userId, options.userId),
        eq(importRejections.importId, row.id),
        gt(importRejections.line, options.after),
      ),
    )
    .orderBy(importRejections.line)
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  return {
    columns: reportColumns(row),
    rows: page,
    nextAfter: rows.length > options.limit ? (page.at(-1)?.line ?? null) : null,
  };
}

/** The rows of the report, in line order, read in keyset pages so a big report is never held whole. */
async function* reportRows(db: Database, row: ImportRow): AsyncGenerator<string[]> {
  yield ['line', 'reason', ...reportColumns(row)].map(escapeCsvFormula);
  let after = 0;
  for (;;) {
    const page = await listImportRejections({ db, userId: row.userId, id: row.id, after, limit: 1000 });
    for (const rejection of page.rows) {
      yield [String(rejection.line), rejection.reason, ...rejection.values.map(escapeCsvFormula)];
    }
    if (page.nextAfter === null) return;
    after = page.nextAfter;
  }
}

/**
 * GET /api/imports/:id/report.csv: every row not imported, with its line, reason and original cells.
 * Cells a spreadsheet would run as a formula get a leading quote (DESIGN security rules).
 * UTF-8 with a BOM, so spreadsheet programs show accents, emoji and Arabic correctly.
 */
export async function getImportReport(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<{ fileName: string; stream: Readable }> {
  const row = await getImportRow(options.db, options.userId, options.id);
  const csv = stringify({ bom: true, quoted_string: false, record_delimiter: 'windows' });
  const rows = Readable.from(reportRows(options.db, row));
  rows.on('error', (error) => csv.destroy(error));
  return { fileName: `import-${row.id}-report.csv`, stream: rows.pipe(csv) };
}
