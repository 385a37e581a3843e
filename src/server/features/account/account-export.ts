import { Readable } from 'node:stream';
import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { fillSenderPlaceholders, hasSenderPlaceholders, type SenderValues } from '../sending/sending.service';

/*
 * "Download my data" (PRODUCT.md: users can export and delete their data; the NDPA's right of access):
 * everything the account holds, as JSON lines — one header line, then one line per row, each naming its
 * kind. Streamed in keyset pages of 1,000, so a million-contact account never sits in memory; the format is
 * plain enough to read with any tool (jq, a spreadsheet import, a short script).
 *
 * Left out on purpose: secrets (sealed mailbox passwords, sessions, the password hash) and the hashes of
 * suppressed addresses (the masked hint is kept); the HTML of each sent message (the steps hold the copy).
 */

export const EXPORT_FORMAT = 'tambari-export/1';
const PAGE = 1_000;

interface Section {
  /** The line's `type`, and the table it comes from unless `from` names another. */
  table: string;
  /** A view the rows are read from instead (the outbox and its archive, as one). */
  from?: string;
  /** Columns never exported. */
  exclude?: readonly string[];
  /** Rows of the user that have no user_id of their own (a join through their parent). */
  owned?: (userId: string) => SQL;
  /**
   * The columns the pages walk, unique together: `id` unless an index on (user_id, …) serves another
   * order better (a list's contacts by (list_id, id), the user's own index), or the table has no id.
   */
  key?: readonly string[];
}

const SECTIONS: readonly Section[] = [
  { table: 'contact_lists' },
  // By list: the (user_id, list_id, id) index, not the whole table's primary key.
  { table: 'list_contacts', key: ['list_id', 'id'] },
  // One row per user: the free plan's country and category.
  { table: 'lead_scopes', key: ['user_id'] },
  // Where the upload sat on the server is nobody's business.
  { table: 'imports', exclude: ['file_path'] },
  { table: 'sender_accounts', exclude: ['smtp_password_enc', 'imap_password_enc'] },
  { table: 'campaigns' },
  { table: 'campaign_steps' },
  {
    table: 'campaign_step_variants',
    owned: (userId) => sql`campaign_id IN (SELECT id FROM campaigns WHERE user_id = ${userId})`,
  },
  { table: 'campaign_contacts' },
  // Live and archived messages alike (finished ones move to outbox_archive after a week). Found through
  // the user's campaigns (a message's owner is its campaign's): the live outbox has no index on user_id.
  {
    table: 'outbox_messages',
    from: 'outbox_all',
    owned: (userId) =>
      sql`campaign_id IN (SELECT id FROM campaigns WHERE user_id = ${userId}) AND user_id = ${userId}`,
    exclude: ['html', 'text', 'token', 'lease_owner', 'lease_until', 'body_id'],
  },
  { table: 'email_events' },
  { table: 'inbound_messages' },
  // Test runs of a sequence: to whom, as which contact, and each step's subject and outcome.
  { table: 'campaign_test_runs' },
  { table: 'campaign_test_run_messages', exclude: ['html'] },
  // A finish's lease, like the outbox's: the engine's bookkeeping, not the user's data.
  { table: 'newsletters', exclude: ['finishing_until'] },
  { table: 'email_templates' },
  { table: 'suppressions', exclude: ['email_hash'] },
  // Paystack's codes can charge or resume a payment: never in a file that leaves the server.
  { table: 'orders', exclude: ['access_code', 'authorization_url', 'authorization_code'] },
  {
    table: 'subscriptions',
    key: ['user_id'],
    exclude: ['authorization_code', 'paystack_customer_code'],
  },
];

// Staff's note on a suspension is internal.
const USER_EXCLUDE = ['ban_reason'];

function without(row: Record<string, unknown>, exclude: readonly string[]): Record<string, unknown> {
  if (exclude.length === 0) return row;
  const copy = { ...row };
  for (const column of exclude) delete copy[column];
  return copy;
}

function line(value: unknown): string {
  return `${JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`;
}

async function* rowsOf(
  db: Database,
  userId: string,
  section: Section,
): AsyncGenerator<Record<string, unknown>> {
  const table = sql.identifier(section.from ?? section.table);
  const owned = section.owned ? section.owned(userId) : sql`user_id = ${userId}`;
  const keyNames = section.key ?? ['id'];
  const keys = sql.join(
    keyNames.map((name) => sql.identifier(name)),
    sql`, `,
  );
  let last: unknown[] | null = null;
  for (;;) {
    // Row comparison: (k1, k2) > (v1, v2) walks the composite key in its index order.
    const after: SQL =
      last === null
        ? sql``
        : sql`AND (${keys}) > (${sql.join(
            last.map((value) => sql`${value}`),
            sql`, `,
          )})`;
    const result: unknown = await db.execute(
      sql`SELECT * FROM ${table} WHERE ${owned} ${after} ORDER BY ${keys} LIMIT ${PAGE}`,
    );
    const rows: Record<string, unknown>[] = (result as { rows: Record<string, unknown>[] }).rows;
    for (const row of rows) yield without(row, section.exclude ?? []);
    if (rows.length < PAGE) return;
    const lastRow = rows[rows.length - 1]!;
    last = keyNames.map((name) => lastRow[name]);
  }
}

async function* exportLines(db: Database, userId: string): AsyncGenerator<string> {
  const result = await db.execute(sql`SELECT * FROM "user" WHERE id = ${userId}`);
  const profile = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  yield line({
    type: 'export',
    format: EXPORT_FORMAT,
    exportedAt: now().toISOString(),
    sections: SECTIONS.map((section) => section.table),
  });
  yield line({ type: 'user', row: without(profile ?? {}, USER_EXCLUDE) });
  const senders = await senderValuesOf(db, userId);
  for (const section of SECTIONS) {
    for await (const row of rowsOf(db, userId, section)) {
      yield line({
        type: section.table,
        row: section.table === 'outbox_messages' ? readableSubject(row, senders) : row,
      });
    }
  }
}

async function senderValuesOf(db: Database, userId: string): Promise<Map<string, SenderValues>> {
  const result = await db.execute(
    sql`SELECT id, from_name, from_email, company FROM sender_accounts WHERE user_id = ${userId}`,
  );
  const rows = (
    result as unknown as {
      rows: { id: string; from_name: string; from_email: string; company: string | null }[];
    }
  ).rows;
  return new Map(
    rows.map((r) => [r.id, { fromName: r.from_name, fromEmail: r.from_email, company: r.company }]),
  );
}

/**
 * A queued message's subject holds placeholders for the sender until an account sends it
 * (sending/sender-placeholders.ts): as sent, it names that account; still waiting, the merge tag.
 */
function readableSubject(
  row: Record<string, unknown>,
  senders: Map<string, SenderValues>,
): Record<string, unknown> {
  if (typeof row.subject !== 'string' || !hasSenderPlaceholders(row.subject)) return row;
  const sender = typeof row.sender_account_id === 'string' ? senders.get(row.sender_account_id) : undefined;
  return {
    ...row,
    subject: fillSenderPlaceholders(
      row.subject,
      sender ?? {
        fromName: '{{ senderName }}',
        fromEmail: '{{ senderEmail }}',
        company: '{{ senderCompany }}',
      },
      'text',
    ),
  };
}

export function exportAccountData(options: {
  db: Database;
  userId: string;
  log?: Pick<FastifyBaseLogger, 'error'>;
}): {
  fileName: string;
  stream: Readable;
} {
  const day = now().toISOString().slice(0, 10);
  async function* logged() {
    try {
      yield* exportLines(options.db, options.userId);
    } catch (error) {
      // The download is cut short (the client sees an incomplete file); say why here.
      options.log?.error({ err: error, userId: options.userId }, 'account data export failed');
      throw error;
    }
  }
  return {
    fileName: `tambari-export-${day}.jsonl`,
    stream: Readable.from(logged(), { objectMode: false }),
  };
}
