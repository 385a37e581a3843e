import { z } from 'zod';
import { BUSINESS_CATEGORIES } from './categories';

/*
 * Rule-based moves of directory records between categories (/admin/recategorization): a rule picks
 * records by a word in the business name, by current category and by country; the admin previews the
 * count and a sample, applies it (in batches, audited) and can undo it.
 */

const categorySlug = z
  .string()
  .refine((slug) => BUSINESS_CATEGORIES.some((category) => category.slug === slug), 'Choose a category');

export const RECATEGORIZE_MAX_ROWS = 200_000;

export const recategorizationRuleSchema = z
  .object({
    keyword: z.string().trim().max(100).default(''),
    fromCategories: z.array(categorySlug).max(50).default([]),
    countries: z
      .array(z.string().regex(/^[A-Z]{2}$/))
      .max(50)
      .default([]),
    toCategory: categorySlug,
  })
  .refine((rule) => rule.keyword.length >= 3 || rule.fromCategories.length > 0, {
    message: 'Give a word of 3 letters or more, or the categories to move from',
    path: ['keyword'],
  });
export type RecategorizationRule = z.output<typeof recategorizationRuleSchema>;

export const recategorizationPreviewSchema = z.object({
  count: z.number().int(),
  sample: z.array(
    z.object({
      id: z.string(),
      companyName: z.string(),
      countryCode: z.string(),
      category: z.string(),
    }),
  ),
});
export type RecategorizationPreview = z.infer<typeof recategorizationPreviewSchema>;

export const recategorizationSchema = z.object({
  id: z.string().uuid(),
  rule: z.object({
    keyword: z.string(),
    fromCategories: z.array(z.string()),
    countries: z.array(z.string()),
    toCategory: z.string(),
  }),
  moved: z.number().int(),
  state: z.enum(['applied', 'undone']),
  createdByEmail: z.string().nullable(),
  createdAt: z.string(),
  undoneAt: z.string().nullable(),
  /** Records moved back by the undo (those changed since keep their newer category). */
  restored: z.number().int().nullable(),
});
export type Recategorization = z.infer<typeof recategorizationSchema>;
