import type { Database } from '@server/db/client';
import { contactLists } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { AppError, notFound } from '@server/lib/errors';
import { iso, rowsOf } from '@server/lib/list-cursor';
import { LIST_FLAG_LIMITS, LIST_SAMPLE_SIZE, type UserListPage, type UserListRow } from '@shared/admin-data';
import { and, eq, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { escapeLike } from '../directory/directory.service';
import { isDisposableDomain } from '../imports/imports.service';

/*
 * The admin User Lists screen: every user's live lists, biggest first, one page at a time, with what
 * each list did when it was sent to (bounce and complaint rates of the campaigns and newsletters that
 * used it), where it came from (imports), and a sample of its members (role and disposable addresses).
 * A list that looks bought or scraped is flagged with the figures that crossed a limit; a super admin
 * can freeze it (lists.service.ts refuses it as an audience and as an import target).
 */

type ListRef = { id: string; userId: string };

interface Usage {
  campaigns: number;
  sent: number;
  bounced: number;
  complained: number;
}

function uuidArray(ids: string[]) {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}
function textArray(values: string[]) {
  return sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;
}

/** Sends, bounces and complaints of the campaigns (and newsletters) whose audience named each list. */
async function usageOf(db: Database, lists: ListRef[]): Promise<Map<string, Usage>> {
  const usage = new Map<string, Usage>();
  if (lists.length === 0) return usage;
  const owners = [...new Set(lists.map((l) => l.userId))];
  const listIds = lists.map((l) => l.id);
  const campaigns = rowsOf<{ id: string; list_ids: string[] }>(
    await db.execute(sql`
      SELECT id, audience->'listIds' AS list_ids FROM campaigns
      WHERE user_id = ANY(${textArray(owners)}) AND status <> 'draft'
        AND jsonb_exists_any(audience->'listIds', ${textArray(listIds)})`),
  );
  if (campaigns.length === 0) return usage;
  const counts = rowsOf<{ campaign_id: string; type: 'sent' | 'bounced' | 'complained'; n: number }>(
    await db.execute(sql`
      SELECT campaign_id, type, count(*)::int AS n FROM email_events
      WHERE campaign_id = ANY(${uuidArray(campaigns.map((c) => c.id))})
        AND type IN ('sent', 'bounced', 'complained')
      GROUP BY 1, 2`),
  );
  const byCampaign = new Map<string, Omit<Usage, 'campaigns'>>();
  for (const row of counts) {
    const c = byCampaign.get(row.campaign_id) ?? { sent: 0, bounced: 0, complained: 0 };
    c[row.type] += Number(row.n);
    byCampaign.set(row.campaign_id, c);
  }
  const wanted = new Set(listIds);
  for (const campaign of campaigns) {
    const c = byCampaign.get(campaign.id) ?? { sent: 0, bounced: 0, complained: 0 };
    for (const listId of campaign.list_ids ?? []) {
      if (!wanted.has(listId)) continue;
      const u = usage.get(listId) ?? { campaigns: 0, sent: 0, bounced: 0, complained: 0 };
      u.campaigns += 1;
      u.sent += c.sent;
      u.bounced += c.bounced;
      u.complained += c.complained;
      usage.set(listId, u);
    }
  }
  return usage;
}

interface Sample {
  size: number;
  role: number;
  disposable: number;
  sources: Record<string, number>;
}

/** The first members of each list (by id, through the owner's index): role and disposable shares. */
async function sampleOf(db: Database, list: ListRef): Promise<Sample> {
  const rows = rowsOf<{ email_normalized: string; role_address: boolean; source: string }>(
    await db.execute(sql`
      SELECT email_normalized, role_address, source FROM list_contacts
      WHERE user_id = ${list.userId} AND list_id = ${list.id}
      ORDER BY id LIMIT ${LIST_SAMPLE_SIZE}`),
  );
  const sample: Sample = { size: rows.length, role: 0, disposable: 0, sources: {} };
  for (const row of rows) {
    if (row.role_address) sample.role++;
    const domain = row.email_normalized.slice(row.email_normalized.lastIndexOf('@') + 1);
    if (isDisposableDomain(domain)) sample.disposable++;
    sample.sources[row.source] = (sample.sources[row.source] ?? 0) + 1;
  }
  return sample;
}

interface ImportSummary {
  count: number;
  files: string[];
  processedRows: number;
  invalidRows: number;
  lastAt: string | null;
}

async function importsOf(db: Database, lists: ListRef[]): Promise<Map<string, ImportSummary>> {
  const result = new Map<string, ImportSummary>();
  if (lists.length === 0) return result;
  const rows = rowsOf<{
    list_id: string;
    n: number;
    files: string[];
    processed: number;
    invalid: number;
    last_at: string | null;
  }>(
    await db.execute(sql`
      SELECT list_id, count(*)::int AS n,
        (array_agg(file_name ORDER BY created_at DESC))[1:3] AS files,
        coalesce(sum(processed_rows), 0)::int AS processed,
        coalesce(sum(invalid_rows), 0)::int AS invalid,
        max(created_at) AS last_at
      FROM imports
      WHERE user_id = ANY(${textArray([...new Set(lists.map((l) => l.userId))])})
        AND list_id = ANY(${uuidArray(lists.map((l) => l.id))})
        AND status = 'completed'
      GROUP BY list_id`),
  );
  for (const row of rows) {
    result.set(row.list_id, {
      count: Number(row.n),
      files: row.files ?? [],
      processedRows: Number(row.processed),
      invalidRows: Number(row.invalid),
      lastAt: iso(row.last_at),
    });
  }
  return result;
}

const pct = (value: number) => `${(value * 100).toFixed(value < 0.1 ? 1 : 0)}%`;

/** Why a list looks bought or scraped: each reason names its figure and the limit it crossed. */
export function flagReasons(input: {
  sent: number;
  bounceRate: number;
  complaintRate: number;
  sampleSize: number;
  roleShare: number;
  disposableShare: number;
  importProcessed: number;
  importInvalidShare: number;
}): string[] {
  const L = LIST_FLAG_LIMITS;
  const reasons: string[] = [];
  if (input.sent >= L.minSent && input.bounceRate >= L.bounceRate)
    reasons.push(`Bounce rate ${pct(input.bounceRate)} (limit ${pct(L.bounceRate)})`);
  if (input.sent >= L.minSent && input.complaintRate >= L.complaintRate)
    reasons.push(`Complaint rate ${pct(input.complaintRate)} (limit ${pct(L.complaintRate)})`);
  if (input.sampleSize >= L.minMembers && input.roleShare >= L.roleShare)
    reasons.push(`${pct(input.roleShare)} role addresses (info@, sales@…)`);
  if (input.sampleSize >= L.minMembers && input.disposableShare >= L.disposableShare)
    reasons.push(`${pct(input.disposableShare)} disposable addresses`);
  if (input.importProcessed >= L.minMembers && input.importInvalidShare >= L.importInvalidShare)
    reasons.push(`${pct(input.importInvalidShare)} of imported rows were invalid`);
  return reasons;
}

export async function listUserLists(options: {
  db: Database;
  search?: string;
  frozen?: 'true' | 'false';
  cursor?: string;
  limit: number;
}): Promise<UserListPage> {
  const { db } = options;
  const after = decodeCursor('user-lists', options.cursor, 2);
  const conditions = [sql`l.deleted_at IS NULL`];
  if (options.frozen === 'true') conditions.push(sql`l.frozen_at IS NOT NULL`);
  if (options.frozen === 'false') conditions.push(sql`l.frozen_at IS NULL`);
  if (options.search) {
    const pattern = `%${escapeLike(options.search)}%`;
    conditions.push(sql`(l.name ILIKE ${pattern} OR u.email ILIKE ${pattern})`);
  }
  if (after) conditions.push(sql`(l.contact_count, l.id) < (${Number(after[0])}, ${String(after[1])}::uuid)`);
  const rows = rowsOf<{
    id: string;
    name: string;
    user_id: string;
    owner_email: string;
    contact_count: number;
    created_at: string;
    frozen_at: string | null;
    frozen_reason: string | null;
  }>(
    await db.execute(sql`
      SELECT l.id, l.name, l.user_id, u.email AS owner_email, l.contact_count, l.created_at,
        l.frozen_at, l.frozen_reason
      FROM contact_lists l JOIN "user" u ON u.id = l.user_id
      WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY l.contact_count DESC, l.id DESC
      LIMIT ${options.limit + 1}`),
  );
  const page = rows.slice(0, options.limit);
  const refs = page.map((r) => ({ id: r.id, userId: r.user_id }));
  const [usage, imports, samples, totals] = await Promise.all([
    usageOf(db, refs),
    importsOf(db, refs),
    Promise.all(refs.map((ref) => sampleOf(db, ref))),
    db.execute(sql`
      SELECT count(*)::int AS lists, (count(*) FILTER (WHERE frozen_at IS NOT NULL))::int AS frozen
      FROM contact_lists WHERE deleted_at IS NULL`),
  ]);
  const lists: UserListRow[] = page.map((row, index) => {
    const u = usage.get(row.id) ?? { campaigns: 0, sent: 0, bounced: 0, complained: 0 };
    const imp = imports.get(row.id) ?? {
      count: 0,
      files: [],
      processedRows: 0,
      invalidRows: 0,
      lastAt: null,
    };
    const sample = samples[index]!;
    const bounceRate = u.sent > 0 ? u.bounced / u.sent : 0;
    const complaintRate = u.sent > 0 ? u.complained / u.sent : 0;
    const roleShare = sample.size > 0 ? sample.role / sample.size : 0;
    const disposableShare = sample.size > 0 ? sample.disposable / sample.size : 0;
    return {
      id: row.id,
      name: row.name,
      ownerId: row.user_id,
      ownerEmail: row.owner_email,
      size: Number(row.contact_count),
      createdAt: iso(row.created_at)!,
      ...u,
      bounceRate,
      complaintRate,
      sampleSize: sample.size,
      roleShare,
      disposableShare,
      imports: imp,
      sources: sample.sources,
      flagReasons: flagReasons({
        sent: u.sent,
        bounceRate,
        complaintRate,
        sampleSize: sample.size,
        roleShare,
        disposableShare,
        importProcessed: imp.processedRows,
        importInvalidShare: imp.processedRows > 0 ? imp.invalidRows / imp.processedRows : 0,
      }),
      frozen: row.frozen_at !== null,
      frozenAt: iso(row.frozen_at),
      frozenReason: row.frozen_reason,
    };
  });
  const last = page.at(-1);
  const total = rowsOf<{ lists: number; frozen: number }>(totals)[0];
  return {
    generatedAt: now().toISOString(),
    lists,
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor('user-lists', [Number(last.contact_count), last.id])
        : null,
    totals: { lists: Number(total?.lists ?? 0), frozen: Number(total?.frozen ?? 0) },
  };
}

async function liveList(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(contactLists)
    .where(and(eq(contactLists.id, id), sql`${contactLists.deletedAt} IS NULL`))
    .limit(1);
  if (!row) throw notFound('List not found');
  return row;
}

/** Freezes a list: no sending to it, no imports or additions into it, until unfrozen. Audited. */
export async function freezeList(options: { db: Database; actor: AuditActor; id: string; reason: string }) {
  const list = await liveList(options.db, options.id);
  if (list.frozenAt) throw new AppError('conflict', 'This list is already frozen.');
  const at = now();
  await options.db
    .update(contactLists)
    .set({ frozenAt: at, frozenBy: options.actor.id, frozenReason: options.reason })
    .where(eq(contactLists.id, list.id));
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'list.frozen',
    targetType: 'contact_list',
    targetId: list.id,
    details: { userId: list.userId, name: list.name, reason: options.reason, size: list.contactCount },
  });
  return list;
}

export async function unfreezeList(options: { db: Database; actor: AuditActor; id: string }) {
  const list = await liveList(options.db, options.id);
  if (!list.frozenAt) throw new AppError('conflict', 'This list is not frozen.');
  await options.db
    .update(contactLists)
    .set({ frozenAt: null, frozenBy: null, frozenReason: null })
    .where(eq(contactLists.id, list.id));
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'list.unfrozen',
    targetType: 'contact_list',
    targetId: list.id,
    details: { userId: list.userId, name: list.name, previousReason: list.frozenReason },
  });
  return list;
}
