import { z } from 'zod';
import { maxUtf8Bytes, TEMPLATE_BODY_MAX_BYTES } from './email-body';

/*
 * The template library (seeded, managed by super admins) and each user's own saved templates: categories,
 * the DTO, request schemas, and the pure helpers both sides use (merge-tag extraction, sample preview).
 */

export const TEMPLATE_KINDS = ['email', 'newsletter'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const TEMPLATE_CATEGORIES = [
  'cold-introduction',
  'follow-up',
  'meeting-request',
  'partnership',
  'event-invitation',
  're-engagement',
  'newsletter-layout',
  'seasonal',
  'industry',
] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const TEMPLATE_CATEGORY_LABELS: Record<TemplateCategory, string> = {
  'cold-introduction': 'Cold introduction',
  'follow-up': 'Follow-up',
  'meeting-request': 'Meeting request',
  partnership: 'Partnership',
  'event-invitation': 'Event invitation',
  're-engagement': 'Re-engagement',
  'newsletter-layout': 'Newsletter layouts',
  seasonal: 'Seasonal & holidays',
  industry: 'By industry',
};

export const TEMPLATE_SCOPES = ['library', 'mine', 'all'] as const;
export type TemplateScope = (typeof TEMPLATE_SCOPES)[number];

/** A user keeps at most this many own templates; the library has no cap. */
export const MAX_USER_TEMPLATES = 500;

export const TEMPLATE_MESSAGES = {
  notFound: 'Template not found',
  tooMany: `You can keep up to ${MAX_USER_TEMPLATES} templates. Delete some you no longer use first.`,
  seededDelete:
    'Templates that ship with Tambari cannot be deleted (they would return at the next start). Unpublish it instead.',
} as const;

export const templateSchema = z.object({
  id: z.string(),
  slug: z.string().nullable(),
  kind: z.enum(TEMPLATE_KINDS),
  category: z.string(),
  name: z.string(),
  description: z.string(),
  subject: z.string(),
  bodyHtml: z.string(),
  blocks: z.array(z.unknown()).nullable(),
  tags: z.array(z.string()),
  /** The merge tags the subject and body use (derived), e.g. ['firstName', 'company']. */
  mergeTags: z.array(z.string()),
  isLibrary: z.boolean(),
  published: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Template = z.infer<typeof templateSchema>;
export const templateListSchema = z.array(templateSchema);

export const templateListQuerySchema = z.object({
  category: z.enum(TEMPLATE_CATEGORIES).optional(),
  kind: z.enum(TEMPLATE_KINDS).optional(),
  q: z.string().trim().max(100, 'Search at most 100 characters').optional(),
  scope: z.enum(TEMPLATE_SCOPES).default('all'),
});

export const publicTemplateListQuerySchema = templateListQuerySchema.pick({
  category: true,
  kind: true,
  q: true,
});

export const templateIdParamsSchema = z.object({ id: z.uuid('Template not found') });

const subject = z
  .string()
  .trim()
  .min(1, 'Enter a subject')
  .max(200, 'Subject must be at most 200 characters')
  .refine((v) => !/[\r\n]/.test(v), 'Subject cannot contain line breaks');

export const templateInputSchema = z.object({
  kind: z.enum(TEMPLATE_KINDS).default('email'),
  category: z.enum(TEMPLATE_CATEGORIES, 'Choose a category'),
  name: z.string().trim().min(1, 'Enter a name').max(120, 'Name must be at most 120 characters'),
  description: z.string().trim().max(500, 'Description must be at most 500 characters').default(''),
  subject,
  bodyHtml: maxUtf8Bytes(TEMPLATE_BODY_MAX_BYTES, 'The template body is too large (max 512 KB)').refine(
    (text) => text.length > 0,
    'The template needs a body',
  ),
  blocks: z.array(z.unknown()).max(200, 'A layout can have at most 200 blocks').nullable().optional(),
  tags: z
    .array(z.string().trim().toLowerCase().min(1).max(40, 'Tags are at most 40 characters'))
    .max(20, 'At most 20 tags')
    .default([]),
});
export type TemplateInput = z.input<typeof templateInputSchema>;
export const templateUpdateSchema = templateInputSchema
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');
export type TemplateUpdate = z.input<typeof templateUpdateSchema>;

export const adminTemplateInputSchema = templateInputSchema.extend({ published: z.boolean().default(true) });
export const adminTemplateUpdateSchema = adminTemplateInputSchema
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change');

// ---------------------------------------------------------------------------------------------------
// Merge tags

/** `{{ firstName | default: "there" }}` → name `firstName`, fallback `there`. */
const MERGE_TAG = /\{\{-?\s*([A-Za-z_][\w.]*)\s*((?:\|[^}]*)?)-?\}\}/g;
const DEFAULT_FILTER = /\|\s*default\s*:\s*(?:"([^"]*)"|'([^']*)')/;

/** The distinct merge tags of the given texts, in order of first use. */
export function extractMergeTags(...texts: string[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(MERGE_TAG)) seen.add(match[1]!);
  }
  return [...seen];
}

/** What the previews put in place of merge tags: a plausible Nigerian B2B contact and sender. */
export const SAMPLE_MERGE_VALUES: Record<string, string> = {
  firstName: 'Amaka',
  lastName: 'Okafor',
  fullName: 'Amaka Okafor',
  email: 'amaka@okaforfoods.example.com',
  company: 'Okafor Foods',
  city: 'Lagos',
  country: 'Nigeria',
  countryCode: 'NG',
  senderName: 'Tunde Bakare',
  senderEmail: 'tunde@yourcompany.example.com',
  senderCompany: 'Your Company',
  unsubscribe: '#',
  unsubscribeUrl: '#',
};

/**
 * A preview stand-in for the real renderer: merge tags become sample values (or their `default`
 * fallback, else `[name]`), spintax `{Hi|Hello}` takes its first option. Only for showing a template.
 */
export function fillSampleMergeTags(
  text: string,
  values: Record<string, string> = SAMPLE_MERGE_VALUES,
): string {
  const filled = text.replace(MERGE_TAG, (_all, name: string, filters: string) => {
    const key = name.startsWith('fields.') ? name.slice('fields.'.length) : name;
    const value = values[key];
    if (value) return value;
    const fallback = DEFAULT_FILTER.exec(filters);
    if (fallback) return fallback[1] ?? fallback[2] ?? '';
    return `[${key}]`;
  });
  return filled.replace(/\{([^{}|]+(?:\|[^{}|]*)+)\}/g, (_all, options: string) => options.split('|')[0]!);
}
