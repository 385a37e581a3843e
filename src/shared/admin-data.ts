import { z } from 'zod';

/*
 * The admin data screens: Contacts (find an address anywhere, erase it everywhere) and User Lists
 * (every user's lists with their health; freeze one that looks bought or scraped).
 */

// ---------------------------------------------------------------------------------------------------
// Contacts

export const CONTACT_SEARCH_MODES = ['exact', 'prefix'] as const;
export const CONTACT_PREFIX_MIN = 3;
export const CONTACT_SEARCH_MAX = 50;

export const contactSearchQuerySchema = z.object({
  q: z.string().trim().toLowerCase().min(1, 'Type an address or the start of one').max(254),
  mode: z.enum(CONTACT_SEARCH_MODES).default('prefix'),
});

export const contactMatchSchema = z.object({
  email: z.string(),
  directoryRecords: z.number().int(),
  listMemberships: z.number().int(),
});
export type ContactMatch = z.infer<typeof contactMatchSchema>;
export const contactSearchResultSchema = z.object({
  matches: z.array(contactMatchSchema),
  /** More addresses start with this prefix than were returned. */
  more: z.boolean(),
});
export type ContactSearchResult = z.infer<typeof contactSearchResultSchema>;

export const contactLookupQuerySchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(3)
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+$/, 'Enter a whole address'),
});

export const contactLocationsSchema = z.object({
  email: z.string(),
  emailHash: z.string(),
  /** An erasure tombstone holds this address: it can never be added or mailed again. */
  erased: z.boolean(),
  /** A Tambari account signs in with this address (erasing contacts does not delete accounts). */
  accountUserId: z.string().nullable(),
  directory: z.array(
    z.object({
      id: z.string(),
      companyName: z.string(),
      countryCode: z.string(),
      category: z.string(),
      source: z.string(),
      verificationStatus: z.string(),
      deleted: z.boolean(),
      createdAt: z.string(),
    }),
  ),
  lists: z.array(
    z.object({
      listId: z.string(),
      listName: z.string(),
      ownerId: z.string(),
      ownerEmail: z.string(),
      listDeleted: z.boolean(),
      addedAt: z.string(),
    }),
  ),
  suppressions: z.array(
    z.object({
      ownerEmail: z.string().nullable(),
      reason: z.string(),
      createdAt: z.string(),
    }),
  ),
  campaignRecipients: z.number().int(),
  outboxMessages: z.number().int(),
  events: z.number().int(),
  inboundMessages: z.number().int(),
});
export type ContactLocations = z.infer<typeof contactLocationsSchema>;

export const eraseContactSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(3)
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+$/, 'Enter a whole address'),
  /** The address typed again, so a slip of the mouse erases nothing. */
  confirm: z.string().trim().toLowerCase(),
});
export const eraseResultSchema = z.object({
  message: z.string(),
  emailHash: z.string(),
  directoryRecords: z.number().int(),
  listMemberships: z.number().int(),
  campaignRecipients: z.number().int(),
  outboxMessages: z.number().int(),
  eventsScrubbed: z.number().int(),
  inboundMessages: z.number().int(),
});
export type EraseResult = z.infer<typeof eraseResultSchema>;

// ---------------------------------------------------------------------------------------------------
// User Lists

/** Heuristic limits for "looks bought or scraped"; each reason names the figure that crossed. */
export const LIST_FLAG_LIMITS = {
  bounceRate: 0.05,
  complaintRate: 0.003,
  /** Sends before a rate counts. */
  minSent: 50,
  roleShare: 0.3,
  disposableShare: 0.02,
  /** Rejected rows (bad syntax, disposable, no MX) among processed rows of the list's imports. */
  importInvalidShare: 0.2,
  /** Members (or processed rows) before a share counts. */
  minMembers: 20,
} as const;
/** Members read to measure role and disposable shares (the first ones of the list). */
export const LIST_SAMPLE_SIZE = 1_000;

export const userListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  frozen: z.enum(['true', 'false']).optional(),
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const userListRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  ownerEmail: z.string(),
  size: z.number().int(),
  createdAt: z.string(),
  sent: z.number().int(),
  bounced: z.number().int(),
  complained: z.number().int(),
  bounceRate: z.number(),
  complaintRate: z.number(),
  /** Campaigns and newsletters that used the list (the rates above are theirs). */
  campaigns: z.number().int(),
  sampleSize: z.number().int(),
  roleShare: z.number(),
  disposableShare: z.number(),
  imports: z.object({
    count: z.number().int(),
    files: z.array(z.string()),
    processedRows: z.number().int(),
    invalidRows: z.number().int(),
    lastAt: z.string().nullable(),
  }),
  /** Manual, lead discovery, import: where the sampled members came from. */
  sources: z.record(z.string(), z.number().int()),
  flagReasons: z.array(z.string()),
  frozen: z.boolean(),
  frozenAt: z.string().nullable(),
  frozenReason: z.string().nullable(),
});
export type UserListRow = z.infer<typeof userListRowSchema>;

export const userListPageSchema = z.object({
  generatedAt: z.string(),
  lists: z.array(userListRowSchema),
  nextCursor: z.string().nullable(),
  totals: z.object({ lists: z.number().int(), frozen: z.number().int() }),
});
export type UserListPage = z.infer<typeof userListPageSchema>;

export const freezeListSchema = z.object({
  reason: z.string().trim().min(3, 'Give the owner a reason (at least 3 characters)').max(300),
});
