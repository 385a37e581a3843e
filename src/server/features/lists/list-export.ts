import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { Database } from '@server/db/client';
import { LIST_CONTACT_FIELDS } from '@shared/contacts';
import { escapeCsvFormula } from '@shared/imports';
import { stringify } from 'csv-stringify';
import { getListRow, listContactBatches } from './lists.service';

/**
 * A spreadsheet opens a cell starting with = + - @ (or a tab / carriage return before one) as a formula,
 * which can run commands or leak data; a leading apostrophe makes it plain text (OWASP CSV injection).
 */
export function escapeCsvCell(value: string | null | undefined): string {
  return value == null ? '' : escapeCsvFormula(value);
}

export function exportFileName(listName: string): string {
  const base = listName
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .toLowerCase();
  return `${base || 'contacts'}.csv`;
}

/**
 * The list as CSV, streamed in keyset batches so a 50,000-row list never sits in memory. Throws 404
 * before anything is written when the list is not the caller's.
 */
export async function exportListCsv(options: {
  db: Database;
  userId: string;
  listId: string;
}): Promise<{ fileName: string; stream: Readable }> {
  const list = await getListRow({ db: options.db, userId: options.userId, id: options.listId });
  const customFields = list.customFields ?? [];
  const columns = [...LIST_CONTACT_FIELDS, ...customFields, 'source', 'added_at'];
  // The BOM makes Excel read the file as UTF-8 (names with accents, ₦).
  const csv = stringify({ header: true, columns, bom: true });

  (async () => {
    for await (const batch of listContactBatches(options)) {
      for (const row of batch) {
        const record = [
          row.email,
          row.firstName,
          row.lastName,
          row.company,
          row.jobTitle,
          row.phone,
          row.website,
          row.city,
          row.countryCode,
          ...customFields.map((name) => row.customFields?.[name]),
          row.source,
          row.createdAt.toISOString(),
        ].map(escapeCsvCell);
        if (!csv.write(record)) await Promise.race([once(csv, 'drain'), once(csv, 'close')]);
        // The client went away: stop reading the list.
        if (csv.destroyed) return;
      }
    }
    csv.end();
  })().catch((error: unknown) => csv.destroy(error as Error));

  return { fileName: exportFileName(list.name), stream: csv };
}
