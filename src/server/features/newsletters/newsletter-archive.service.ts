import { randomBytes } from 'node:crypto';
import type { Database } from '@server/db/client';
import { newsletterArchives, newsletters, senderAccounts, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { decodeCursor, encodeCursor } from '@server/lib/list-cursor';
import { ARCHIVE_PAGE_LIMIT, type NewsletterArchive } from '@shared/newsletters';
import { and, asc, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { renderForContact } from '../personalization/personalization.service';

/*
 * The sender's public archive: a hosted page listing the sent newsletters they chose to show, each
 * linking to its web version. Off until the user turns it on; the address is a random slug that can be
 * replaced, which retires the old one.
 */

type ArchiveRow = typeof newsletterArchives.$inferSelect;

const SLUG_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

function newSlug(): string {
  return randomBytes(18).toString('base64url');
}

export function archiveUrlOf(appUrl: string, slug: string): string {
  return `${appUrl}/archive/${slug}`;
}

function toDto(appUrl: string, row: ArchiveRow | undefined): NewsletterArchive {
  if (!row?.enabled) return { enabled: false, url: null };
  return { enabled: true, url: archiveUrlOf(appUrl, row.slug) };
}

async function findArchive(db: Database, userId: string): Promise<ArchiveRow | undefined> {
  const [row] = await db
    .select()
    .from(newsletterArchives)
    .where(eq(newsletterArchives.userId, userId))
    .limit(1);
  return row;
}

export async function getNewsletterArchive(options: {
  db: Database;
  appUrl: string;
  userId: string;
}): Promise<NewsletterArchive> {
  return toDto(options.appUrl, await findArchive(options.db, options.userId));
}

/** Turning it on keeps the slug it had before (links already shared work again); the first time makes one. */
export async function setNewsletterArchiveEnabled(options: {
  db: Database;
  appUrl: string;
  userId: string;
  enabled: boolean;
}): Promise<NewsletterArchive> {
  const at = now();
  const [row] = await options.db
    .insert(newsletterArchives)
    .values({
      userId: options.userId,
      slug: newSlug(),
      enabled: options.enabled,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoUpdate({
      target: newsletterArchives.userId,
      set: { enabled: options.enabled, updatedAt: at },
    })
    .returning();
  return toDto(options.appUrl, row);
}

/** A new address; the old one answers 404 from now on. */
export async function regenerateNewsletterArchiveSlug(options: {
  db: Database;
  appUrl: string;
  userId: string;
}): Promise<NewsletterArchive> {
  const at = now();
  const [row] = await options.db
    .insert(newsletterArchives)
    .values({ userId: options.userId, slug: newSlug(), enabled: false, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: newsletterArchives.userId,
      set: { slug: newSlug(), updatedAt: at },
    })
    .returning();
  return toDto(options.appUrl, row);
}

export interface PublicArchive {
  senderName: string;
  issues: { subject: string; sentAt: Date; webPath: string }[];
  /** Opaque page keys for the Newer and Older links; null where there is nothing that way. */
  newer: string | null;
  /** A later page (reached by a Newer or Older link), which links back to the newest when it is empty. */
  paged: boolean;
  older: string | null;
}

/** Which page of the archive: the first, the one older than a key, or the one newer than a key. */
export type ArchivePageRequest = { older?: string; newer?: string };

/** A reader we know nothing about: every merge tag in a subject takes its fallback (or nothing). */
const NEUTRAL_CONTACT = {
  email: '',
  firstName: null,
  lastName: null,
  company: null,
  city: null,
  countryCode: null,
  fields: {},
};

/**
 * The exact sort key of a newsletter as text: microseconds, which a JavaScript date would round to
 * milliseconds (two issues sent in the same millisecond would then be skipped or shown twice).
 */
const exactSentAt = sql<string>`to_char(${newsletters.sentAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** (sent time, id) against a page key, newest first being "smaller" further down the list. */
function keyCompare(op: '<' | '>', cursor: { key: string; id: string }): SQL {
  return op === '<'
    ? sql`(${newsletters.sentAt}, ${newsletters.id}) < (${cursor.key}::timestamptz, ${cursor.id}::uuid)`
    : sql`(${newsletters.sentAt}, ${newsletters.id}) > (${cursor.key}::timestamptz, ${cursor.id}::uuid)`;
}

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page key from a link: well-formed, or the same validation error as a key that does not decode. */
function pageKey(cursor: string): { key: string; id: string } {
  const decoded = decodeCursor(cursor)!;
  if (UUID_SHAPE.test(decoded.id) && !Number.isNaN(Date.parse(decoded.key))) return decoded;
  throw new AppError('validation', 'This page link is not valid any more. Start from the first page.', {
    errors: [{ path: 'cursor', message: 'Invalid cursor' }],
  });
}

/**
 * The public page's content, or null for an unknown slug or an archive that is off. Pages are keyset
 * pages on (sent time, id), so an issue published or removed while a reader pages neither shifts nor
 * repeats the others. A malformed page key is a validation error.
 */
export async function loadPublicArchive(options: {
  db: Database;
  slug: string;
  page?: ArchivePageRequest;
  pageSize?: number;
}): Promise<PublicArchive | null> {
  const { db } = options;
  const pageSize = options.pageSize ?? ARCHIVE_PAGE_LIMIT;
  if (!SLUG_SHAPE.test(options.slug)) return null;
  const newerThan = options.page?.newer ? pageKey(options.page.newer) : null;
  const olderThan = !newerThan && options.page?.older ? pageKey(options.page.older) : null;
  const [archive] = await db
    .select({ userId: newsletterArchives.userId, senderName: users.name })
    .from(newsletterArchives)
    .innerJoin(users, eq(users.id, newsletterArchives.userId))
    .where(and(eq(newsletterArchives.slug, options.slug), eq(newsletterArchives.enabled, true)))
    .limit(1);
  if (!archive) return null;
  // Only what has actually gone out: never drafts, scheduled or half-sent issues.
  const shown = and(
    eq(newsletters.userId, archive.userId),
    eq(newsletters.inArchive, true),
    eq(newsletters.status, 'sent'),
    isNotNull(newsletters.sentAt),
    isNull(newsletters.deletedAt),
  )!;
  const columns = {
    id: newsletters.id,
    subject: newsletters.subject,
    sentAt: newsletters.sentAt,
    key: exactSentAt,
    webToken: newsletters.webToken,
    senderAccountIds: newsletters.senderAccountIds,
  };
  const fetched = newerThan
    ? await db
        .select(columns)
        .from(newsletters)
        .where(and(shown, keyCompare('>', newerThan)))
        .orderBy(asc(newsletters.sentAt), asc(newsletters.id))
        .limit(pageSize + 1)
    : await db
        .select(columns)
        .from(newsletters)
        .where(olderThan ? and(shown, keyCompare('<', olderThan)) : shown)
        .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
        .limit(pageSize + 1);
  const moreThisWay = fetched.length > pageSize;
  const rows = fetched.slice(0, pageSize);
  if (newerThan) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const exists = async (where: SQL) =>
    (await db.select({ id: newsletters.id }).from(newsletters).where(and(shown, where)).limit(1)).length > 0;
  const hasNewer = newerThan
    ? moreThisWay
    : Boolean(first && olderThan && (await exists(keyCompare('>', { key: first.key, id: first.id }))));
  const hasOlder = newerThan
    ? Boolean(last && (await exists(keyCompare('<', { key: last.key, id: last.id }))))
    : moreThisWay;
  const senders = new Map(
    (
      await db
        .select({
          id: senderAccounts.id,
          fromName: senderAccounts.fromName,
          fromEmail: senderAccounts.fromEmail,
        })
        .from(senderAccounts)
        .where(eq(senderAccounts.userId, archive.userId))
    ).map((s) => [s.id, s]),
  );
  return {
    senderName: archive.senderName,
    paged: Boolean(newerThan || olderThan),
    newer: hasNewer && first ? encodeCursor(first.key, first.id) : null,
    older: hasOlder && last ? encodeCursor(last.key, last.id) : null,
    issues: rows.map((row) => {
      const sender = senders.get(row.senderAccountIds[0] ?? '');
      const rendered = renderForContact({
        subject: row.subject,
        html: '',
        contact: NEUTRAL_CONTACT,
        sender: sender ? { fromName: sender.fromName, fromEmail: sender.fromEmail } : null,
        seed: row.id,
      });
      return { subject: rendered.subject, sentAt: row.sentAt!, webPath: `/n/${row.webToken}` };
    }),
  };
}
