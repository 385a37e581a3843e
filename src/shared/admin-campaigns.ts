import { z } from 'zod';
import { campaignStatsSchema } from './campaign-stats';
import { campaignSchema, NEWSLETTER_STATUSES } from './campaigns';
import { newsletterSchema } from './newsletters';
import { CAMPAIGN_STATUSES } from './sending';

/*
 * The admin twins of campaigns and newsletters (issue #5 item 9): every user's campaigns and newsletters
 * for super admins, with their owner, and the audited pause / stop / cancel actions.
 */

export const ADMIN_LIST_PAGE_MAX = 100;

export const ownerSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});
export type Owner = z.infer<typeof ownerSchema>;

const listQueryBase = {
  q: z.string().trim().max(200).optional(),
  userId: z.string().trim().min(1).max(100).optional(),
  cursor: z.string().max(1024).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_LIST_PAGE_MAX).default(25),
};

export const adminCampaignListQuerySchema = z.object({
  ...listQueryBase,
  status: z.enum(CAMPAIGN_STATUSES).optional(),
});
export type AdminCampaignListQuery = z.infer<typeof adminCampaignListQuerySchema>;

export const adminCampaignListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  archivedAt: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  owner: ownerSchema,
  contactCount: z.number().int(),
  stepCount: z.number().int(),
  sent: z.number().int(),
  /** Messages opened by people (privacy proxies and scanners left out). */
  opened: z.number().int(),
  clicked: z.number().int(),
  replied: z.number().int(),
});
export type AdminCampaignListItem = z.infer<typeof adminCampaignListItemSchema>;

export const adminCampaignListSchema = z.object({
  items: z.array(adminCampaignListItemSchema),
  nextCursor: z.string().nullable(),
});

export const adminCampaignDetailSchema = campaignSchema.extend({
  owner: ownerSchema,
  stats: campaignStatsSchema,
});
export type AdminCampaignDetail = z.infer<typeof adminCampaignDetailSchema>;

export const adminNewsletterListQuerySchema = z.object({
  ...listQueryBase,
  status: z.enum(NEWSLETTER_STATUSES).optional(),
  kind: z.enum(['newsletter', 'bulk']).optional(),
});
export type AdminNewsletterListQuery = z.infer<typeof adminNewsletterListQuerySchema>;

export const adminNewsletterListItemSchema = z.object({
  id: z.string(),
  kind: z.enum(['newsletter', 'bulk']),
  name: z.string(),
  subject: z.string(),
  status: z.enum(NEWSLETTER_STATUSES),
  scheduledAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
  recipientCount: z.number().int(),
  /** A send in progress paused for its owner (bounce or complaint protection, a suspension). */
  paused: z.boolean(),
  owner: ownerSchema,
});
export type AdminNewsletterListItem = z.infer<typeof adminNewsletterListItemSchema>;

export const adminNewsletterListSchema = z.object({
  items: z.array(adminNewsletterListItemSchema),
  nextCursor: z.string().nullable(),
});

export const adminNewsletterDetailSchema = newsletterSchema.extend({ owner: ownerSchema });
export type AdminNewsletterDetail = z.infer<typeof adminNewsletterDetailSchema>;

export const ADMIN_CAMPAIGN_MESSAGES = {
  onlyScheduledCancelled: 'Only a scheduled newsletter can be cancelled',
} as const;
