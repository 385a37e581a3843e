import { AppError } from './errors';

/**
 * Opaque keyset cursors: the last row's sort key and id, base64url JSON. A cursor made for another sort
 * (or tampered with) is refused rather than silently restarting the listing.
 */
export function encodeCursor(kind: string, values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([kind, ...values])).toString('base64url');
}

export function decodeCursor(
  kind: string,
  cursor: string | undefined,
  arity: number,
): (string | number)[] | null {
  if (!cursor) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed[0] === kind &&
      parsed.length === arity + 1 &&
      parsed.slice(1).every((v) => typeof v === 'string' || typeof v === 'number')
    ) {
      return parsed.slice(1) as (string | number)[];
    }
  } catch {
    // fall through
  }
  throw new AppError('bad_request', 'This page link has expired. Start the list again.', { field: 'cursor' });
}
