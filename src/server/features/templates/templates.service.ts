import type { Database } from '@server/db/client';
import { emailTemplates } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { renderNewsletterHtml } from '@shared/newsletter-render';
import { newsletterBlocksSchema } from '@shared/newsletters';
import {
  extractMergeTags,
  MAX_USER_TEMPLATES,
  TEMPLATE_MESSAGES,
  type Template,
  type TemplateCategory,
  type TemplateKind,
  type TemplateScope,
} from '@shared/templates';
import { and, asc, count, desc, eq, ilike, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { escapeLike } from '../directory/directory.service';

type TemplateRow = typeof emailTemplates.$inferSelect;

export interface TemplateFields {
  kind?: TemplateKind;
  category?: TemplateCategory;
  name?: string;
  description?: string;
  subject?: string;
  bodyHtml?: string;
  blocks?: unknown[] | null;
  tags?: string[];
}

export interface TemplateFilters {
  category?: TemplateCategory;
  kind?: TemplateKind;
  q?: string;
}

export function toTemplateDto(row: TemplateRow): Template {
  return {
    id: row.id,
    slug: row.slug,
    kind: row.kind,
    category: row.category,
    name: row.name,
    description: row.description,
    subject: row.subject,
    bodyHtml: row.bodyHtml,
    blocks: row.blocks ?? null,
    tags: row.tags ?? [],
    mergeTags: extractMergeTags(row.subject, row.bodyHtml),
    isLibrary: row.userId === null,
    published: row.published,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Template bodies are shown in previews and copied into campaigns: keep the email-safe markup (tables,
 * inline styles, images, links) and drop scripts, event handlers and unsafe URL schemes.
 */
export function sanitizeTemplateHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      ...sanitizeHtml.defaults.allowedTags,
      'img',
      'h1',
      'h2',
      'center',
      'font',
      'span',
      'u',
      's',
    ],
    allowedAttributes: {
      '*': ['style', 'align', 'valign', 'width', 'height', 'bgcolor', 'class', 'dir'],
      a: ['href', 'target', 'title', 'rel', 'name'],
      img: ['src', 'alt', 'title', 'width', 'height', 'border'],
      table: ['cellpadding', 'cellspacing', 'border', 'role'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan', 'scope'],
      font: ['color', 'face', 'size'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowProtocolRelative: false,
  });
}

function cleanFields(fields: TemplateFields): TemplateFields {
  const out: TemplateFields = { ...fields };
  if (fields.kind === 'email') out.blocks = null;
  if (Array.isArray(out.blocks)) {
    // A newsletter layout's HTML is always the renderer's output of its blocks, never the client's HTML.
    const parsed = newsletterBlocksSchema.safeParse(out.blocks);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError('validation', `The layout is not valid: ${issue?.message ?? 'check its blocks'}`, {
        errors: parsed.error.issues.map((i) => ({
          path: ['blocks', ...i.path].join('.'),
          message: i.message,
        })),
      });
    }
    out.blocks = parsed.data;
    out.bodyHtml = renderNewsletterHtml({
      subject: fields.subject ?? '',
      preheader: '',
      blocks: parsed.data,
    });
  } else if (fields.bodyHtml !== undefined) {
    out.bodyHtml = sanitizeTemplateHtml(fields.bodyHtml);
    if (!out.bodyHtml.replace(/<[^>]*>/g, '').trim() && !/<img\b/i.test(out.bodyHtml)) {
      throw new AppError('validation', 'The template needs a body', {
        errors: [{ path: 'bodyHtml', message: 'The template needs a body' }],
      });
    }
  }
  if (fields.tags) out.tags = [...new Set(fields.tags)];
  return out;
}

function searchConditions(filters: TemplateFilters): SQL[] {
  const where: SQL[] = [];
  if (filters.category) where.push(eq(emailTemplates.category, filters.category));
  if (filters.kind) where.push(eq(emailTemplates.kind, filters.kind));
  const q = filters.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q)}%`;
    where.push(
      or(
        ilike(emailTemplates.name, pattern),
        ilike(emailTemplates.description, pattern),
        ilike(emailTemplates.subject, pattern),
        sql`array_to_string(${emailTemplates.tags}, ' ') ilike ${pattern}`,
      )!,
    );
  }
  return where;
}

const libraryOrder = [asc(emailTemplates.category), asc(emailTemplates.name)];

/** The user's own templates that are not in the recycle bin. */
const ownLive = (userId: string) => and(eq(emailTemplates.userId, userId), isNull(emailTemplates.deletedAt))!;

/** The published library plus (scope mine/all) the user's own templates, own ones first, newest first. */
export async function listTemplates(options: {
  db: Database;
  userId: string;
  scope: TemplateScope;
  filters: TemplateFilters;
}): Promise<Template[]> {
  const { db, userId, scope } = options;
  const library = and(isNull(emailTemplates.userId), eq(emailTemplates.published, true))!;
  const mine = ownLive(userId);
  const owner = scope === 'library' ? library : scope === 'mine' ? mine : or(library, mine)!;
  const rows = await db
    .select()
    .from(emailTemplates)
    .where(and(owner, ...searchConditions(options.filters)))
    .orderBy(
      sql`${emailTemplates.userId} is null`,
      desc(sql`case when ${emailTemplates.userId} is not null then ${emailTemplates.createdAt} end`),
      ...libraryOrder,
    )
    .limit(1000);
  return rows.map(toTemplateDto);
}

/** The published library, for visitors (no sign-in). */
export async function listPublicTemplates(options: {
  db: Database;
  filters: TemplateFilters;
}): Promise<Template[]> {
  const rows = await options.db
    .select()
    .from(emailTemplates)
    .where(
      and(
        isNull(emailTemplates.userId),
        eq(emailTemplates.published, true),
        ...searchConditions(options.filters),
      ),
    )
    .orderBy(...libraryOrder)
    .limit(1000);
  return rows.map(toTemplateDto);
}

export async function getPublicTemplate(options: { db: Database; id: string }): Promise<Template> {
  const [row] = await options.db
    .select()
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.id, options.id),
        isNull(emailTemplates.userId),
        eq(emailTemplates.published, true),
      ),
    )
    .limit(1);
  if (!row) throw notFound(TEMPLATE_MESSAGES.notFound);
  return toTemplateDto(row);
}

/** A published library template or one of the user's own; anything else is 404. */
export async function getTemplateForUser(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<Template> {
  const [row] = await options.db
    .select()
    .from(emailTemplates)
    .where(
      and(
        eq(emailTemplates.id, options.id),
        or(ownLive(options.userId), and(isNull(emailTemplates.userId), eq(emailTemplates.published, true))),
      ),
    )
    .limit(1);
  if (!row) throw notFound(TEMPLATE_MESSAGES.notFound);
  return toTemplateDto(row);
}

export async function createUserTemplate(options: {
  db: Database;
  userId: string;
  input: TemplateFields & Required<Pick<TemplateFields, 'category' | 'name' | 'subject' | 'bodyHtml'>>;
}): Promise<Template> {
  const { db, userId } = options;
  const fields = cleanFields(options.input);
  return db.transaction(async (tx) => {
    // Serialise one user's creations so two parallel saves cannot both slip under the cap.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`templates:${userId}`}))`);
    const [owned] = await tx.select({ value: count() }).from(emailTemplates).where(ownLive(userId));
    if ((owned?.value ?? 0) >= MAX_USER_TEMPLATES) throw new AppError('conflict', TEMPLATE_MESSAGES.tooMany);
    const [row] = await tx
      .insert(emailTemplates)
      .values({
        userId,
        kind: fields.kind ?? 'email',
        category: fields.category!,
        name: fields.name!,
        description: fields.description ?? '',
        subject: fields.subject!,
        bodyHtml: fields.bodyHtml!,
        blocks: fields.blocks ?? null,
        tags: fields.tags ?? [],
        published: true,
      })
      .returning();
    return toTemplateDto(row!);
  });
}

export async function updateUserTemplate(options: {
  db: Database;
  userId: string;
  id: string;
  changes: TemplateFields;
}): Promise<Template> {
  const changes = cleanFields(options.changes);
  const [row] = await options.db
    .update(emailTemplates)
    .set({ ...changes, updatedAt: now() })
    .where(and(eq(emailTemplates.id, options.id), ownLive(options.userId)))
    .returning();
  if (!row) throw notFound(TEMPLATE_MESSAGES.notFound);
  return toTemplateDto(row);
}

/** To the admin recycle bin: gone for its owner at once, restorable by a super admin for 30 days. */
export async function deleteUserTemplate(options: { db: Database; userId: string; id: string }) {
  const at = now();
  const deleted = await options.db
    .update(emailTemplates)
    .set({ deletedAt: at, updatedAt: at })
    .where(and(eq(emailTemplates.id, options.id), ownLive(options.userId)))
    .returning({ id: emailTemplates.id });
  if (deleted.length === 0) throw notFound(TEMPLATE_MESSAGES.notFound);
}

/** A user's deleted template, for the recycle bin; null when it is not there. */
export async function findDeletedUserTemplate(options: {
  db: Database;
  id: string;
}): Promise<{ id: string; userId: string; name: string } | null> {
  const [row] = await options.db
    .select({ id: emailTemplates.id, userId: emailTemplates.userId, name: emailTemplates.name })
    .from(emailTemplates)
    .where(and(eq(emailTemplates.id, options.id), isNotNull(emailTemplates.deletedAt)))
    .limit(1);
  return row?.userId ? { id: row.id, userId: row.userId, name: row.name } : null;
}

/**
 * Back to its owner's templates. Refused while they hold the most templates a user may keep, as
 * creating one would be.
 */
export async function restoreDeletedUserTemplate(options: { db: Database; id: string }): Promise<boolean> {
  return options.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ userId: emailTemplates.userId })
      .from(emailTemplates)
      .where(and(eq(emailTemplates.id, options.id), isNotNull(emailTemplates.deletedAt)))
      .limit(1);
    if (!row?.userId) return false;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`templates:${row.userId}`}))`);
    const [owned] = await tx.select({ value: count() }).from(emailTemplates).where(ownLive(row.userId));
    if ((owned?.value ?? 0) >= MAX_USER_TEMPLATES) throw new AppError('conflict', TEMPLATE_MESSAGES.tooMany);
    const restored = await tx
      .update(emailTemplates)
      .set({ deletedAt: null, updatedAt: now() })
      .where(and(eq(emailTemplates.id, options.id), isNotNull(emailTemplates.deletedAt)))
      .returning({ id: emailTemplates.id });
    return restored.length > 0;
  });
}

/** Deletes a user's template in the recycle bin for good. */
export async function purgeDeletedUserTemplate(options: { db: Database; id: string }): Promise<boolean> {
  const purged = await options.db
    .delete(emailTemplates)
    .where(and(eq(emailTemplates.id, options.id), isNotNull(emailTemplates.deletedAt)))
    .returning({ id: emailTemplates.id });
  return purged.length > 0;
}

/** The purge job's part: users' templates deleted before `cutoff`, for good. */
export async function purgeUserTemplatesDeletedBefore(options: {
  db: Database;
  cutoff: Date;
}): Promise<number> {
  const purged = await options.db
    .delete(emailTemplates)
    .where(and(isNotNull(emailTemplates.deletedAt), lt(emailTemplates.deletedAt, options.cutoff)))
    .returning({ id: emailTemplates.id });
  return purged.length;
}

// ---------------------------------------------------------------------------------------------------
// Library management (super admins)

/** Every library template, published or not, for /admin/templates. */
export async function listLibraryTemplates(options: {
  db: Database;
  filters: TemplateFilters;
}): Promise<Template[]> {
  const rows = await options.db
    .select()
    .from(emailTemplates)
    .where(and(isNull(emailTemplates.userId), ...searchConditions(options.filters)))
    .orderBy(...libraryOrder)
    .limit(2000);
  return rows.map(toTemplateDto);
}

export async function createLibraryTemplate(options: {
  db: Database;
  actor: AuditActor;
  input: TemplateFields &
    Required<Pick<TemplateFields, 'category' | 'name' | 'subject' | 'bodyHtml'>> & { published?: boolean };
}): Promise<Template> {
  const fields = cleanFields(options.input);
  return options.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(emailTemplates)
      .values({
        userId: null,
        slug: null,
        kind: fields.kind ?? 'email',
        category: fields.category!,
        name: fields.name!,
        description: fields.description ?? '',
        subject: fields.subject!,
        bodyHtml: fields.bodyHtml!,
        blocks: fields.blocks ?? null,
        tags: fields.tags ?? [],
        published: options.input.published ?? true,
      })
      .returning();
    await recordAuditEntry({
      db: tx,
      actor: options.actor,
      action: 'template.created',
      targetType: 'template',
      targetId: row!.id,
      details: { name: row!.name, category: row!.category },
    });
    return toTemplateDto(row!);
  });
}

/** Editing a seeded template marks it edited (updatedAt > createdAt), so the seed leaves it alone. */
export async function updateLibraryTemplate(options: {
  db: Database;
  actor: AuditActor;
  id: string;
  changes: TemplateFields & { published?: boolean };
}): Promise<Template> {
  const changes = cleanFields(options.changes);
  return options.db.transaction(async (tx) => {
    const [row] = await tx
      .update(emailTemplates)
      .set({ ...changes, updatedAt: now() })
      .where(and(eq(emailTemplates.id, options.id), isNull(emailTemplates.userId)))
      .returning();
    if (!row) throw notFound(TEMPLATE_MESSAGES.notFound);
    await recordAuditEntry({
      db: tx,
      actor: options.actor,
      action: 'template.updated',
      targetType: 'template',
      targetId: row.id,
      details: { name: row.name, fields: Object.keys(options.changes) },
    });
    return toTemplateDto(row);
  });
}

export async function deleteLibraryTemplate(options: { db: Database; actor: AuditActor; id: string }) {
  await options.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: emailTemplates.id, slug: emailTemplates.slug, name: emailTemplates.name })
      .from(emailTemplates)
      .where(and(eq(emailTemplates.id, options.id), isNull(emailTemplates.userId)))
      .limit(1);
    if (!row) throw notFound(TEMPLATE_MESSAGES.notFound);
    if (row.slug) throw new AppError('conflict', TEMPLATE_MESSAGES.seededDelete);
    await tx.delete(emailTemplates).where(eq(emailTemplates.id, row.id));
    await recordAuditEntry({
      db: tx,
      actor: options.actor,
      action: 'template.deleted',
      targetType: 'template',
      targetId: row.id,
      details: { name: row.name },
    });
  });
}
