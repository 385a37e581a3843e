import { randomBytes } from 'node:crypto';
import type { Database } from '@server/db/client';
import { newsletterArchives, newsletters, senderAccounts, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { ARCHIVE_PAGE_LIMIT, type NewsletterArchive } from '@shared/newsletters';
import { and, desc, eq, isNull } from 'drizzle-orm';
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
}

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

/** The public page's content, or null for an unknown slug or an archive that is off. */
export async function loadPublicArchive(options: {
  db: Database;
  slug: string;
}): Promise<PublicArchive | null> {
  const { db } = options;
  if (!SLUG_SHAPE.test(options.slug)) return null;
  const [archive] = await db
    .select({ userId: newsletterArchives.userId, senderName: users.name })
    .from(newsletterArchives)
    .innerJoin(users, eq(users.id, newsletterArchives.userId))
    .where(and(eq(newsletterArchives.slug, options.slug), eq(newsletterArchives.enabled, true)))
    .limit(1);
  if (!archive) return null;
  // Only what has actually gone out: never drafts, scheduled or half-sent issues.
  const rows = await db
    .select({
      id: newsletters.id,
      subject: newsletters.subject,
      sentAt: newsletters.sentAt,
      webToken: newsletters.webToken,
      senderAccountIds: newsletters.senderAccountIds,
    })
    .from(newsletters)
    .where(
      and(
        eq(newsletters.userId, archive.userId),
        eq(newsletters.inArchive, true),
        eq(newsletters.status, 'sent'),
        isNull(newsletters.deletedAt),
      ),
    )
    .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
    .limit(ARCHIVE_PAGE_LIMIT);
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
    issues: rows
      .filter((row) => row.sentAt !== null)
      .map((row) => {
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
