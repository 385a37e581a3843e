import { createHash } from 'node:crypto';
import type { Database } from '@server/db/client';
import { sql } from 'drizzle-orm';

/*
 * Bodies shared by several queued messages (schema/sending.ts outboxBodies). A newsletter's copies
 * differ only by their token (and by merge-tag values that repeat), so their ~8 KB of HTML and text part
 * are stored once per campaign and each outbox row names them: the row the dispatcher writes again at
 * every state change is then a few hundred bytes instead of carrying a compressed text part, and the
 * ~8 KB are compressed, logged and read once instead of once per message. What every reader sees is
 * unchanged: outbox_all resolves a row's bodies, and the dispatcher resolves the rows it claims here.
 */

/** A body as stored: `html` holds `standIn` wherever a message's own token goes. */
export interface SharedBody {
  html: string;
  text: string;
  links: string[];
  standIn: string;
}

/**
 * Names the body whatever stand-in it was prepared with: two calls that queue the same body (each with
 * its own random stand-in) find one row. Replacing either stand-in by a token gives the same bytes,
 * since the parts around the stand-ins are the same (split and replace cut the text at the same places).
 */
export function sharedBodyDigest(body: SharedBody): string {
  return createHash('sha256')
    .update(JSON.stringify([body.html.split(body.standIn), body.text, body.links]))
    .digest('base64url');
}

/**
 * The ids of the campaign's shared bodies, in order, storing those not stored yet (a body another call
 * stored already, the same digest, is used as it is, with its own stand-in). `stored` says which ones
 * are known to be stored (an earlier chunk of the same call): their contents are not sent again.
 *
 * Each body is locked (FOR KEY SHARE) until the caller's transaction ends, so that the cleanup of
 * unused bodies (deleteUnusedSharedBodies, which takes them FOR UPDATE first) cannot delete one
 * between this look-up and the commit of the messages that name it. A body the cleanup deleted just
 * before is not found, and stored again.
 */
export async function storeSharedBodies(
  db: Database,
  owner: { userId: string; campaignId: string; at: Date },
  bodies: (SharedBody & { digest: string; stored: boolean })[],
): Promise<string[]> {
  const idByDigest = new Map<string, string>();
  // In digest order: two calls storing the same bodies then wait for each other in the same order
  // (each waits for the other's insert of a body they both add), never in a circle.
  const byDigest = [...bodies].sort((x, y) => (x.digest < y.digest ? -1 : x.digest > y.digest ? 1 : 0));
  let toInsert = byDigest.filter((b) => !b.stored);
  for (let round = 0; ; round++) {
    if (toInsert.length > 0) {
      await db.execute(sql`
        INSERT INTO outbox_bodies (user_id, campaign_id, digest, html, text, links, stand_in, created_at)
        SELECT ${owner.userId}, ${owner.campaignId}::uuid, b.digest, b.html, b.text, b.links::jsonb,
          b.stand_in, ${owner.at.toISOString()}::timestamptz
        FROM unnest(${sql.param(toInsert.map((b) => b.digest))}::text[],
          ${sql.param(toInsert.map((b) => b.html))}::text[], ${sql.param(toInsert.map((b) => b.text))}::text[],
          ${sql.param(toInsert.map((b) => JSON.stringify(b.links)))}::text[],
          ${sql.param(toInsert.map((b) => b.standIn))}::text[]) AS b(digest, html, text, links, stand_in)
        ON CONFLICT (campaign_id, digest) DO NOTHING`);
    }
    // A new statement: it sees the rows of a concurrent call that the insert waited for and skipped.
    const wanted = bodies.filter((b) => !idByDigest.has(b.digest));
    const result = await db.execute(sql`
      SELECT id, digest FROM outbox_bodies
      WHERE campaign_id = ${owner.campaignId}::uuid AND digest = ANY(${sql.param(wanted.map((b) => b.digest))}::text[])
      FOR KEY SHARE`);
    for (const row of (result as unknown as { rows: { id: string; digest: string }[] }).rows) {
      idByDigest.set(row.digest, row.id);
    }
    toInsert = byDigest.filter((b) => !idByDigest.has(b.digest));
    if (toInsert.length === 0) break;
    if (round >= 3) throw new Error('could not store the shared bodies of a queued chunk');
  }
  return bodies.map((b) => idByDigest.get(b.digest)!);
}

/**
 * Bodies a dispatcher read lately, by id. A body never changes once stored and its id is never used for
 * another, so a copy stays right for as long as it is kept; a newsletter's batches then read no body
 * from the database after the first. Bounded in count (a few megabytes at newsletter sizes).
 */
const BODY_CACHE_MAX = 256;
const bodyCache = new Map<string, SharedBody>();

/**
 * Gives each row that names a shared body its text part, links and the body itself (`sharedBody`, not a
 * column), as the row held them when every row had its own copy. Its HTML is not built here: the copy
 * is composed from the body's parts (shared-body-parts.ts), and building ~10 kB per row that nothing
 * reads was a good part of the garbage a worker made per message. sharedBodyHtml gives it to whoever
 * needs it. The rows are changed in place and answered with their type saying so. Bodies not in the
 * cache are read in one query. A row whose body is missing (never expected: a body goes only with its
 * campaign, which takes the row too, or once no row names it) keeps a null html and no `sharedBody`,
 * which the dispatcher judges a fault of that message alone (dispatch.ts), so it cannot hold up the queue.
 */
export async function resolveSharedBodies<
  T extends {
    token: string;
    bodyId: string | null;
    html: string | null;
    text: string | null;
    links: unknown;
  },
>(db: Database, rows: T[]): Promise<(T & { sharedBody?: SharedBody })[]> {
  const missing = new Set<string>();
  for (const row of rows) {
    if (row.bodyId !== null && !bodyCache.has(row.bodyId)) missing.add(row.bodyId);
  }
  if (missing.size > 0) {
    const result = await db.execute(sql`
      SELECT id, html, text, links, stand_in AS "standIn" FROM outbox_bodies
      WHERE id = ANY(${sql.param([...missing])}::uuid[])`);
    for (const body of (result as unknown as { rows: (SharedBody & { id: string })[] }).rows) {
      if (bodyCache.size >= BODY_CACHE_MAX) bodyCache.delete(bodyCache.keys().next().value!);
      bodyCache.set(body.id, { html: body.html, text: body.text, links: body.links, standIn: body.standIn });
    }
  }
  for (const row of rows) {
    if (row.bodyId === null) continue;
    const body = bodyCache.get(row.bodyId);
    if (!body) continue;
    row.text = body.text;
    row.links = body.links;
    (row as T & { sharedBody?: SharedBody }).sharedBody = body;
  }
  return rows as (T & { sharedBody?: SharedBody })[];
}

/**
 * A claimed row's HTML: its own, or its shared body's with the row's token in place of the body's
 * stand-in. Null only for a row whose body is missing.
 */
export function sharedBodyHtml(row: {
  token: string;
  html: string | null;
  sharedBody?: SharedBody;
}): string | null {
  const body = row.sharedBody;
  return body ? body.html.replaceAll(body.standIn, row.token) : row.html;
}

/**
 * Deletes the shared bodies no message names any more, among those of the given campaigns or stored
 * before the given time. Messages go with their campaign (and the campaign's bodies with it), but also
 * in bulk without it: an archived month dropped, a recipient erased; both ask here afterwards. The
 * bodies are locked first, skipping those a queueing call holds (it is about to name them), and checked
 * in a later statement, which sees every message committed before the locks were taken. The check
 * reads the remaining messages of the bodies' campaigns, which after a month's drop or a recipient's
 * erasure are few or none. Runs in a transaction of its own (or a savepoint of the caller's).
 */
export async function deleteUnusedSharedBodies(options: {
  db: Database;
  campaignIds?: string[];
  createdBefore?: Date;
}): Promise<number> {
  const which =
    options.campaignIds !== undefined
      ? sql`campaign_id = ANY(${sql.param(options.campaignIds)}::uuid[])`
      : options.createdBefore
        ? sql`created_at < ${options.createdBefore.toISOString()}::timestamptz`
        : null;
  if (!which || options.campaignIds?.length === 0) return 0;
  return options.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const locked = (
      (await tx.execute(
        sql`SELECT id FROM outbox_bodies WHERE ${which} ORDER BY id FOR UPDATE SKIP LOCKED`,
      )) as unknown as { rows: { id: string }[] }
    ).rows.map((r) => r.id);
    if (locked.length === 0) return 0;
    const result = await tx.execute(sql`
      WITH gone AS (
        DELETE FROM outbox_bodies b
        WHERE b.id = ANY(${sql.param(locked)}::uuid[])
          AND NOT EXISTS (SELECT 1 FROM outbox_messages o WHERE o.campaign_id = b.campaign_id AND o.body_id = b.id)
          AND NOT EXISTS (SELECT 1 FROM outbox_archive a WHERE a.campaign_id = b.campaign_id AND a.body_id = b.id)
        RETURNING 1)
      SELECT count(*)::int AS n FROM gone`);
    return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
  });
}
