import { AppError } from './errors';

/*
 * Keyset cursors for the monitors' lists: the last row's sort key and id, opaque to the browser.
 */

export function encodeCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { key: string; id: string } | null {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { key: value[0], id: value[1] };
    }
  } catch {
    // answered below
  }
  throw new AppError('validation', 'This page link is not valid any more. Start from the first page.', {
    errors: [{ path: 'cursor', message: 'Invalid cursor' }],
  });
}

/** Rows of a raw query (node-postgres and PGlite both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value).toISOString();
}
