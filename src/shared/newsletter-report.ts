import { z } from 'zod';
import { NEWSLETTER_STATUSES } from './campaigns';

/*
 * A newsletter's (or bulk email's) sending progress and its report once sent: the figures come from the
 * outbox (one message per recipient) and the event log, read through the send's engine campaign.
 */

export const newsletterProgressSchema = z.object({
  status: z.enum(NEWSLETTER_STATUSES),
  /** Still walking the lists: `recipients` grows until every recipient is queued. */
  preparing: z.boolean(),
  recipients: z.number().int(),
  /** Waiting or being handed to the mail server. */
  queued: z.number().int(),
  sent: z.number().int(),
  /** Failed, bounced at once, suppressed or cancelled: these will not go. */
  failed: z.number().int(),
  /** Its campaign is paused (bounce or complaint protection, a suspension): the queued messages are held. */
  paused: z.boolean(),
  pausedReason: z.string().nullable(),
});
export type NewsletterProgress = z.infer<typeof newsletterProgressSchema>;

export const newsletterReportSummarySchema = z.object({
  recipients: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  /** Recipients who opened, people only (privacy proxies and scanners apart, below). */
  uniqueOpens: z.number().int(),
  opens: z.number().int(),
  machineOpens: z.number().int(),
  clicks: z.number().int(),
  uniqueClickers: z.number().int(),
  machineClicks: z.number().int(),
  bounces: z.number().int(),
  unsubscribes: z.number().int(),
  complaints: z.number().int(),
});
export type NewsletterReportSummary = z.infer<typeof newsletterReportSummarySchema>;

export const newsletterReportLinkSchema = z.object({
  url: z.string(),
  clicks: z.number().int(),
  unique: z.number().int(),
});
export type NewsletterReportLink = z.infer<typeof newsletterReportLinkSchema>;

export const newsletterReportHourSchema = z.object({
  /** Hours since the send started (0–47). */
  hour: z.number().int(),
  opens: z.number().int(),
  clicks: z.number().int(),
});
export type NewsletterReportHour = z.infer<typeof newsletterReportHourSchema>;

export const newsletterReportSchema = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.string(),
  kind: z.enum(['newsletter', 'bulk']),
  status: z.enum(NEWSLETTER_STATUSES),
  sentAt: z.string().nullable(),
  summary: newsletterReportSummarySchema,
  links: z.array(newsletterReportLinkSchema),
  /** Opens and clicks by hour over the first 48 hours after the send started. */
  hours: z.array(newsletterReportHourSchema),
});
export type NewsletterReport = z.infer<typeof newsletterReportSchema>;

export const RECIPIENT_REPORT_STATUSES = [
  'queued',
  'sent',
  'opened',
  'clicked',
  'bounced',
  'failed',
  'unsubscribed',
  'complained',
] as const;
export type RecipientReportStatus = (typeof RECIPIENT_REPORT_STATUSES)[number];

export const newsletterRecipientRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  /** The furthest the message got: complained > unsubscribed > clicked > opened > sent; or bounced / failed / queued. */
  status: z.enum(RECIPIENT_REPORT_STATUSES),
  sentAt: z.string().nullable(),
  opens: z.number().int(),
  clicks: z.number().int(),
});
export type NewsletterRecipientRow = z.infer<typeof newsletterRecipientRowSchema>;

export const newsletterRecipientsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  q: z.string().trim().max(200).optional(),
  /**
   * Keyset: the page starts after this recipient (`next` of the page before), read straight from the
   * (campaign, lower(email)) index however deep; `page` then only says where it is. Without it the page
   * is found by its number (an offset).
   */
  after: z.string().max(400).optional(),
});
export type NewsletterRecipientsQuery = z.infer<typeof newsletterRecipientsQuerySchema>;

export const newsletterRecipientPageSchema = z.object({
  items: z.array(newsletterRecipientRowSchema),
  total: z.number().int(),
  /** The `after` of the next page, or null on the last one. */
  next: z.string().nullable(),
});
export type NewsletterRecipientPage = z.infer<typeof newsletterRecipientPageSchema>;

/** Share of `part` in `whole` as "12.5%", or "—" with nothing to divide by. */
export function reportPercent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '—';
}
