import { z } from 'zod';
import { CATEGORY_SLUGS } from './categories';

/*
 * Contacts: what every contact feature shares (sources, statuses, limits, messages, email and query
 * helpers). Each feature's schemas are in its own file: reference.ts, leads.ts, lists.ts, suppression.ts,
 * directory.ts; docs/api-contacts.md lists the endpoints.
 */

// ---------------------------------------------------------------------------------------------------
// Constants

export const CONTACT_SOURCES = ['import', 'data_entry', 'scraper', 'seed'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];
export const VERIFICATION_STATUSES = ['verified', 'unverified', 'invalid'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
/** How a verification result was reached (the evidence behind "Verified"). */
/** officer_check: a data entry officer confirmed it; email_check: the mail server accepted the mailbox. */
export const VERIFICATION_METHODS = ['officer_check', 'email_check'] as const;
/** The statuses lead discovery can filter on (invalid contacts are never shown to subscribers). */
export const LEAD_VERIFICATION_FILTERS = ['verified', 'unverified'] as const;
/** "Verified within" choices the lead filters offer, in days. */
export const VERIFIED_WITHIN_DAYS = [30, 90, 365] as const;
export const LIST_CONTACT_SOURCES = ['import', 'lead_discovery', 'manual', 'signup_form'] as const;
export const SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'complained', 'manual', 'erased'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
/**
 * Reasons a person may choose when adding entries: 'erased' is the platform's tombstone of an address
 * erased on its owner's request (admin Contacts screen), written only by that erasure.
 */
export const ADDABLE_SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'complained', 'manual'] as const;
/** Reasons a user may lift: an unsubscribe or a complaint is honoured forever (PRODUCT.md, Compliance). */
export const REMOVABLE_SUPPRESSION_REASONS: readonly SuppressionReason[] = ['manual', 'bounced'];

export const LEAD_SORTS = ['company_asc', 'company_desc', 'newest'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];
export const LEADS_PAGE_SIZE_DEFAULT = 25;
export const LEADS_PAGE_SIZE_MAX = 100;
/**
 * A keyword count is exact below this many; from it on the answer is a lower bound shown as "10,000+"
 * (or the keyword's whole categories, read from the roll-up, when they alone hold more).
 */
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
  erasedPermanent:
    "This address was erased at its owner's request. Its tombstone keeps it from being added or mailed again and cannot be removed.",
  erasedAddress:
    "This address was erased at its owner's request and cannot be added to the directory or a list again.",
  listFrozen: (name: string, reason: string | null) =>
    `The list "${name}" is frozen by the Tambari team${reason ? ` (${reason})` : ''}: it cannot be sent to or imported into. Contact support if you believe this is a mistake.`,
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
  return isRoleLocalPart(email.trim().split('@')[0]?.toLowerCase() ?? '');
}

/** The same test on a local part already lower-cased (the importer has it at hand for every row). */
export function isRoleLocalPart(local: string): boolean {
  const plus = local.indexOf('+');
  return ROLE_ADDRESS_LOCAL_PARTS.has(plus === -1 ? local : local.slice(0, plus));
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
export const listParam = <T extends z.ZodType<string>>(item: T, max: number) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform(toList)
    .pipe(z.array(item).max(max) as unknown as z.ZodType<z.output<T>[], string[]>);

/** `true`/`false`/`1`/`0` in a query string, a JSON boolean in a body. */
export const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

export const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'Use a two-letter ISO country code')
  .transform((value) => value.toUpperCase());
export const categorySlugSchema = z.enum(CATEGORY_SLUGS, { message: 'Unknown category' });
export const pageSize = (max: number, fallback: number) =>
  z.coerce.number().int().min(1).max(max).default(fallback);
export const optionalText = (max: number) =>
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

export function partialFields<T extends Record<string, z.ZodType>>(
  fields: T,
): { [K in keyof T]: z.ZodOptional<T[K]> } {
  return Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
}
