/** Postgres error fields, whether the driver error arrives bare or wrapped by Drizzle (`cause`). */
function pgError(error: unknown): { code?: string; constraint?: string } | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 3; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return { code: candidate.code, constraint: candidate.constraint as string | undefined };
    }
    current = candidate.cause;
  }
  return null;
}

/** A unique-constraint violation (23505), optionally of one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const pg = pgError(error);
  if (pg?.code !== '23505') return false;
  return !constraint || !pg.constraint || pg.constraint === constraint;
}

/** A deadlock (40P01) or serialization failure (40001): the transaction may simply be run again. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = pgError(error)?.code;
  return code === '40P01' || code === '40001';
}
