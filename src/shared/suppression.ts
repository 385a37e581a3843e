import { z } from 'zod';
import {
  ADDABLE_SUPPRESSION_REASONS,
  BULK_IDS_MAX,
  cursorSchema,
  emailSchema,
  optionalText,
  pageSize,
  SUPPRESSION_REASONS,
} from './contacts';

/* The suppression list: addresses no campaign may email (unsubscribes, bounces, complaints, manual). */

export const suppressionSchema = z.object({
  id: z.string(),
  /** e.g. `j***@example.com`; the address itself is kept only as a hash. */
  emailHint: z.string(),
  reason: z.enum(SUPPRESSION_REASONS),
  source: z.string().nullable(),
  note: z.string().nullable(),
  /** False for unsubscribes and complaints, which are permanent. */
  removable: z.boolean(),
  createdAt: z.string(),
});
export type Suppression = z.infer<typeof suppressionSchema>;
export const suppressionListQuerySchema = z.object({
  /** Find an exact address (it is hashed to look it up). */
  email: z.string().trim().max(254).optional(),
  reason: z.enum(SUPPRESSION_REASONS).optional(),
  cursor: cursorSchema,
  limit: pageSize(200, 50),
});
export const suppressionPageSchema = z.object({
  items: z.array(suppressionSchema),
  nextCursor: z.string().nullable(),
});
export const addSuppressionsSchema = z.object({
  emails: z.array(emailSchema).min(1).max(BULK_IDS_MAX),
  reason: z.enum(ADDABLE_SUPPRESSION_REASONS).default('manual'),
  note: optionalText(500),
});
export const addSuppressionsResultSchema = z.object({
  added: z.number().int(),
  alreadySuppressed: z.number().int(),
});
export const checkSuppressionsSchema = z.object({ emails: z.array(emailSchema).min(1).max(BULK_IDS_MAX) });
export const checkSuppressionsResultSchema = z.object({ suppressed: z.array(z.string()) });
