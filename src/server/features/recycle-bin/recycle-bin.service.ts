import type { Database } from '@server/db/client';
import { now } from '@server/lib/clock';
import { decodeCursor, encodeCursor } from '@server/lib/cursor';
import { AppError, notFound } from '@server/lib/errors';
import {
  RECYCLE_BIN_DAYS,
  type RecycleBinItem,
  type RecycleBinList,
  type RecycleBinQuery,
  type RecycleBinType,
} from '@shared/recycle-bin';
import { type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import {
  findDeletedCampaign,
  purgeCampaignsDeletedBefore,
  purgeDeletedCampaign,
  restoreDeletedCampaign,
} from '../campaigns/campaigns.service';
import {
  bulkRestoreDirectoryContacts,
  purgeDeletedDirectoryContact,
  purgeDirectoryContactsDeletedBefore,
} from '../directory/directory-admin.service';
import { purgeList, restoreList } from '../lists/lists.service';
import {
  findDeletedNewsletter,
  purgeDeletedNewsletter,
  purgeNewslettersDeletedBefore,
  restoreDeletedNewsletter,
} from '../newsletters/newsletters.service';
import {
  findDeletedUserTemplate,
  purgeDeletedUserTemplate,
  purgeUserTemplatesDeletedBefore,
  restoreDeletedUserTemplate,
} from '../templates/templates.service';

/*
 * The platform's recycle bin for super admins: users' deleted lists, draft campaigns, newsletters and
 * bulk emails, and own templates, and the shared directory's deleted records. All stay restorable for
 * 30 days; the purge jobs then delete them for good.
 */

const DAY_MS = 86_400_000;
const purgeAt = (deletedAt: Date) => new Date(deletedAt.getTime() + RECYCLE_BIN_DAYS * DAY_MS);

type BinRow = {
  id: string;
  name: string;
  owner_email: string | null;
  size: number | null;
  detail: string | null;
  deleted_at: string | Date;
};
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** One type's deleted items, most recently deleted first, a keyset page at a time; counts of both. */
export async function listRecycleBin(options: {
  db: Database;
  query: RecycleBinQuery;
}): Promise<RecycleBinList> {
  const { db, query } = options;
  const after = decodeCursor(`bin-${query.type}`, query.cursor, 2);
  const before = after
    ? sql`AND (x.deleted_at, x.id) < (${String(after[0])}::timestamptz, ${String(after[1])}::uuid)`
    : sql``;
  const pageEnd = sql`ORDER BY x.deleted_at DESC, x.id DESC LIMIT ${query.limit + 1}`;
  const pages: Record<RecycleBinType, SQL> = {
    list: sql`
      SELECT x.id, x.name, u.email AS owner_email, x.contact_count AS size, x.description AS detail, x.deleted_at
      FROM contact_lists x JOIN "user" u ON u.id = x.user_id
      WHERE x.deleted_at IS NOT NULL ${before} ${pageEnd}`,
    campaign: sql`
      SELECT x.id, x.name, u.email AS owner_email, NULL::int AS size,
             (SELECT 'Draft · ' || count(*) || CASE count(*) WHEN 1 THEN ' step' ELSE ' steps' END
              FROM campaign_steps s WHERE s.campaign_id = x.id) AS detail,
             x.deleted_at
      FROM campaigns x JOIN "user" u ON u.id = x.user_id
      WHERE x.deleted_at IS NOT NULL ${before} ${pageEnd}`,
    newsletter: sql`
      SELECT x.id, x.name, u.email AS owner_email, NULL::int AS size,
             concat_ws(' · ', CASE x.kind WHEN 'bulk' THEN 'Bulk email' ELSE 'Newsletter' END, x.status,
                       nullif(x.subject, '')) AS detail,
             x.deleted_at
      FROM newsletters x JOIN "user" u ON u.id = x.user_id
      WHERE x.deleted_at IS NOT NULL ${before} ${pageEnd}`,
    template: sql`
      SELECT x.id, x.name, u.email AS owner_email, NULL::int AS size,
             concat_ws(' · ', x.category, nullif(x.subject, '')) AS detail, x.deleted_at
      FROM email_templates x JOIN "user" u ON u.id = x.user_id
      WHERE x.deleted_at IS NOT NULL ${before} ${pageEnd}`,
    directory_contact: sql`
      SELECT x.id, x.company_name AS name, NULL AS owner_email, NULL::int AS size,
             concat_ws(' · ', x.email, x.country_code, x.category) AS detail, x.deleted_at
      FROM directory_contacts x
      WHERE x.deleted_at IS NOT NULL ${before} ${pageEnd}`,
  };
  const [rows, counts] = await Promise.all([
    db.execute(pages[query.type]).then((r) => rowsOf<BinRow>(r)),
    db
      .execute(sql`
        SELECT (SELECT count(*)::int FROM contact_lists WHERE deleted_at IS NOT NULL) AS list,
               (SELECT count(*)::int FROM campaigns WHERE deleted_at IS NOT NULL) AS campaign,
               (SELECT count(*)::int FROM newsletters WHERE deleted_at IS NOT NULL) AS newsletter,
               (SELECT count(*)::int FROM email_templates WHERE deleted_at IS NOT NULL) AS template,
               (SELECT count(*)::int FROM directory_contacts WHERE deleted_at IS NOT NULL) AS directory_contact`)
      .then((r) => rowsOf<RecycleBinList['counts']>(r)[0]!),
  ]);
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    items: shown.map((row) => toItem(query.type, row)),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor(`bin-${query.type}`, [new Date(last.deleted_at).toISOString(), last.id])
        : null,
    counts: {
      list: Number(counts.list),
      campaign: Number(counts.campaign),
      newsletter: Number(counts.newsletter),
      template: Number(counts.template),
      directory_contact: Number(counts.directory_contact),
    },
    retentionDays: RECYCLE_BIN_DAYS,
  };
}

function toItem(type: RecycleBinType, row: BinRow): RecycleBinItem {
  const deletedAt = new Date(row.deleted_at);
  return {
    type,
    id: row.id,
    name: row.name,
    ownerEmail: row.owner_email,
    size: row.size === null ? null : Number(row.size),
    detail: row.detail || null,
    deletedAt: deletedAt.toISOString(),
    purgeAt: purgeAt(deletedAt).toISOString(),
  };
}

const NOT_IN_BIN = 'That item is not in the recycle bin.';

type OwnedType = 'campaign' | 'newsletter' | 'template';
type OwnedItem = { id: string; userId: string; name: string };

/** Users' deleted campaigns, newsletters and templates: each feature restores and purges its own. */
const OWNED: Record<
  OwnedType,
  {
    find: (o: { db: Database; id: string }) => Promise<OwnedItem | null>;
    restore: (o: { db: Database; id: string }) => Promise<boolean>;
    purge: (o: { db: Database; id: string }) => Promise<boolean>;
    purgeBefore: (o: { db: Database; cutoff: Date }) => Promise<number>;
  }
> = {
  campaign: {
    find: findDeletedCampaign,
    restore: restoreDeletedCampaign,
    purge: purgeDeletedCampaign,
    purgeBefore: purgeCampaignsDeletedBefore,
  },
  newsletter: {
    find: findDeletedNewsletter,
    restore: restoreDeletedNewsletter,
    purge: purgeDeletedNewsletter,
    purgeBefore: purgeNewslettersDeletedBefore,
  },
  template: {
    find: findDeletedUserTemplate,
    restore: restoreDeletedUserTemplate,
    purge: purgeDeletedUserTemplate,
    purgeBefore: purgeUserTemplatesDeletedBefore,
  },
};

async function findOwnedItem(db: Database, type: OwnedType, id: string): Promise<OwnedItem> {
  const item = await OWNED[type].find({ db, id });
  if (!item) throw notFound(NOT_IN_BIN);
  return item;
}

/** The owner of a deleted list (restore and purge act on the owner's behalf). */
async function deletedListOwner(db: Database, id: string) {
  const result = await db.execute(sql`
    SELECT l.user_id, l.name, u.role FROM contact_lists l JOIN "user" u ON u.id = l.user_id
    WHERE l.id = ${id} AND l.deleted_at IS NOT NULL`);
  const row = rowsOf<{ user_id: string; name: string; role: string }>(result)[0];
  if (!row) throw notFound('That item is not in the recycle bin.');
  return row;
}

async function deletedDirectoryName(db: Database, id: string) {
  const result = await db.execute(sql`
    SELECT company_name, email FROM directory_contacts WHERE id = ${id} AND deleted_at IS NOT NULL`);
  const row = rowsOf<{ company_name: string; email: string }>(result)[0];
  if (!row) throw notFound('That item is not in the recycle bin.');
  return row;
}

/**
 * Puts an item back where it was. A list returns to its owner (under "Name (restored)" if the name was
 * taken meanwhile) within the owner's plan limits; a directory record returns unless a live record now
 * holds its address.
 */
export async function restoreRecycleBinItem(options: {
  db: Database;
  actor: AuditActor;
  type: RecycleBinType;
  id: string;
}): Promise<{ name: string }> {
  const { db, actor, type, id } = options;
  if (type === 'campaign' || type === 'newsletter' || type === 'template') {
    const item = await findOwnedItem(db, type, id);
    if (!(await OWNED[type].restore({ db, id }))) throw notFound(NOT_IN_BIN);
    await recordAuditEntry({
      db,
      actor,
      action: 'recycle_bin.restore',
      targetType: type,
      targetId: id,
      details: { ownerId: item.userId, name: item.name },
    });
    return { name: item.name };
  }
  if (type === 'list') {
    const owner = await deletedListOwner(db, id);
    const restored = await restoreList({ db, actor: { id: owner.user_id, role: owner.role }, id });
    await recordAuditEntry({
      db,
      actor,
      action: 'recycle_bin.restore',
      targetType: 'list',
      targetId: id,
      details: { ownerId: owner.user_id, name: restored.name },
    });
    return { name: restored.name };
  }
  const record = await deletedDirectoryName(db, id);
  const result = await bulkRestoreDirectoryContacts({ db, actor, ids: [id] });
  if (result.updated === 0) {
    throw new AppError('conflict', `A live directory record already has the address ${record.email}.`);
  }
  await recordAuditEntry({
    db,
    actor,
    action: 'recycle_bin.restore',
    targetType: 'directory_contact',
    targetId: id,
    details: { name: record.company_name },
  });
  return { name: record.company_name };
}

/** Deletes an item in the bin for good (a list with its contacts). Audited. */
export async function purgeRecycleBinItem(options: {
  db: Database;
  actor: AuditActor;
  type: RecycleBinType;
  id: string;
}): Promise<{ name: string }> {
  const { db, actor, type, id } = options;
  let name: string;
  let details: Record<string, unknown>;
  if (type === 'campaign' || type === 'newsletter' || type === 'template') {
    const item = await findOwnedItem(db, type, id);
    if (!(await OWNED[type].purge({ db, id }))) throw notFound(NOT_IN_BIN);
    name = item.name;
    details = { ownerId: item.userId, name };
  } else if (type === 'list') {
    const owner = await deletedListOwner(db, id);
    await purgeList({ db, userId: owner.user_id, id });
    name = owner.name;
    details = { ownerId: owner.user_id, name };
  } else {
    const record = await deletedDirectoryName(db, id);
    if (!(await purgeDeletedDirectoryContact({ db, id })))
      throw notFound('That item is not in the recycle bin.');
    name = record.company_name;
    details = { name, email: record.email };
  }
  await recordAuditEntry({ db, actor, action: 'recycle_bin.purge', targetType: type, targetId: id, details });
  return { name };
}

/** The purge job for directory records (lists have purge-deleted-lists): deleted over 30 days ago. */
export async function purgeExpiredDirectoryContacts({ db }: { db: Database }): Promise<number> {
  return purgeDirectoryContactsDeletedBefore({
    db,
    cutoff: new Date(now().getTime() - RECYCLE_BIN_DAYS * DAY_MS),
  });
}

/**
 * The purge job for users' campaigns, newsletters and templates (lists have purge-deleted-lists):
 * deleted over 30 days ago, for good.
 */
export async function purgeExpiredOwnedItems({
  db,
}: {
  db: Database;
}): Promise<{ campaigns: number; newsletters: number; templates: number }> {
  const cutoff = new Date(now().getTime() - RECYCLE_BIN_DAYS * DAY_MS);
  return {
    campaigns: await OWNED.campaign.purgeBefore({ db, cutoff }),
    newsletters: await OWNED.newsletter.purgeBefore({ db, cutoff }),
    templates: await OWNED.template.purgeBefore({ db, cutoff }),
  };
}
