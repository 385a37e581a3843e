import { z } from 'zod';
import { VARIANT_KEYS } from './campaigns';
import { emailBodyHtml } from './email-body';

/*
 * Personalisation (merge tags, spintax), previews, test sends and the pre-launch check: the merge tags
 * every editor offers and the request/response schemas of their endpoints.
 */

/** The merge tags every contact has, in the order the editors' pickers list them. */
export const CONTACT_MERGE_TAGS = [
  { name: 'firstName', label: 'First name', example: 'Amaka' },
  { name: 'lastName', label: 'Last name', example: 'Okonkwo' },
  { name: 'fullName', label: 'Full name', example: 'Amaka Okonkwo' },
  { name: 'email', label: 'Email address', example: 'amaka@example.com' },
  { name: 'company', label: 'Company', example: 'Kano Foods' },
  { name: 'city', label: 'City', example: 'Lagos' },
  { name: 'country', label: 'Country', example: 'Nigeria' },
  /** "a Nigerian distributor": the country as an adjective (its name when there is no adjective for it). */
  { name: 'countryAdjective', label: 'Country (adjective)', example: 'Nigerian' },
  { name: 'countryCode', label: 'Country code', example: 'NG' },
] as const;

export const SENDER_MERGE_TAGS = [
  { name: 'senderName', label: 'Your name', example: 'Tunde Bello' },
  { name: 'senderEmail', label: 'Your email', example: 'tunde@example.com' },
  /** The sending account's company (Settings → Sender accounts); empty when the account names none. */
  { name: 'senderCompany', label: 'Your company', example: 'Bello Logistics' },
] as const;

export const BUILT_IN_MERGE_TAGS: readonly string[] = [
  ...CONTACT_MERGE_TAGS.map((t) => t.name),
  ...SENDER_MERGE_TAGS.map((t) => t.name),
];

/** How a merge tag with a fallback is written, for the pickers: {{ firstName | default: "there" }}. */
export function mergeTagSnippet(name: string, fallback?: string): string {
  if (!fallback) return `{{ ${name} }}`;
  return `{{ ${name} | default: "${fallback.replaceAll('"', '')}" }}`;
}

/** Tambari adds the unsubscribe link itself; a tag like this in a body is a mistake. */
export const UNSUBSCRIBE_TAG_PATTERN = /^(unsubscribe|unsub|optout|opt_out)([_.]?(url|link))?$/i;

export const mergeTagProblemsSchema = z.object({
  unknownTags: z.array(z.string()),
  syntaxErrors: z.array(z.string()),
});
export type MergeTagProblems = z.infer<typeof mergeTagProblemsSchema>;

const maxHtml = emailBodyHtml;

export const personalizePreviewRequestSchema = z.object({
  subject: z.string().max(1000, 'Subject must be at most 1,000 characters').default(''),
  html: maxHtml.default(''),
  /** Preview as the first contact of these lists (their custom fields become known tags). */
  listIds: z.array(z.uuid('List not found')).max(50).optional(),
});
export type PersonalizePreviewRequest = z.input<typeof personalizePreviewRequestSchema>;

export const previewContactSchema = z.object({
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
});
export type PreviewContact = z.infer<typeof previewContactSchema>;

export const personalizePreviewSchema = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  fallbacksUsed: z.array(z.string()),
  unknownTags: z.array(z.string()),
  syntaxErrors: z.array(z.string()),
  /** Links removed from this contact's copy (shared/mail-links.ts), as "url — reason". */
  removedLinks: z.array(z.string()),
  /** The contact shown (a sample contact when `sample`). */
  contact: previewContactSchema,
  sample: z.boolean(),
});
export type PersonalizePreview = z.infer<typeof personalizePreviewSchema>;

export const campaignPreviewRequestSchema = z.object({
  stepId: z.uuid('Choose a step'),
  variantKey: z.enum(VARIANT_KEYS).default('A'),
  /** A contact of a launched campaign. */
  campaignContactId: z.uuid('Contact not found').optional(),
  /** A contact of the audience, by address. */
  email: z.string().trim().toLowerCase().max(254).optional(),
  /** Preview with the sample contact instead of a real one. */
  sample: z.boolean().optional(),
});

export const campaignTestSendRequestSchema = z.object({
  stepId: z.uuid('Choose a step'),
  variantKey: z.enum(VARIANT_KEYS).default('A'),
  senderAccountId: z.uuid('Choose a sender account'),
  to: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address')).optional(),
  /** Personalise as this contact of the audience (default: the first contact, else the sample). */
  email: z.string().trim().toLowerCase().max(254).optional(),
  campaignContactId: z.uuid('Contact not found').optional(),
});

export const testSendResultSchema = z.object({
  ok: z.literal(true),
  to: z.string(),
  /**
   * What the test went out with that a real send would refuse or send wrong: merge tags nobody fills
   * (`{{ frstName }}` is sent as "Hello ,"), placeholders, example links. The test is sent anyway.
   */
  warnings: z.array(z.string()),
});
export type TestSendResult = z.infer<typeof testSendResultSchema>;

/** The pre-launch warning of a cold campaign with open tracking on (PRODUCT.md, "Open tracking and cold email"). */
export const OPEN_TRACKING_WARNING =
  'Open tracking is on: the pixel goes only into emails where SpamAssassin does not count it (long enough, or already carrying images), so short emails are sent without it and their opens are not counted';

export const prelaunchItemSchema = z.object({
  code: z.string(),
  message: z.string(),
  stepId: z.string().optional(),
  variantKey: z.string().optional(),
  detail: z.string().optional(),
});
export type PrelaunchItem = z.infer<typeof prelaunchItemSchema>;

export const SPAM_ENGINES = ['spamassassin', 'builtin'] as const;

export const spamRuleHitSchema = z.object({
  rule: z.string(),
  score: z.number(),
  description: z.string(),
});
export type SpamRuleHit = z.infer<typeof spamRuleHitSchema>;

/** One step (variant) as it will be sent, scored: SpamAssassin's verdict where installed, else ours. */
export const prelaunchSpamCopySchema = z.object({
  at: z.string(),
  stepId: z.string(),
  variantKey: z.string(),
  score: z.number(),
  rules: z.array(spamRuleHitSchema),
  /** Tambari's wording hints (its word list and habits), shown beside the engine's rules, never added to them. */
  hints: z.array(spamRuleHitSchema),
  /** Whether the open pixel is in the message (tracking on and the pixel free of spam points). */
  pixel: z.boolean(),
});

export const prelaunchSpamSchema = z.object({
  /** Which engine scored: `spamassassin` (spamc/spamassassin on the server) or `builtin` (our rules). */
  engine: z.enum(SPAM_ENGINES),
  /** The SpamAssassin program, or why the built-in rules scored. */
  note: z.string(),
  required: z.number(),
  copies: z.array(prelaunchSpamCopySchema),
});
export type PrelaunchSpam = z.infer<typeof prelaunchSpamSchema>;

export const prelaunchReportSchema = z.object({
  ready: z.boolean(),
  blockers: z.array(prelaunchItemSchema),
  warnings: z.array(prelaunchItemSchema),
  passed: z.array(prelaunchItemSchema),
  audienceSize: z.number().int(),
  /** ISO date-time, or null when nothing can be sent (no audience, no working sender). */
  estimatedFinish: z.string().nullable(),
  /** Messages a day the campaign can send with its accounts, window, gaps and cap. */
  dailyCapacity: z.number().int(),
  /** The spam score of every step as it will be sent; absent from reports made before it existed. */
  spam: prelaunchSpamSchema.optional(),
});
export type PrelaunchReport = z.infer<typeof prelaunchReportSchema>;

/** Above this the copy gets a spam warning (SpamAssassin's default required_score is 5.0). */
export const SPAM_SCORE_THRESHOLD = 5;
