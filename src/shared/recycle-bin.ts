import { z } from 'zod';

/*
 * The admin Recycle Bin: everything soft-deleted across the platform, restorable for 30 days and then
 * purged by the scheduled jobs. Only entities that are soft-deleted today appear here.
 */

export const RECYCLE_BIN_TYPES = ['list', 'campaign', 'newsletter', 'template', 'directory_contact'] as const;
export type RecycleBinType = (typeof RECYCLE_BIN_TYPES)[number];

export const RECYCLE_BIN_TYPE_LABELS: Record<RecycleBinType, string> = {
  list: 'Contact lists',
  campaign: 'Campaigns',
  newsletter: 'Newsletters',
  template: 'Templates',
  directory_contact: 'Directory records',
};

/** Days an item stays restorable before the purge jobs delete it. */
export const RECYCLE_BIN_DAYS = 30;

export const recycleBinQuerySchema = z.object({
  type: z.enum(RECYCLE_BIN_TYPES).default('list'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type RecycleBinQuery = z.infer<typeof recycleBinQuerySchema>;

export const recycleBinItemSchema = z.object({
  type: z.enum(RECYCLE_BIN_TYPES),
  id: z.string(),
  name: z.string(),
  /** The owner's email for a user's item; null for the shared directory. */
  ownerEmail: z.string().nullable(),
  /** Contacts in a list; null for every other type. */
  size: z.number().nullable(),
  detail: z.string().nullable(),
  deletedAt: z.string(),
  purgeAt: z.string(),
});
export type RecycleBinItem = z.infer<typeof recycleBinItemSchema>;

export const recycleBinListSchema = z.object({
  items: z.array(recycleBinItemSchema),
  nextCursor: z.string().nullable(),
  counts: z.object({
    list: z.number(),
    campaign: z.number(),
    newsletter: z.number(),
    template: z.number(),
    directory_contact: z.number(),
  }),
  retentionDays: z.number(),
});
export type RecycleBinList = z.infer<typeof recycleBinListSchema>;

export const recycleBinItemParamsSchema = z.object({
  type: z.enum(RECYCLE_BIN_TYPES),
  id: z.uuid(),
});
