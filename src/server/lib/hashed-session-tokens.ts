import { createHash } from 'node:crypto';
import type { BetterAuthOptions } from 'better-auth';
import type { DBAdapter, Where } from 'better-auth/adapters';

/**
 * better-auth keeps the session token (what the cookie carries, signed) as plain text in `session.token`,
 * with no option to hash it: anyone who reads the table (a backup, a replica, a leaked dump) could sign in
 * as every user with a live session. This wraps its database adapter so the table holds
 * `sha256:<base64url SHA-256 of the token>` instead. Every lookup by token hashes the value it is given,
 * and a row found by a token is handed back with that token, so better-auth (which re-sends the cookie
 * when it extends a session) never sees the hash. Rows read another way (by user) carry the hash, which
 * matches nothing when sent back as a token.
 *
 * Migration 0021 hashes the tokens stored before, so nobody is signed out.
 */
export const SESSION_TOKEN_HASH_PREFIX = 'sha256:';

export function hashSessionToken(token: string): string {
  return `${SESSION_TOKEN_HASH_PREFIX}${createHash('sha256').update(token).digest('base64url')}`;
}

const SESSION_MODEL = 'session';
const TOKEN_FIELD = 'token';

type Originals = Map<string, string>;
type AnyRow = Record<string, unknown>;

function hashWhere(model: string, where: Where[] | undefined, originals: Originals): Where[] | undefined {
  if (model !== SESSION_MODEL || !where) return where;
  const hash = (value: unknown) => {
    if (typeof value !== 'string') return value;
    const hashed = hashSessionToken(value);
    originals.set(hashed, value);
    return hashed;
  };
  return where.map((clause) => {
    if (clause.field !== TOKEN_FIELD) return clause;
    const value = Array.isArray(clause.value) ? clause.value.map(hash) : hash(clause.value);
    return { ...clause, value } as Where;
  });
}

function restoreToken<T>(model: string, row: T, originals: Originals): T {
  if (model !== SESSION_MODEL || !row || typeof row !== 'object') return row;
  const token = (row as AnyRow)[TOKEN_FIELD];
  if (typeof token !== 'string' || !originals.has(token)) return row;
  return { ...(row as AnyRow), [TOKEN_FIELD]: originals.get(token) } as T;
}

function wrapAdapter<A extends Omit<DBAdapter, 'transaction'>>(inner: A): A {
  return {
    ...inner,
    create: async (data) => {
      const originals: Originals = new Map();
      let record = data.data as AnyRow;
      if (data.model === SESSION_MODEL && typeof record[TOKEN_FIELD] === 'string') {
        const token = record[TOKEN_FIELD] as string;
        const hashed = hashSessionToken(token);
        originals.set(hashed, token);
        record = { ...record, [TOKEN_FIELD]: hashed };
      }
      const created = await inner.create({ ...data, data: record as typeof data.data });
      return restoreToken(data.model, created, originals);
    },
    findOne: async (data) => {
      const originals: Originals = new Map();
      const found = await inner.findOne({ ...data, where: hashWhere(data.model, data.where, originals)! });
      return restoreToken(data.model, found, originals);
    },
    findMany: async (data) => {
      const originals: Originals = new Map();
      const rows = await inner.findMany({ ...data, where: hashWhere(data.model, data.where, originals) });
      return rows.map((row) => restoreToken(data.model, row, originals));
    },
    count: (data) => inner.count({ ...data, where: hashWhere(data.model, data.where, new Map()) }),
    update: async (data) => {
      const originals: Originals = new Map();
      const updated = await inner.update({ ...data, where: hashWhere(data.model, data.where, originals)! });
      return restoreToken(data.model, updated, originals);
    },
    updateMany: (data) => inner.updateMany({ ...data, where: hashWhere(data.model, data.where, new Map())! }),
    delete: (data) => inner.delete({ ...data, where: hashWhere(data.model, data.where, new Map())! }),
    deleteMany: (data) => inner.deleteMany({ ...data, where: hashWhere(data.model, data.where, new Map())! }),
    consumeOne: async (data) => {
      const originals: Originals = new Map();
      const consumed = await inner.consumeOne({
        ...data,
        where: hashWhere(data.model, data.where, originals)!,
      });
      return restoreToken(data.model, consumed, originals);
    },
    incrementOne: async (data) => {
      const originals: Originals = new Map();
      const row = await inner.incrementOne({ ...data, where: hashWhere(data.model, data.where, originals)! });
      return restoreToken(data.model, row, originals);
    },
  } as A;
}

/** Wraps a better-auth adapter factory (e.g. `drizzleAdapter(db, …)`) so session tokens are stored hashed. */
export function withHashedSessionTokens(
  factory: (options: BetterAuthOptions) => DBAdapter<BetterAuthOptions>,
): (options: BetterAuthOptions) => DBAdapter<BetterAuthOptions> {
  return (options) => {
    const inner = factory(options);
    const wrapped = wrapAdapter(inner);
    // Work done inside a transaction goes through the transaction's adapter: it is wrapped the same way.
    return {
      ...wrapped,
      transaction: (callback) => inner.transaction((trx) => callback(wrapAdapter(trx))),
    };
  };
}
