import type { Database } from '@server/db/client';
import { AppError } from '@server/lib/errors';
import { iso, rowsOf } from '@server/lib/list-cursor';
import {
  CONTACT_PREFIX_MIN,
  CONTACT_SEARCH_MAX,
  type ContactLocations,
  type ContactMatch,
  type ContactSearchResult,
  type EraseResult,
} from '@shared/admin-data';
import { emailDedupeKey } from '@shared/contacts';
import { type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { deleteUnusedSharedBodies } from '../sending/sending.service';
import { addErasureTombstone, hashEmail, isErased } from '../suppression/suppression.service';

/*
 * The admin Contacts screen: where an address appears across the directory and every user's lists
 * (support and data-protection requests), and "erase everywhere". Lookups read byte-ordered indexes on
 * the lower-cased address (directory_contacts_email_c_idx, list_contacts_email_c_idx), so an exact
 * address or a prefix is one index range however big the tables grow.
 */

/** The first string after every string that starts with `prefix` (byte order = code point order in UTF-8). */
export function prefixUpperBound(prefix: string): string {
  const chars = Array.from(prefix);
  const last = chars.pop()!;
  return chars.join('') + String.fromCodePoint(last.codePointAt(0)! + 1);
}

const DIRECTORY_EMAIL = sql.raw(`lower(email) COLLATE "C"`);
const LIST_EMAIL = sql.raw(`email_normalized COLLATE "C"`);

/** Distinct addresses that are (exact) or start with (prefix) the query, with where they appear. */
export async function searchContacts(options: {
  db: Database;
  q: string;
  mode: 'exact' | 'prefix';
}): Promise<ContactSearchResult> {
  const { db } = options;
  const q = emailDedupeKey(options.q);
  if (options.mode === 'prefix' && q.length < CONTACT_PREFIX_MIN) {
    throw new AppError('validation', `Type at least ${CONTACT_PREFIX_MIN} characters to search by prefix.`, {
      errors: [{ path: 'q', message: `At least ${CONTACT_PREFIX_MIN} characters` }],
    });
  }
  const take = CONTACT_SEARCH_MAX + 1;
  const range = (column: ReturnType<typeof sql.raw>) =>
    options.mode === 'exact'
      ? sql`${column} = ${q}`
      : sql`${column} >= ${q} AND ${column} < ${prefixUpperBound(q)}`;
  const [directory, lists] = await Promise.all([
    db.execute(sql`
      SELECT ${DIRECTORY_EMAIL} AS e, count(*)::int AS n FROM directory_contacts
      WHERE ${range(DIRECTORY_EMAIL)} GROUP BY 1 ORDER BY 1 LIMIT ${take}`),
    db.execute(sql`
      SELECT ${LIST_EMAIL} AS e, count(*)::int AS n FROM list_contacts
      WHERE ${range(LIST_EMAIL)} GROUP BY 1 ORDER BY 1 LIMIT ${take}`),
  ]);
  const byEmail = new Map<string, ContactMatch>();
  const entry = (email: string) => {
    const found = byEmail.get(email) ?? { email, directoryRecords: 0, listMemberships: 0 };
    byEmail.set(email, found);
    return found;
  };
  for (const row of rowsOf<{ e: string; n: number }>(directory))
    entry(row.e).directoryRecords = Number(row.n);
  for (const row of rowsOf<{ e: string; n: number }>(lists)) entry(row.e).listMemberships = Number(row.n);
  // Both sides are in byte order; so is the merge (compare code units the way "C" compares bytes).
  const sorted = [...byEmail.values()].sort((a, b) => (Buffer.from(a.email) < Buffer.from(b.email) ? -1 : 1));
  return { matches: sorted.slice(0, CONTACT_SEARCH_MAX), more: sorted.length > CONTACT_SEARCH_MAX };
}

interface Recipients {
  ids: string[];
  campaignIds: string[];
  outboxIds: string[];
}

async function recipientsOf(db: Database, email: string): Promise<Recipients> {
  const contacts = rowsOf<{ id: string; campaign_id: string }>(
    await db.execute(sql`SELECT id, campaign_id FROM campaign_contacts WHERE lower(email) = ${email}`),
  );
  const ids = contacts.map((c) => c.id);
  const campaignIds = [...new Set(contacts.map((c) => c.campaign_id))];
  if (ids.length === 0) return { ids, campaignIds, outboxIds: [] };
  const outbox = rowsOf<{ id: string }>(
    await db.execute(sql`SELECT id FROM outbox_all WHERE campaign_contact_id = ANY(${uuidArray(ids)})`),
  );
  return { ids, campaignIds, outboxIds: outbox.map((o) => o.id) };
}

function uuidArray(ids: string[]) {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/** Events that concern these recipients: by their messages (indexed) or within their campaigns. */
function eventsOf(r: Recipients) {
  return sql`(outbox_message_id = ANY(${uuidArray(r.outboxIds)})
    OR (campaign_id = ANY(${uuidArray(r.campaignIds)}) AND campaign_contact_id = ANY(${uuidArray(r.ids)})))`;
}

/** Everywhere one address appears. */
export async function lookupContact(options: { db: Database; email: string }): Promise<ContactLocations> {
  const { db } = options;
  const email = emailDedupeKey(options.email);
  const emailHash = hashEmail(email);
  const [directory, lists, suppressionRows, account, erased, recipients] = await Promise.all([
    db.execute(sql`
      SELECT id, company_name, country_code, category, source, verification_status, deleted_at, created_at
      FROM directory_contacts WHERE ${DIRECTORY_EMAIL} = ${email} ORDER BY created_at LIMIT 100`),
    db.execute(sql`
      SELECT lc.list_id, l.name, lc.user_id, u.email AS owner_email, l.deleted_at, lc.created_at
      FROM list_contacts lc
      JOIN contact_lists l ON l.id = lc.list_id
      JOIN "user" u ON u.id = lc.user_id
      WHERE lc.${LIST_EMAIL} = ${email}
      ORDER BY lc.created_at LIMIT 500`),
    db.execute(sql`
      SELECT s.reason, s.created_at, u.email AS owner_email
      FROM suppressions s LEFT JOIN "user" u ON u.id = s.user_id
      WHERE s.email_hash = ${emailHash} ORDER BY s.created_at LIMIT 500`),
    db.execute(sql`SELECT id FROM "user" WHERE email = ${email} LIMIT 1`),
    isErased({ db, email }),
    recipientsOf(db, email),
  ]);
  let events = 0;
  let inbound = 0;
  if (recipients.ids.length > 0) {
    const [e, i] = await Promise.all([
      db.execute(sql`SELECT count(*)::int AS n FROM email_events WHERE ${eventsOf(recipients)}`),
      db.execute(sql`
        SELECT count(*)::int AS n FROM inbound_messages
        WHERE campaign_id = ANY(${uuidArray(recipients.campaignIds)})
          AND campaign_contact_id = ANY(${uuidArray(recipients.ids)})`),
    ]);
    events = Number(rowsOf<{ n: number }>(e)[0]?.n ?? 0);
    inbound = Number(rowsOf<{ n: number }>(i)[0]?.n ?? 0);
  }
  type DirectoryRow = {
    id: string;
    company_name: string;
    country_code: string;
    category: string;
    source: string;
    verification_status: string;
    deleted_at: string | null;
    created_at: string;
  };
  type ListRow = {
    list_id: string;
    name: string;
    user_id: string;
    owner_email: string;
    deleted_at: string | null;
    created_at: string;
  };
  return {
    email,
    emailHash,
    erased,
    accountUserId: rowsOf<{ id: string }>(account)[0]?.id ?? null,
    directory: rowsOf<DirectoryRow>(directory).map((r) => ({
      id: r.id,
      companyName: r.company_name,
      countryCode: r.country_code,
      category: r.category,
      source: r.source,
      verificationStatus: r.verification_status,
      deleted: r.deleted_at !== null,
      createdAt: iso(r.created_at)!,
    })),
    lists: rowsOf<ListRow>(lists).map((r) => ({
      listId: r.list_id,
      listName: r.name,
      ownerId: r.user_id,
      ownerEmail: r.owner_email,
      listDeleted: r.deleted_at !== null,
      addedAt: iso(r.created_at)!,
    })),
    suppressions: rowsOf<{ reason: string; created_at: string; owner_email: string | null }>(
      suppressionRows,
    ).map((r) => ({ ownerEmail: r.owner_email, reason: r.reason, createdAt: iso(r.created_at)! })),
    campaignRecipients: recipients.ids.length,
    outboxMessages: recipients.outboxIds.length,
    events,
    inboundMessages: inbound,
  };
}

/** Runs a DELETE or UPDATE and answers how many rows it changed (the same on PGlite and node-postgres). */
async function changed(db: Database, statement: SQL): Promise<number> {
  const result = await db.execute(
    sql`WITH changed AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM changed`,
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/**
 * Erases an address everywhere, on its owner's request: every list membership (all users), every
 * directory record (live or deleted), each campaign recipient with its queued and sent messages (the
 * outbox rows hold the rendered mail), the replies it sent, and the personal details of its events
 * (clicked URL, bounce text, user agent); the events' counts stay, so campaigns' figures do not change.
 * A platform-wide tombstone (the address's hash and domain) then keeps it from being added or mailed
 * again. The audit entry names the hash, never the address. One transaction: all or nothing.
 */
export async function eraseContactEverywhere(options: {
  db: Database;
  actor: AuditActor;
  email: string;
}): Promise<EraseResult> {
  const email = emailDedupeKey(options.email);
  return options.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const recipients = await recipientsOf(tx, email);
    let eventsScrubbed = 0;
    let inboundMessages = 0;
    if (recipients.ids.length > 0) {
      eventsScrubbed = await changed(
        tx,
        sql`
          UPDATE email_events SET detail = NULL, user_agent = NULL, metadata = NULL
          WHERE ${eventsOf(recipients)}
            AND (detail IS NOT NULL OR user_agent IS NOT NULL OR metadata IS NOT NULL)`,
      );
      inboundMessages = await changed(
        tx,
        sql`
          DELETE FROM inbound_messages
          WHERE campaign_id = ANY(${uuidArray(recipients.campaignIds)})
            AND campaign_contact_id = ANY(${uuidArray(recipients.ids)})`,
      );
      // Outbox rows go with their recipient (foreign key cascade)…
      await tx.execute(sql`DELETE FROM campaign_contacts WHERE id = ANY(${uuidArray(recipients.ids)})`);
      // …and so do the bodies their messages shared with no one left (outbox-bodies.ts).
      await deleteUnusedSharedBodies({ db: tx, campaignIds: recipients.campaignIds });
    }
    // Copies waiting for a Sent folder (two days at most, a few hundred rows) hold the raw message.
    await tx.execute(sql`DELETE FROM sent_folder_copies WHERE strpos(lower(raw), ${email}) > 0`);
    const listMemberships = await changed(tx, sql`DELETE FROM list_contacts WHERE ${LIST_EMAIL} = ${email}`);
    const directoryRecords = await changed(
      tx,
      sql`DELETE FROM directory_contacts WHERE ${DIRECTORY_EMAIL} = ${email}`,
    );
    // The verifier's cached result and the scraper's finding name the address too.
    await tx.execute(sql`DELETE FROM email_verifications WHERE email = ${email}`);
    await tx.execute(sql`DELETE FROM scrape_results WHERE lower(email) = ${email}`);
    // A subscribe form's consent records hold it as typed.
    await tx.execute(sql`DELETE FROM signup_consents WHERE email_normalized = ${email}`);
    const emailHash = await addErasureTombstone({ db: tx, email });
    const result = {
      emailHash,
      directoryRecords,
      listMemberships,
      campaignRecipients: recipients.ids.length,
      outboxMessages: recipients.outboxIds.length,
      eventsScrubbed,
      inboundMessages,
    };
    await recordAuditEntry({
      db: tx,
      actor: options.actor,
      action: 'contact.erased',
      targetType: 'email_hash',
      targetId: emailHash,
      details: { ...result },
    });
    return {
      message: `Erased everywhere: ${directoryRecords} directory record(s), ${listMemberships} list membership(s), ${recipients.ids.length} campaign recipient(s). The address can never be added or mailed again.`,
      ...result,
    };
  });
}
