import { z } from 'zod';
import {
  BULK_IDS_MAX,
  CONTACT_MESSAGES,
  CONTACT_SOURCES,
  categorySlugSchema,
  countryCode,
  cursorSchema,
  emailSchema,
  flag,
  LEAD_SORTS,
  LEADS_PAGE_SIZE_MAX,
  listParam,
  optionalText,
  pageSize,
  partialFields,
  VERIFICATION_STATUSES,
} from './contacts';
import { apiErrorSchema } from './errors';
import { leadCountSchema, leadFilterFields } from './leads';
import { timeZoneSchema } from './time-zone';

/* The shared lead directory as staff edit it: data entry, the verification queue, the admin directory. */

export const directoryContactSchema = z.object({
  id: z.string(),
  companyName: z.string(),
  contactName: z.string().nullable(),
  jobTitle: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string(),
  category: z.string(),
  source: z.enum(CONTACT_SOURCES),
  sourceUrl: z.string().nullable(),
  /** Generated demo data (PRODUCT.md: "Sample data is labelled"). */
  synthetic: z.boolean(),
  verificationStatus: z.enum(VERIFICATION_STATUSES),
  verifiedAt: z.string().nullable(),
  verifiedBy: z.string().nullable(),
  invalidReason: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
});
export type DirectoryContact = z.infer<typeof directoryContactSchema>;

const directoryContactFields = {
  companyName: z.string().trim().min(1, 'Company name is required').max(200),
  contactName: optionalText(150),
  jobTitle: optionalText(150),
  email: emailSchema,
  phone: optionalText(50),
  website: optionalText(300),
  address: optionalText(300),
  city: optionalText(100),
  countryCode,
  category: categorySlugSchema,
};
export const createDirectoryContactSchema = z.object(directoryContactFields);
export type CreateDirectoryContactInput = z.input<typeof createDirectoryContactSchema>;
export const updateDirectoryContactSchema = z
  .object(partialFields(directoryContactFields))
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');

/** 409 body when the email already exists: the UI opens `existing` instead of creating a copy. */
export const duplicateContactErrorSchema = apiErrorSchema.extend({
  code: z.literal('duplicate'),
  existing: directoryContactSchema,
});

export const verifyContactSchema = z
  .object({
    status: z.enum(['verified', 'invalid']),
    reason: optionalText(300),
  })
  .refine((body) => body.status !== 'invalid' || !!body.reason, {
    message: CONTACT_MESSAGES.invalidNeedsReason,
    path: ['reason'],
  });

export const verificationQueueQuerySchema = z.object({
  country: listParam(countryCode, 50).optional(),
  category: listParam(categorySlugSchema, 50).optional(),
  cursor: cursorSchema,
  limit: pageSize(100, 25),
});
export const directoryContactPageSchema = z.object({
  items: z.array(directoryContactSchema),
  nextCursor: z.string().nullable(),
});

const dayCounts = z.object({
  added: z.number().int(),
  verified: z.number().int(),
  invalidated: z.number().int(),
});
export const dataEntryStatsQuerySchema = z.object({
  /** IANA time zone that decides where "today" starts; default UTC. */
  tz: timeZoneSchema.optional(),
});
export const dataEntryStatsSchema = z.object({
  timeZone: z.string(),
  today: dayCounts,
  last7Days: dayCounts,
  /** Oldest first, 7 entries ending today. */
  daily: z.array(dayCounts.extend({ date: z.string() })),
  /** The whole team's queue: unverified live contacts. */
  queueSize: z.number().int(),
});

export const adminDirectoryQuerySchema = z.object({
  ...leadFilterFields,
  source: listParam(z.enum(CONTACT_SOURCES), 4).optional(),
  status: listParam(z.enum(VERIFICATION_STATUSES), 3).optional(),
  includeDeleted: flag.optional(),
  /** Only soft-deleted contacts (the admin recycle bin). */
  deletedOnly: flag.optional(),
  sort: z.enum(LEAD_SORTS).default('newest'),
  cursor: cursorSchema,
  limit: pageSize(LEADS_PAGE_SIZE_MAX, 50),
});
export type AdminDirectoryQuery = z.infer<typeof adminDirectoryQuerySchema>;
export const adminDirectoryCountSchema = leadCountSchema;

const bulkIds = z.array(z.uuid()).min(1).max(BULK_IDS_MAX);
export const bulkVerifySchema = z
  .object({ ids: bulkIds, status: z.enum(VERIFICATION_STATUSES), reason: optionalText(300) })
  .refine((body) => body.status !== 'invalid' || !!body.reason, {
    message: CONTACT_MESSAGES.invalidNeedsReason,
    path: ['reason'],
  });
export const bulkRecategorizeSchema = z.object({ ids: bulkIds, category: categorySlugSchema });
export const bulkIdsSchema = z.object({ ids: bulkIds });
export const bulkResultSchema = z.object({
  updated: z.number().int(),
  /** Restore only: contacts left deleted because a live contact now has their email. */
  skipped: z.number().int().default(0),
});
