import { z } from 'zod';
import { CATEGORY_SLUGS } from './categories';
import { apiErrorSchema } from './errors';
import { timeZoneSchema } from './time-zone';

/*
 * Contacts: reference data, lead discovery, the user's lists, suppressions, data entry and the admin
 * directory. Request and response schemas for every endpoint in docs/api-contacts.md.
 */

// ---------------------------------------------------------------------------------------------------
// Constants

export const CONTACT_SOURCES = ['import', 'data_entry', 'scraper', 'seed'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];
export const VERIFICATION_STATUSES = ['verified', 'unverified', 'invalid'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
/** How a verification result was reached (the evidence behind "Verified"). */
export const VERIFICATION_METHODS = ['officer_check'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];
/** The statuses lead discovery can filter on (invalid contacts are never shown to subscribers). */
export const LEAD_VERIFICATION_FILTERS = ['verified', 'unverified'] as const;
/** "Verified within" choices the lead filters offer, in days. */
export const VERIFIED_WITHIN_DAYS = [30, 90, 365] as const;
export const LIST_CONTACT_SOURCES = ['import', 'lead_discovery', 'manual'] as const;
export type ListContactSource = (typeof LIST_CONTACT_SOURCES)[number];
export const SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'complained', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
/** Reasons a user may lift: an unsubscribe or a complaint is honoured forever (PRODUCT.md, Compliance). */
export const REMOVABLE_SUPPRESSION_REASONS: readonly SuppressionReason[] = ['manual', 'bounced'];

export const LEAD_SORTS = ['company_asc', 'company_desc', 'newest'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];
export const LEADS_PAGE_SIZE_DEFAULT = 25;
export const LEADS_PAGE_SIZE_MAX = 100;
/** A keyword count is exact up to this many; above it the answer is "10,000+". */
export const LEAD_COUNT_EXACT_CAP = 10_000;
/** Most contacts one "add all matching" copies into a list in one go. */
export const ADD_ALL_MATCHING_MAX = 50_000;
export const LIST_PAGE_SIZE_MAX = 200;
export const LIST_RECYCLE_BIN_DAYS = 30;
export const BULK_IDS_MAX = 1_000;
export const CITY_RESULTS_MAX = 500;
export const CUSTOM_FIELDS_MAX = 20;
/** A custom field name (a merge tag): lists and the importer share this rule. */
export const CUSTOM_FIELD_NAME_MAX = 40;
export const CUSTOM_FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** The built-in list contact fields; custom field names may not reuse them (they are merge tags too). */
export const LIST_CONTACT_FIELDS = [
  'email',
  'first_name',
  'last_name',
  'company',
  'job_title',
  'phone',
  'website',
  'city',
  'country_code',
] as const;

/** The most countries or categories one scope can name (more than there are of either). */
export const LEAD_SCOPE_CHOICES_MAX = 300;

export const CONTACT_MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  keywordTooShort: 'Type at least 3 characters to search by name.',
  /** `included` reads like "one country and one category" or "3 countries". */
  scopeRequired: (included: string, planName: string) =>
    `Choose the ${included} your ${planName} plan includes before searching the directory.`,
  duplicateListName: 'You already have a list with this name.',
  duplicateListContact: 'This email address is already in the list.',
  duplicateDirectoryContact: 'A contact with this email address already exists in the directory.',
  invalidNeedsReason: 'Give a reason when marking a contact invalid.',
  sampleNotVerifiable:
    'This is sample data (a generated business on a reserved example domain): it cannot be verified.',
  suppressionPermanent: 'Unsubscribes and complaints are permanent and cannot be removed.',
  recipientLimit: (limit: number, planName: string) =>
    `Your ${planName} plan allows ${limit.toLocaleString('en-US')} contacts. Remove contacts or upgrade your plan to add more.`,
  /** `upgrade` reads like "Upgrade to Starter, Growth or Pro to search every country and category". */
  outsideScope: (input: { included: string; planName: string; scope: string; upgrade: string }) =>
    `Your ${input.planName} plan includes ${input.included} (${input.scope}). ${input.upgrade}, or change your choice.`,
  /** The plan includes no country (or no category) of the directory: a limit of 0. */
  noDirectoryAccess: (what: string, planName: string, upgrade: string) =>
    `Your ${planName} plan does not include any ${what} of the lead directory. ${upgrade}.`,
  scopeNeedsOne: (what: string) => `Choose at least one ${what}.`,
} as const;

// ---------------------------------------------------------------------------------------------------
// Email helpers (shared with the CSV importer)

/** Mailbox names that reach a role, not a person; such addresses are kept but flagged. */
export const ROLE_ADDRESS_LOCAL_PARTS = new Set([
  'info',
  'sales',
  'admin',
  'administrator',
  'support',
  'contact',
  'contactus',
  'hello',
  'office',
  'enquiries',
  'enquiry',
  'inquiries',
  'inquiry',
  'help',
  'hr',
  'jobs',
  'careers',
  'marketing',
  'accounts',
  'billing',
  'finance',
  'noreply',
  'no-reply',
  'webmaster',
  'postmaster',
  'abuse',
  'team',
  'customerservice',
  'customercare',
  'service',
  'services',
  'mail',
  'frontdesk',
  'reception',
  'booking',
  'bookings',
  'orders',
  'media',
  'press',
  'legal',
  'compliance',
  'procurement',
  'ceo',
  'management',
]);

/** The address as stored: trimmed, domain lower-cased (the local part is case-sensitive in theory). */
export function normalizeEmail(email: string): string {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 0) return trimmed;
  return `${trimmed.slice(0, at)}@${trimmed.slice(at + 1).toLowerCase()}`;
}

/** The duplicate key: the whole address trimmed and lower-cased (list_contacts.email_normalized). */
export function emailDedupeKey(email: string): string {
  return email.trim().toLowerCase();
}

export function isRoleAddress(email: string): boolean {
  const local = email.trim().split('@')[0]?.toLowerCase() ?? '';
  return ROLE_ADDRESS_LOCAL_PARTS.has(local.split('+')[0] ?? local);
}

/** `j***@example.com`: enough to recognise an address without storing it. */
export function maskEmail(email: string): string {
  const key = emailDedupeKey(email);
  const at = key.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${key[0]}***${key.slice(at)}`;
}

// ---------------------------------------------------------------------------------------------------
// Query-string helpers

const toList = (value: string | string[]) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);

/** Repeated (`?country=NG&country=GH`) or comma-separated (`?country=NG,GH`) values; JSON arrays too. */
const listParam = <T extends z.ZodType<string>>(item: T, max: number) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform(toList)
    .pipe(z.array(item).max(max) as unknown as z.ZodType<z.output<T>[], string[]>);

/** `true`/`false`/`1`/`0` in a query string, a JSON boolean in a body. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'Use a two-letter ISO country code')
  .transform((value) => value.toUpperCase());
export const categorySlugSchema = z.enum(CATEGORY_SLUGS, { message: 'Unknown category' });
const pageSize = (max: number, fallback: number) => z.coerce.number().int().min(1).max(max).default(fallback);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

export const emailSchema = z
  .string()
  .trim()
  .min(3, CONTACT_MESSAGES.invalidEmail)
  .max(254, CONTACT_MESSAGES.invalidEmail)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, CONTACT_MESSAGES.invalidEmail);

export const uuidParamsSchema = z.object({ id: z.uuid() });
export const cursorSchema = z.string().max(512).optional();
export const countResultSchema = z.object({ count: z.number().int() });

// ---------------------------------------------------------------------------------------------------
// Reference data

export const countrySchema = z.object({
  code: z.string(),
  name: z.string(),
  flag: z.string(),
  currency: z.string(),
  phoneCode: z.string(),
  timezones: z.array(z.string()),
  /** The directory holds contacts in this country. */
  active: z.boolean(),
  contactCount: z.number().int(),
});
export type Country = z.infer<typeof countrySchema>;
export const countryListSchema = z.object({ countries: z.array(countrySchema) });

export const cityListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  limit: pageSize(CITY_RESULTS_MAX, CITY_RESULTS_MAX),
});
export const cityParamsSchema = z.object({ code: countryCode });
export const citySchema = z.object({ name: z.string(), stateCode: z.string() });
export const cityListSchema = z.object({
  countryCode: z.string(),
  cities: z.array(citySchema),
  /** More cities matched than were returned: narrow with `q`. */
  truncated: z.boolean(),
});

export const categorySchema = z.object({
  slug: z.string(),
  name: z.string(),
  group: z.string(),
  synonyms: z.array(z.string()),
});
export const categoryListSchema = z.object({
  groups: z.array(z.string()),
  categories: z.array(categorySchema),
});

// ---------------------------------------------------------------------------------------------------
// Lead discovery

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
/** The same filters as a JSON body (add-to-list "all matching"). */
export type LeadFiltersInput = z.input<typeof leadFiltersSchema>;

export const leadSearchQuerySchema = z.object({
  ...leadFilterFields,
  sort: z.enum(LEAD_SORTS).default('company_asc'),
  cursor: cursorSchema,
  limit: pageSize(LEADS_PAGE_SIZE_MAX, LEADS_PAGE_SIZE_DEFAULT),
});
export type LeadSearchQuery = z.infer<typeof leadSearchQuerySchema>;

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
  /** True when a keyword search stopped counting at LEAD_COUNT_EXACT_CAP ("10,000+"). */
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

// ---------------------------------------------------------------------------------------------------
// Lists

const customFieldName = z
  .string()
  .trim()
  .regex(CUSTOM_FIELD_NAME, 'Use lower-case letters, digits and _ (start with a letter)')
  .refine(
    (name) => !(LIST_CONTACT_FIELDS as readonly string[]).includes(name),
    'This name is a built-in field',
  );
const customFieldNames = z
  .array(customFieldName)
  .max(CUSTOM_FIELDS_MAX)
  .refine((names) => new Set(names).size === names.length, 'Custom field names must be different');

export const contactListSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  customFields: z.array(z.string()),
  contactCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactList = z.infer<typeof contactListSchema>;
export const contactListsSchema = z.object({ lists: z.array(contactListSchema) });

export const deletedContactListSchema = contactListSchema.extend({
  deletedAt: z.string(),
  /** When the purge job deletes it for good. */
  purgeAt: z.string(),
});
export const recycleBinSchema = z.object({ lists: z.array(deletedContactListSchema) });

export const createListSchema = z.object({
  name: z.string().trim().min(1, 'Give the list a name').max(100),
  description: optionalText(500),
  customFields: customFieldNames.default([]),
});
export const updateListSchema = z
  .object({
    name: z.string().trim().min(1, 'Give the list a name').max(100).optional(),
    description: optionalText(500).optional(),
    customFields: customFieldNames.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');

export const listContactSchema = z.object({
  id: z.number().int(),
  listId: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  jobTitle: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string().nullable(),
  customFields: z.record(z.string(), z.string()),
  roleAddress: z.boolean(),
  source: z.enum(LIST_CONTACT_SOURCES),
  directoryContactId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ListContact = z.infer<typeof listContactSchema>;

export const listContactsQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  cursor: cursorSchema,
  limit: pageSize(LIST_PAGE_SIZE_MAX, 50),
});
export const listContactsPageSchema = z.object({
  items: z.array(listContactSchema),
  nextCursor: z.string().nullable(),
});

const listContactFields = {
  firstName: optionalText(100),
  lastName: optionalText(100),
  company: optionalText(200),
  jobTitle: optionalText(150),
  phone: optionalText(50),
  website: optionalText(300),
  city: optionalText(100),
  countryCode: countryCode.nullish().transform((value) => value ?? null),
  customFields: z.record(z.string(), z.string().max(1000)).optional(),
};
export const createListContactSchema = z.object({ email: emailSchema, ...listContactFields });
export const updateListContactSchema = z
  .object({ email: emailSchema.optional(), ...partialFields(listContactFields) })
  .refine((body) => Object.keys(body).length > 0, 'Nothing to change');
export const listContactParamsSchema = z.object({
  id: z.uuid(),
  contactId: z.coerce.number().int().positive(),
});
export const removeListContactsSchema = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(BULK_IDS_MAX),
});
export const removedSchema = z.object({ removed: z.number().int() });

// ---------------------------------------------------------------------------------------------------
// Suppressions

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
  reason: z.enum(SUPPRESSION_REASONS).default('manual'),
  note: optionalText(500),
});
export const addSuppressionsResultSchema = z.object({
  added: z.number().int(),
  alreadySuppressed: z.number().int(),
});
export const checkSuppressionsSchema = z.object({ emails: z.array(emailSchema).min(1).max(BULK_IDS_MAX) });
export const checkSuppressionsResultSchema = z.object({ suppressed: z.array(z.string()) });

// ---------------------------------------------------------------------------------------------------
// Directory contacts (data entry and admin)

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

function partialFields<T extends Record<string, z.ZodType>>(
  fields: T,
): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
}
