import { z } from 'zod';
import {
  BULK_IDS_MAX,
  CONTACT_MESSAGES,
  CONTACT_SOURCES,
  categorySlugSchema,
  countryCode,
  cursorSchema,
  flag,
  LEAD_SCOPE_CHOICES_MAX,
  LEAD_SORTS,
  LEAD_VERIFICATION_FILTERS,
  LEADS_PAGE_SIZE_DEFAULT,
  LEADS_PAGE_SIZE_MAX,
  listParam,
  pageSize,
  VERIFICATION_METHODS,
  VERIFICATION_STATUSES,
} from './contacts';

/* Lead discovery: search and count filters over the directory, the plan's scope, adding leads to lists. */

export const leadFilterFields = {
  country: listParam(countryCode, 50).optional(),
  city: listParam(z.string().max(100), 20).optional(),
  category: listParam(categorySlugSchema, 50).optional(),
  /** Company or contact name (3+ characters); a category name or synonym also matches its category. */
  q: z.string().trim().min(3, CONTACT_MESSAGES.keywordTooShort).max(100).optional(),
  verifiedOnly: flag.optional(),
  /** One verification status (verified = verifiedOnly). */
  verification: z.enum(LEAD_VERIFICATION_FILTERS).optional(),
  /** Verified, with the check at most this many days old. */
  verifiedWithinDays: z.coerce.number().int().min(1).max(3650).optional(),
  hasPhone: flag.optional(),
  hasWebsite: flag.optional(),
};
export const leadFiltersSchema = z.object(leadFilterFields);
export type LeadFilters = z.infer<typeof leadFiltersSchema>;

export const leadSearchQuerySchema = z.object({
  ...leadFilterFields,
  sort: z.enum(LEAD_SORTS).default('company_asc'),
  cursor: cursorSchema,
  limit: pageSize(LEADS_PAGE_SIZE_MAX, LEADS_PAGE_SIZE_DEFAULT),
});

export const leadSchema = z.object({
  id: z.string(),
  companyName: z.string(),
  contactName: z.string().nullable(),
  jobTitle: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string(),
  category: z.string(),
  /** Where the record came from, and the page for a scraped one. */
  source: z.enum(CONTACT_SOURCES),
  sourceUrl: z.string().nullable(),
  /** Generated demo data on a reserved domain: shown as "Sample data", never verified. */
  sample: z.boolean(),
  verificationStatus: z.enum(VERIFICATION_STATUSES),
  /** True only with evidence: a verification result and its date (PRODUCT.md). */
  verified: z.boolean(),
  /** The date of the verification result (verified or not), null when never checked. */
  verifiedAt: z.string().nullable(),
  verificationMethod: z.enum(VERIFICATION_METHODS).nullable(),
  /** When the record was added to the directory. */
  createdAt: z.string(),
});
export type Lead = z.infer<typeof leadSchema>;

export const leadSearchResultSchema = z.object({
  items: z.array(leadSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});

/**
 * Public figures of the directory (landing, /global-database, pricing): live counts of real verified
 * records, rounded down; `sampleData` says whether generated sample records are present.
 */
export const directoryStatsSchema = z.object({
  /** Real (non-sample) verified contacts, rounded down (12,437 → 12,400); 0 when there are none. */
  verifiedContacts: z.number().int(),
  /** True when `verifiedContacts` was rounded down (show "12,400+"). */
  verifiedContactsRounded: z.boolean(),
  /** Countries with at least one real verified contact. */
  countries: z.number().int(),
  /** Categories with at least one real verified contact. */
  categories: z.number().int(),
  sampleData: z.boolean(),
  asOf: z.string(),
});
export type DirectoryStats = z.infer<typeof directoryStatsSchema>;

/** Rounds a marketing figure down to three significant digits (12,437 → 12,400; 987 stays 987). */
export function roundDownFigure(n: number): number {
  if (n < 1_000) return Math.max(0, Math.floor(n));
  const step = 10 ** (Math.floor(Math.log10(n)) - 2);
  return Math.floor(n / step) * step;
}

export const leadCountSchema = z.object({
  count: z.number().int(),
  /** True when a keyword count stopped early: `count` is then a lower bound ("10,000+", "at least"). */
  capped: z.boolean(),
});

/**
 * The countries and categories chosen for lead discovery when the plan limits them. `countryCode` and
 * `category` choose one of each (the Free plan); `countryCodes` and `categories` choose up to the plan's
 * countryLimit / categoryLimit. A dimension the plan does not limit may be left empty.
 */
export const freePlanScopeInputSchema = z
  .object({
    countryCode: countryCode.optional(),
    category: categorySlugSchema.optional(),
    countryCodes: z.array(countryCode).max(LEAD_SCOPE_CHOICES_MAX).optional(),
    categories: z.array(categorySlugSchema).max(LEAD_SCOPE_CHOICES_MAX).optional(),
  })
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    'Choose a country or a category',
  );
export type FreePlanScopeInput = z.infer<typeof freePlanScopeInputSchema>;

/** The input's choices as two lists without repeats. */
export function scopeChoices(input: FreePlanScopeInput): { countryCodes: string[]; categories: string[] } {
  return {
    countryCodes: [
      ...new Set([...(input.countryCodes ?? []), ...(input.countryCode ? [input.countryCode] : [])]),
    ],
    categories: [...new Set([...(input.categories ?? []), ...(input.category ? [input.category] : [])])],
  };
}

export const freePlanScopeSchema = z.object({
  /** True when the plan limits countries or categories: searches must stay within `scope`. */
  restricted: z.boolean(),
  /**
   * What applies now: at most the plan's number of each (a choice made on a larger plan is cut to the
   * first N). `countryCode` / `category` are the first of each, null when none is chosen.
   */
  scope: z
    .object({
      countryCode: z.string().nullable(),
      category: z.string().nullable(),
      countryCodes: z.array(z.string()),
      categories: z.array(z.string()),
    })
    .nullable(),
  updatedAt: z.string().nullable(),
});

export const addToListSchema = z
  .object({
    listId: z.uuid().optional(),
    newListName: z.string().trim().min(1, 'Give the new list a name').max(100).optional(),
    contactIds: z.array(z.uuid()).min(1).max(BULK_IDS_MAX).optional(),
    allMatching: leadFiltersSchema.optional(),
  })
  .refine((body) => (body.listId ? 1 : 0) + (body.newListName ? 1 : 0) === 1, {
    message: 'Choose a list or name a new one',
    path: ['listId'],
  })
  .refine((body) => (body.contactIds ? 1 : 0) + (body.allMatching ? 1 : 0) === 1, {
    message: 'Choose contacts or add all matching',
    path: ['contactIds'],
  });
export type AddToListInput = z.input<typeof addToListSchema>;
export const addToListResultSchema = z.object({
  listId: z.string(),
  listName: z.string(),
  added: z.number().int(),
  skippedDuplicates: z.number().int(),
  contactCount: z.number().int(),
});
