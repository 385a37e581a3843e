import { z } from 'zod';

/** Most lists one download may name (a user has far fewer; the cap bounds the query). */
export const DOWNLOAD_MAX_LISTS = 100;

export const DATABASE_DOWNLOAD_MESSAGES = {
  nothing: 'None of the chosen lists holds contacts from the Tambari database yet.',
  noAllowanceLeft: 'You have used this month’s download allowance. It renews on the first of the month.',
  notIncluded: 'Your plan does not include database downloads. Upgrade to download contacts.',
} as const;

/** One of the user's lists, with how many of its contacts came from the directory. */
export const downloadableListSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  directoryContacts: z.number().int(),
});
export type DownloadableList = z.infer<typeof downloadableListSchema>;

export const pastDownloadSchema = z.object({
  id: z.uuid(),
  createdAt: z.string(),
  rowCount: z.number().int(),
  fileName: z.string(),
  /** The names of the lists chosen, as they are now (a deleted list is left out). */
  lists: z.array(z.string()),
});
export type PastDownload = z.infer<typeof pastDownloadSchema>;

/** GET /api/database-download. */
export const databaseDownloadSummarySchema = z.object({
  allowance: z.object({
    /** Rows a month; 0 = not included in the plan, -1 = unlimited. */
    limit: z.number().int(),
    usedThisMonth: z.number().int(),
    /** null when unlimited. */
    remaining: z.number().int().nullable(),
    /** When the monthly count starts again (the first of next month, UTC). */
    renewsAt: z.string(),
    planName: z.string(),
  }),
  lists: z.array(downloadableListSchema),
  history: z.array(pastDownloadSchema),
});
export type DatabaseDownloadSummary = z.infer<typeof databaseDownloadSummarySchema>;

/** POST /api/database-download: the file of the chosen lists' directory contacts (all lists when none). */
export const databaseDownloadRequestSchema = z.strictObject({
  listIds: z
    .array(z.uuid('Choose lists from your own'))
    .max(DOWNLOAD_MAX_LISTS, `Choose at most ${DOWNLOAD_MAX_LISTS} lists`)
    .default([]),
  /** Take only the first N records (when the selection is larger than the allowance left). */
  maxRows: z.number().int().min(1).max(10_000_000).optional(),
});
export type DatabaseDownloadRequest = z.input<typeof databaseDownloadRequestSchema>;

/** The file's columns, in order. */
export const DOWNLOAD_COLUMNS = [
  'company',
  'contact_name',
  'job_title',
  'email',
  'phone',
  'website',
  'address',
  'city',
  'country',
  'category',
  'source',
  'source_url',
  'added_to_database',
  'verification_status',
  'verified_at',
  'sample_data',
] as const;
