import { z } from 'zod';
import { CURRENCY_CODES } from './currency';
import { INBOUND_KINDS } from './inbound';
import { INBOX_CATEGORIES } from './inbox';
import { CAMPAIGN_CONTACT_STATUSES, CAMPAIGN_STATUSES, EMAIL_EVENT_TYPES } from './sending';

/*
 * The campaign page's numbers (totals, per step and variant, contacts, timeline, replies, "won"), the
 * dashboard's stat cards and its recent campaigns and newsletters (GET /api/user/stats and
 * /api/user/{campaigns,newsletters}/recent).
 */

/**
 * Message counts. `opened` counts messages opened at least once (privacy proxies included), `openedHuman`
 * leaves out opens judged to be machines; `clicked` counts messages a person clicked (link scanners left
 * out); `replied` and `unsubscribed` count contacts.
 */
export const countsSchema = z.object({
  sent: z.number().int(),
  opened: z.number().int(),
  openedHuman: z.number().int(),
  clicked: z.number().int(),
  replied: z.number().int(),
  bounced: z.number().int(),
  unsubscribed: z.number().int(),
  failed: z.number().int(),
});
export type Counts = z.infer<typeof countsSchema>;

export const emptyCounts = (): Counts => ({
  sent: 0,
  opened: 0,
  openedHuman: 0,
  clicked: 0,
  replied: 0,
  bounced: 0,
  unsubscribed: 0,
  failed: 0,
});

const int = z.number().int();
export const contactStatusCountsSchema = z.object({
  total: int,
  active: int,
  paused: int,
  replied: int,
  bounced: int,
  unsubscribed: int,
  completed: int,
  stopped: int,
});
export type ContactStatusCounts = z.infer<typeof contactStatusCountsSchema>;

export const campaignStatsSchema = z.object({
  totals: countsSchema,
  steps: z.array(
    z.object({
      stepId: z.string(),
      position: z.number().int(),
      totals: countsSchema,
      variants: z.array(countsSchema.extend({ key: z.string() })),
    }),
  ),
  contacts: contactStatusCountsSchema,
  /** Messages waiting in the outbox (queued or being sent). */
  queued: z.number().int(),
  /** 0–100, one decimal: how much of the campaign's work is done. */
  progressPercent: z.number(),
});
export type CampaignStats = z.infer<typeof campaignStatsSchema>;

// ---------------------------------------------------------------------------------------------------
// Contacts, timeline, replies

export const CAMPAIGN_CONTACTS_PAGE_MAX = 200;

export const campaignContactsQuerySchema = z.object({
  status: z.enum(CAMPAIGN_CONTACT_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(1024).optional(),
  limit: z.coerce.number().int().min(1).max(CAMPAIGN_CONTACTS_PAGE_MAX).default(50),
});
export type CampaignContactsQuery = z.infer<typeof campaignContactsQuerySchema>;

export const campaignContactItemSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  status: z.enum(CAMPAIGN_CONTACT_STATUSES),
  currentStep: z.number().int(),
  nextStepAt: z.string().nullable(),
  /** While an out-of-office pause holds the contact (status `paused`): when their sequence resumes. */
  pausedUntil: z.string().nullable(),
  lastEventAt: z.string().nullable(),
  wonAt: z.string().nullable(),
  /** Decimal string, e.g. "250000.00" (exact; never a float). */
  dealValue: z.string().nullable(),
  dealCurrency: z.string().nullable(),
});
export type CampaignContactItem = z.infer<typeof campaignContactItemSchema>;

export const campaignContactPageSchema = z.object({
  items: z.array(campaignContactItemSchema),
  nextCursor: z.string().nullable(),
});
export type CampaignContactPage = z.infer<typeof campaignContactPageSchema>;

/** One line of a contact's history; `queued` lines are messages waiting, dated when they may go. */
export const timelineEntrySchema = z.object({
  type: z.enum(EMAIL_EVENT_TYPES),
  occurredAt: z.string(),
  stepPosition: z.number().int().nullable(),
  variantKey: z.string().nullable(),
  detail: z.string().nullable(),
  machine: z.boolean(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

/** Mail written by a person (bounces and complaints are not replies). */
export const REPLY_KINDS = ['reply', 'out_of_office', 'unsubscribe_request', 'other'] as const;

export const repliesQuerySchema = z.object({
  kind: z.enum(REPLY_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export const campaignReplySchema = z.object({
  id: z.string(),
  campaignContactId: z.string().nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  subject: z.string().nullable(),
  text: z.string().nullable(),
  receivedAt: z.string(),
  kind: z.enum(INBOUND_KINDS),
  /** The inbox's category (set by the rules, changed by the user); null: a reply no rule recognised. */
  category: z.enum(INBOX_CATEGORIES).nullable(),
  /** Only a person's answer can be marked as won, never an out-of-office or an unsubscribe request. */
  canMarkWon: z.boolean(),
  /** The contact's resume time while they are still paused (an out-of-office answer paused them). */
  pausedUntil: z.string().nullable(),
  wonAt: z.string().nullable(),
  dealValue: z.string().nullable(),
  dealCurrency: z.string().nullable(),
});
export type CampaignReply = z.infer<typeof campaignReplySchema>;

export const DEAL_VALUE_MAX = 999_999_999_999.99;

export const markWonInputSchema = z.object({
  dealValue: z
    .number({ error: 'Enter the deal value as a number' })
    .min(0, 'The deal value cannot be negative')
    .max(DEAL_VALUE_MAX, 'The deal value is too large')
    .multipleOf(0.01, 'Use at most two decimals'),
  currency: z.enum(CURRENCY_CODES, { error: `Choose a currency: ${CURRENCY_CODES.join(', ')}` }),
});
export type MarkWonInput = z.infer<typeof markWonInputSchema>;

export const campaignContactParamsSchema = z.object({ id: z.uuid(), contactId: z.uuid() });

// ---------------------------------------------------------------------------------------------------
// Dashboard: stat cards, plan limits and the recent lists

/** Where "Available Contacts" comes from: every directory contact, the free plan's chosen country and
 * category, or none chosen yet (the number is then the whole directory the user can choose from). */
export const AVAILABLE_CONTACTS_SCOPES = ['all', 'plan_scope', 'choose_scope'] as const;

export const userStatsSchema = z.object({
  availableContacts: z.number().int(),
  availableContactsScope: z.enum(AVAILABLE_CONTACTS_SCOPES),
  /** On a plan that limits them, the countries (codes) and categories the count covers. */
  availableContactsIn: z
    .object({ countryCodes: z.array(z.string()), categories: z.array(z.string()) })
    .nullable()
    .optional(),
  /** Contacts in the user's own lists. */
  listContacts: z.number().int(),
  /** Newsletters and bulk emails sent since the start of this month (UTC). */
  newslettersSent: z.number().int(),
  /** Campaigns launched since the start of this month (UTC). */
  campaignsSent: z.number().int(),
  monthStart: z.string(),
});
export type UserStats = z.infer<typeof userStatsSchema>;

export const RECENT_ITEMS_MAX = 5;

export const recentCampaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  recipientCount: z.number().int(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
  /** Percentage strings like "42.5%", of messages sent: the API's shape for rates. */
  openRate: z.string(),
  clickRate: z.string(),
});
export type RecentCampaign = z.infer<typeof recentCampaignSchema>;

export const recentNewsletterSchema = z.object({
  id: z.string(),
  kind: z.enum(['newsletter', 'bulk']),
  name: z.string(),
  subject: z.string(),
  status: z.string(),
  recipientCount: z.number().int(),
  sentAt: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  createdAt: z.string(),
});
export type RecentNewsletter = z.infer<typeof recentNewsletterSchema>;

/** "42.5%": one decimal, trailing ".0" dropped; "0%" when nothing was sent. */
export function percentString(part: number, whole: number): string {
  if (whole <= 0 || part <= 0) return '0%';
  const value = Math.round((Math.min(part, whole) / whole) * 1000) / 10;
  return `${Number.isInteger(value) ? value.toFixed(0) : value.toFixed(1)}%`;
}
