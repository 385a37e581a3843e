import type { Database } from '@server/db/client';
import { emailTemplates } from '@server/db/schema/index';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import { COLD_INTRODUCTION_TEMPLATES } from './cold-introduction';
import { EVENT_INVITATION_TEMPLATES, RE_ENGAGEMENT_TEMPLATES } from './events-reengagement';
import { FOLLOW_UP_TEMPLATES } from './follow-up';
import { INDUSTRY_TEMPLATES } from './industry';
import { MEETING_REQUEST_TEMPLATES, PARTNERSHIP_TEMPLATES } from './meeting-partnership';
import { NEWSLETTER_LAYOUT_TEMPLATES } from './newsletter-layouts';
import { SEASONAL_TEMPLATES } from './seasonal';
import type { SeedTemplate } from './template-helpers';

export type { SeedTemplate } from './template-helpers';

/** Every library template that ships with Tambari, identified by slug. */
export const LIBRARY_TEMPLATES: readonly SeedTemplate[] = [
  ...COLD_INTRODUCTION_TEMPLATES,
  ...FOLLOW_UP_TEMPLATES,
  ...MEETING_REQUEST_TEMPLATES,
  ...PARTNERSHIP_TEMPLATES,
  ...EVENT_INVITATION_TEMPLATES,
  ...RE_ENGAGEMENT_TEMPLATES,
  ...NEWSLETTER_LAYOUT_TEMPLATES,
  ...SEASONAL_TEMPLATES,
  ...INDUSTRY_TEMPLATES,
];

/**
 * Library templates taken out of the library: unpublished at start-up, so nobody picks them again (copies
 * users already made stay theirs). `follow-up-invoice-reminder` was an "invoice due" mail: sent to a
 * prospect who owes nothing, it reads as invoice fraud.
 */
export const RETIRED_TEMPLATE_SLUGS: readonly string[] = ['follow-up-invoice-reminder'];

/**
 * Idempotent, run at every start: inserts missing library templates by slug and updates one whose text
 * changed in code — unless a super admin has edited it (updated_at > created_at; the seed itself never
 * moves updated_at), so an admin's wording always wins. Seeded templates cannot be deleted (only
 * unpublished), so they never come back against an admin's will.
 */
export async function seedLibraryTemplates({
  db,
  templates = LIBRARY_TEMPLATES,
}: {
  db: Database;
  templates?: readonly SeedTemplate[];
}): Promise<void> {
  const t = emailTemplates;
  await db
    .update(t)
    .set({ published: false })
    .where(and(inArray(t.slug, [...RETIRED_TEMPLATE_SLUGS]), isNull(t.userId)));
  if (templates.length === 0) return;
  await db
    .insert(t)
    .values(
      templates.map((template) => ({
        userId: null,
        slug: template.slug,
        kind: template.kind,
        category: template.category,
        name: template.name,
        description: template.description,
        subject: template.subject,
        bodyHtml: template.bodyHtml,
        blocks: template.blocks,
        tags: template.tags,
        published: true,
      })),
    )
    .onConflictDoUpdate({
      target: t.slug,
      targetWhere: sql`${t.slug} is not null`,
      set: {
        kind: sql`excluded.kind`,
        category: sql`excluded.category`,
        name: sql`excluded.name`,
        description: sql`excluded.description`,
        subject: sql`excluded.subject`,
        bodyHtml: sql`excluded.body_html`,
        blocks: sql`excluded.blocks`,
        tags: sql`excluded.tags`,
      },
      setWhere: sql`${t.updatedAt} = ${t.createdAt} and ${t.userId} is null and (
        ${t.kind}, ${t.category}, ${t.name}, ${t.description}, ${t.subject}, ${t.bodyHtml}, ${t.blocks}, ${t.tags}
      ) is distinct from (
        excluded.kind, excluded.category, excluded.name, excluded.description, excluded.subject,
        excluded.body_html, excluded.blocks, excluded.tags
      )`,
    });
}
