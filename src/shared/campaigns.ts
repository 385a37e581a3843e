import { z } from 'zod';
import { emailBodyHtml } from './email-body';
import { BODY_FORMATS, CAMPAIGN_STATUSES, TIMEZONE_MODES } from './sending';
import { timeZoneSchema } from './time-zone';

/*
 * Campaigns, their steps and A/B variants, newsletters and bulk sends: the shared vocabulary and request
 * schemas (server validation and the browser's forms use the same ones).
 */

export const STEP_CONDITIONS = ['always', 'no_reply', 'not_opened', 'clicked'] as const;
export type StepCondition = (typeof STEP_CONDITIONS)[number];
export const STEP_CONDITION_LABELS: Record<StepCondition, string> = {
  always: 'Always',
  no_reply: 'If no reply',
  not_opened: 'If not opened',
  clicked: 'If clicked',
};

export const VARIANT_KEYS = ['A', 'B', 'C', 'D'] as const;
export type VariantKey = (typeof VARIANT_KEYS)[number];
export const MAX_VARIANTS = 4;
export const MAX_STEPS = 10;
export const WINNER_METRICS = ['open', 'click', 'reply'] as const;
export type WinnerMetric = (typeof WINNER_METRICS)[number];

export const NEWSLETTER_STATUSES = ['draft', 'scheduled', 'sending', 'sent'] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];

const name = z.string().trim().min(1, 'Enter a name').max(120, 'Name must be at most 120 characters');
/** May be empty on a follow-up step: see THREAD_REPLY below. The first step's is required (the services). */
const subject = z
  .string()
  .trim()
  .max(200, 'Subject must be at most 200 characters')
  .refine((v) => !/[\r\n]/.test(v), 'Subject cannot contain line breaks');
/** Bodies are HTML from the editor; 2 MB in UTF-8 bytes, the engine's limit too. */
const bodyHtml = emailBodyHtml;

/** Which verifier verdicts an audience leaves out (see campaignAudienceSchema.skipUnverified). */
export const AUDIENCE_VERIFICATION_SKIPS = ['none', 'invalid', 'risky'] as const;
export type AudienceVerificationSkip = (typeof AUDIENCE_VERIFICATION_SKIPS)[number];
export const DEFAULT_VERIFICATION_SKIP: AudienceVerificationSkip = 'invalid';

export const campaignAudienceSchema = z.object({
  /** The user's own lists. */
  listIds: z.array(z.uuid()).max(50).default([]),
  /** Segments narrowing some of those lists: at most one per list, and its list among listIds. */
  segmentIds: z.array(z.uuid()).max(50).optional(),
  /**
   * Addresses the email verifier judged, left out when sending: `invalid` (the default) skips those
   * their server refused; `risky` also skips catch-all, role, full and greylisted ones; `none` sends to all.
   */
  skipUnverified: z.enum(AUDIENCE_VERIFICATION_SKIPS).optional(),
  /** Saved lead-discovery filters (the same shape as GET /api/leads query). */
  leadFilters: z
    .array(
      z.object({
        country: z.array(z.string()).optional(),
        city: z.array(z.string()).optional(),
        category: z.array(z.string()).optional(),
        keyword: z.string().optional(),
        verifiedOnly: z.boolean().optional(),
        hasPhone: z.boolean().optional(),
        hasWebsite: z.boolean().optional(),
      }),
    )
    .max(10)
    .default([]),
});
export type CampaignAudience = z.infer<typeof campaignAudienceSchema>;

/**
 * A campaign's own protection: it pauses itself when its hard bounces or spam complaints pass these
 * shares of what it sent, judged once it has sent CAMPAIGN_PROTECTION_MIN_SENDS.
 */
export const CAMPAIGN_PROTECTION_MIN_SENDS = 20;
export const DEFAULT_BOUNCE_PAUSE_PERCENT = 5;
export const DEFAULT_COMPLAINT_PAUSE_PERCENT = 0.3;
const bouncePausePercent = z
  .number({ error: 'Enter the bounce limit as a percentage' })
  .min(0.5, 'The bounce limit must be between 0.5% and 50%')
  .max(50, 'The bounce limit must be between 0.5% and 50%');
const complaintPausePercent = z
  .number({ error: 'Enter the complaint limit as a percentage' })
  .min(0.05, 'The complaint limit must be between 0.05% and 10%')
  .max(10, 'The complaint limit must be between 0.05% and 10%');

export const campaignSettingsSchema = z
  .object({
    name,
    audience: campaignAudienceSchema.default({ listIds: [], leadFilters: [] }),
    senderAccountIds: z.array(z.uuid()).max(40).default([]),
    /** null: start as soon as it is launched. */
    scheduledAt: z.iso.datetime({ offset: true }).nullable().default(null),
    windowStartMinute: z
      .number()
      .int()
      .min(0)
      .max(1440)
      .default(8 * 60),
    windowEndMinute: z
      .number()
      .int()
      .min(0)
      .max(1440)
      .default(17 * 60),
    sendDays: z
      .array(z.number().int().min(1).max(7))
      .min(1, 'Choose at least one sending day')
      .default([1, 2, 3, 4, 5]),
    timezoneMode: z.enum(TIMEZONE_MODES).default('recipient'),
    timeZone: timeZoneSchema.default('Africa/Lagos'),
    gapMinSeconds: z.number().int().min(0).max(3600).default(60),
    gapMaxSeconds: z.number().int().min(0).max(3600).default(180),
    dailyCap: z.number().int().min(1).max(100_000).nullable().default(null),
    domainPacePerHour: z.number().int().min(1).max(10_000).nullable().default(null),
    /** Off for cold outreach (PRODUCT.md): see OPEN_TRACKING_REASON. Newsletters and bulk set their own. */
    trackOpens: z.boolean().default(false),
    trackClicks: z.boolean().default(true),
    bodyFormat: z.enum(BODY_FORMATS).default('html'),
    bouncePausePercent: bouncePausePercent.default(DEFAULT_BOUNCE_PAUSE_PERCENT),
    complaintPausePercent: complaintPausePercent.default(DEFAULT_COMPLAINT_PAUSE_PERCENT),
    trackingDomain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/, 'Enter a domain like track.example.com')
      .nullable()
      .default(null),
  })
  .superRefine((v, ctx) => {
    if (v.gapMaxSeconds < v.gapMinSeconds) {
      ctx.addIssue({
        code: 'custom',
        path: ['gapMaxSeconds'],
        message: 'The longest gap must be at least the shortest',
      });
    }
    if (v.windowStartMinute === v.windowEndMinute) return; // all day
  });
/** What each body format sends, shown beside the choice. */
export const BODY_FORMAT_LABELS: Record<(typeof BODY_FORMATS)[number], { label: string; hint: string }> = {
  html: {
    label: 'Formatted (HTML)',
    hint: 'Your formatting as written, with a plain-text copy for mail programs that want one.',
  },
  text_html: {
    label: 'Plain text first, with a minimal HTML copy',
    hint: 'Reads like a typed email: the text as sent, plus a bare HTML copy (paragraphs and links) so link clicks can be tracked.',
  },
  text: {
    label: 'Plain text only',
    hint: 'The most personal look and the fewest spam points: no HTML part, so no open pixel and no tracked links.',
  },
};

/** Why a cold campaign starts with open tracking off: shown beside the toggle. */
export const OPEN_TRACKING_REASON =
  'Off by default: an open pixel in a short cold email costs spam points with SpamAssassin (HTML_IMAGE_ONLY rules), and Apple Mail and Gmail fetch images for the reader, so opens are unreliable. Replies and clicks are the signal. When on, the pixel goes only into emails where it costs no points (long ones, or ones with images of their own): short emails go without it.';

export type CampaignSettingsInput = z.input<typeof campaignSettingsSchema>;

/**
 * A follow-up step whose subject is left empty is sent as a reply in the contact's thread: "Re: " and
 * the subject the contact last received from the campaign, In-Reply-To and References naming that
 * message, from the account that sent it. The first email starts the thread, so it needs a subject.
 */
export const THREAD_REPLY = {
  firstStepNeedsSubject: 'Enter a subject',
  firstStepMovedWithoutSubject:
    'The first step needs a subject: only follow-ups can leave it empty to reply in the same thread',
  subjectHint: 'Leave empty to send this follow-up as a reply in the same thread (Re: …)',
} as const;

/** The indexes of variants missing the subject the first step needs; none for a follow-up. */
export function variantsMissingFirstSubject(
  variants: readonly { subject: string }[],
  isFirstStep: boolean,
): number[] {
  if (!isFirstStep) return [];
  return variants.flatMap((variant, index) => (variant.subject.trim() === '' ? [index] : []));
}

export const variantInputSchema = z.object({
  key: z.enum(VARIANT_KEYS),
  subject,
  bodyHtml,
  /** Share of the step's recipients, in percent; the variants of a step add up to 100. */
  splitPercent: z.number().int().min(0).max(100),
});

export const stepInputSchema = z
  .object({
    delayDays: z.number().int().min(0).max(365).default(0),
    delayHours: z.number().int().min(0).max(23).default(0),
    businessDays: z.boolean().default(false),
    condition: z.enum(STEP_CONDITIONS).default('always'),
    variants: z.array(variantInputSchema).min(1, 'A step needs an email').max(MAX_VARIANTS),
    winnerRule: z
      .object({ metric: z.enum(WINNER_METRICS), afterSends: z.number().int().min(10).max(100_000) })
      .nullable()
      .default(null),
  })
  .superRefine((v, ctx) => {
    const total = v.variants.reduce((sum, x) => sum + x.splitPercent, 0);
    if (total !== 100) {
      ctx.addIssue({ code: 'custom', path: ['variants'], message: 'The A/B split must add up to 100%' });
    }
    const keys = new Set(v.variants.map((x) => x.key));
    if (keys.size !== v.variants.length) {
      ctx.addIssue({ code: 'custom', path: ['variants'], message: 'Each variant needs its own letter' });
    }
  });
export type StepInput = z.input<typeof stepInputSchema>;

export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES);

// ---------------------------------------------------------------------------------------------------
// Campaign DTOs (API answers) and the campaign core's messages

export const CAMPAIGN_MESSAGES = {
  notFound: 'Campaign not found',
  stepNotFound: 'Step not found',
  pauseToEdit: 'Pause the campaign to change its settings',
  pauseToEditSteps: 'Pause the campaign to edit its steps',
  notEditable: 'This campaign has ended; its settings can no longer be changed',
  stepsNotEditable: 'This campaign has ended; its steps can no longer be changed',
  onlyDraftsDeleted: 'Only drafts can be deleted; archive it instead',
  tooManySteps: `A campaign can have at most ${MAX_STEPS} steps`,
  reorderMismatch: 'Send every step of the campaign exactly once to reorder them',
  notLaunchable: 'Only a draft campaign can be launched',
  fixBeforeLaunch: 'Fix these before launching',
  emptyAudience: 'Nobody in this audience can be emailed (no contacts, or all of them are suppressed)',
  cannotPause: 'Only an active campaign can be paused',
  cannotResume: 'Only a paused campaign can be resumed',
  cannotStop: 'This campaign has already ended',
  accountSuspended: 'The account is suspended; its campaigns cannot send',
  pausedBySuspension:
    'Paused because the account was suspended. It stays paused after the account is restored: resume it when you are ready.',
  archiveActive: 'Pause or stop the campaign before archiving it',
  listNotFound: 'One of the chosen lists was not found',
  senderNotFound: 'One of the chosen sender accounts was not found',
} as const;

export const campaignVariantSchema = z.object({
  id: z.string(),
  key: z.enum(VARIANT_KEYS),
  subject: z.string(),
  bodyHtml: z.string(),
  splitPercent: z.number(),
});
export type CampaignVariant = z.infer<typeof campaignVariantSchema>;

export const campaignStepSchema = z.object({
  id: z.string(),
  position: z.number(),
  delayDays: z.number(),
  delayHours: z.number(),
  businessDays: z.boolean(),
  condition: z.enum(STEP_CONDITIONS),
  winnerRule: z.object({ metric: z.enum(WINNER_METRICS), afterSends: z.number() }).nullable(),
  winnerVariantKey: z.enum(VARIANT_KEYS).nullable(),
  variants: z.array(campaignVariantSchema),
});
export type CampaignStep = z.infer<typeof campaignStepSchema>;

const campaignBaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['campaign', 'newsletter', 'bulk']),
  status: campaignStatusSchema,
  archivedAt: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  audience: z.object({
    listIds: z.array(z.string()),
    segmentIds: z.array(z.string()),
    leadFilters: campaignAudienceSchema.shape.leadFilters.unwrap(),
    skipUnverified: z.enum(AUDIENCE_VERIFICATION_SKIPS),
  }),
  senderAccountIds: z.array(z.string()),
  windowStartMinute: z.number(),
  windowEndMinute: z.number(),
  sendDays: z.array(z.number()),
  timezoneMode: z.enum(TIMEZONE_MODES),
  timeZone: z.string(),
  gapMinSeconds: z.number(),
  gapMaxSeconds: z.number(),
  dailyCap: z.number().nullable(),
  domainPacePerHour: z.number().nullable(),
  trackOpens: z.boolean(),
  trackClicks: z.boolean(),
  bodyFormat: z.enum(BODY_FORMATS),
  trackingDomain: z.string().nullable(),
  bouncePausePercent: z.number(),
  complaintPausePercent: z.number(),
  /** Why the campaign was paused for its owner (too many bounces or complaints, or the account's suspension); null otherwise. */
  pausedReason: z.string().nullable(),
  /** campaign_contacts rows: 0 before launch. */
  contactCount: z.number(),
});

export const campaignSchema = campaignBaseSchema.extend({ steps: z.array(campaignStepSchema) });
export type Campaign = z.infer<typeof campaignSchema>;

export const campaignListItemSchema = campaignBaseSchema.extend({
  stepCount: z.number(),
  sent: z.number(),
  /** Contacts who opened (people, not privacy proxies or scanners). */
  opened: z.number(),
  /** Contacts who replied. */
  replied: z.number(),
});
export type CampaignListItem = z.infer<typeof campaignListItemSchema>;

export const campaignListQuerySchema = z.object({
  status: campaignStatusSchema.optional(),
  archived: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

/** PATCH /api/campaigns/:id: any settings, none required (no defaults filled in). */
export const campaignUpdateSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter a name').max(120, 'Name must be at most 120 characters'),
    audience: campaignAudienceSchema,
    senderAccountIds: z.array(z.uuid()).max(40),
    scheduledAt: z.iso.datetime({ offset: true }).nullable(),
    windowStartMinute: z.number().int().min(0).max(1440),
    windowEndMinute: z.number().int().min(0).max(1440),
    sendDays: z.array(z.number().int().min(1).max(7)).min(1, 'Choose at least one sending day'),
    timezoneMode: z.enum(TIMEZONE_MODES),
    timeZone: timeZoneSchema,
    gapMinSeconds: z.number().int().min(0).max(3600),
    gapMaxSeconds: z.number().int().min(0).max(3600),
    dailyCap: z.number().int().min(1).max(100_000).nullable(),
    domainPacePerHour: z.number().int().min(1).max(10_000).nullable(),
    trackOpens: z.boolean(),
    trackClicks: z.boolean(),
    bodyFormat: z.enum(BODY_FORMATS),
    bouncePausePercent,
    complaintPausePercent,
    trackingDomain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^(?=.{1,253}$)([a-z0-9-]+\.)+[a-z]{2,}$/, 'Enter a domain like track.example.com')
      .nullable(),
  })
  .partial();
export type CampaignUpdateInput = z.input<typeof campaignUpdateSchema>;

export const reorderStepsSchema = z.object({
  stepIds: z.array(z.uuid('Step not found')).min(1).max(MAX_STEPS),
});
