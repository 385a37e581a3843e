import { z } from 'zod';
import { INBOUND_KINDS, type InboundKind } from './inbound';

/*
 * The unified inbox: every inbound message that answers something the user sent (campaign steps,
 * newsletters, bulk email), across their sender accounts, with its category, read state, snooze and
 * note, and the conversation it belongs to (what was sent, what came back, what the user replied from
 * the app).
 */

export const INBOX_CATEGORIES = [
  'interested',
  'meeting_request',
  'question',
  'not_now',
  'not_interested',
  'out_of_office',
  'unsubscribe_request',
  'auto_reply',
  'bounce',
] as const;
export type InboxCategory = (typeof INBOX_CATEGORIES)[number];

export const INBOX_CATEGORY_LABELS: Record<InboxCategory, string> = {
  interested: 'Interested',
  meeting_request: 'Meeting request',
  question: 'Question',
  not_now: 'Not now',
  not_interested: 'Not interested',
  out_of_office: 'Out of office',
  unsubscribe_request: 'Unsubscribe request',
  auto_reply: 'Auto-reply',
  bounce: 'Bounce',
};

/** Categories a person writes: only these (or a person's reply not yet categorised) can be "won". */
export const PERSON_CATEGORIES: readonly InboxCategory[] = [
  'interested',
  'meeting_request',
  'question',
  'not_now',
  'not_interested',
];

/** Whether "Mark as won" makes sense for this message: a person's answer, not a machine's. */
export function canMarkWon(message: { category: InboxCategory | null; kind: InboundKind }): boolean {
  if (message.category === null) return message.kind === 'reply';
  return PERSON_CATEGORIES.includes(message.category);
}

export const INBOX_STATUSES = ['all', 'unread', 'read', 'snoozed'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

export const INBOX_PAGE_MAX = 100;

export const inboxQuerySchema = z.object({
  status: z.enum(INBOX_STATUSES).default('all'),
  category: z.enum([...INBOX_CATEGORIES, 'none']).optional(),
  accountId: z.uuid().optional(),
  campaignId: z.uuid().optional(),
  /** Received on or after this day / before the end of this day (YYYY-MM-DD, UTC). */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(INBOX_PAGE_MAX).default(30),
});
export type InboxQuery = z.infer<typeof inboxQuerySchema>;

export const inboxItemSchema = z.object({
  id: z.string(),
  kind: z.enum(INBOUND_KINDS),
  category: z.enum(INBOX_CATEGORIES).nullable(),
  /** 'rule' when set automatically, 'user' when the user chose it. */
  categorySource: z.enum(['rule', 'user']).nullable(),
  fromAddress: z.string().nullable(),
  contactName: z.string().nullable(),
  subject: z.string().nullable(),
  /** The start of the message's own text. */
  snippet: z.string(),
  receivedAt: z.string(),
  readAt: z.string().nullable(),
  snoozedUntil: z.string().nullable(),
  note: z.string().nullable(),
  /** Out of office: the first day back, when the message gave one (YYYY-MM-DD). */
  returnDate: z.string().nullable(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  campaignKind: z.string().nullable(),
  campaignContactId: z.string().nullable(),
  senderAccountId: z.string().nullable(),
  senderAccountLabel: z.string().nullable(),
  wonAt: z.string().nullable(),
  dealValue: z.string().nullable(),
  dealCurrency: z.string().nullable(),
  canMarkWon: z.boolean(),
});
export type InboxItem = z.infer<typeof inboxItemSchema>;

export const inboxPageSchema = z.object({
  items: z.array(inboxItemSchema),
  nextCursor: z.string().nullable(),
});
export type InboxPage = z.infer<typeof inboxPageSchema>;

export const inboxCountsSchema = z.object({
  /** Unread messages not snoozed: the badge in the user menu. */
  unread: z.number().int(),
  snoozed: z.number().int(),
  byCategory: z.record(z.string(), z.number().int()),
});
export type InboxCounts = z.infer<typeof inboxCountsSchema>;

export const inboxFiltersSchema = z.object({
  accounts: z.array(z.object({ id: z.string(), label: z.string() })),
  campaigns: z.array(z.object({ id: z.string(), name: z.string(), kind: z.string() })),
});
export type InboxFilters = z.infer<typeof inboxFiltersSchema>;

export const THREAD_ENTRY_TYPES = ['sent', 'received', 'replied'] as const;

/** One message of a conversation: a campaign message sent, an answer received, a reply from the app. */
export const threadEntrySchema = z.object({
  id: z.string(),
  type: z.enum(THREAD_ENTRY_TYPES),
  at: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  subject: z.string().nullable(),
  text: z.string(),
  category: z.enum(INBOX_CATEGORIES).nullable(),
});
export type ThreadEntry = z.infer<typeof threadEntrySchema>;

export const inboxThreadSchema = z.object({
  message: inboxItemSchema,
  /** Oldest first. */
  entries: z.array(threadEntrySchema),
  /** The account a reply goes from, or null when none can (deleted). */
  replyFrom: z.object({ id: z.string(), label: z.string(), email: z.string() }).nullable(),
  signature: z.string().nullable(),
});
export type InboxThread = z.infer<typeof inboxThreadSchema>;

export const NOTE_MAX = 2000;

export const inboxUpdateSchema = z
  .object({
    read: z.boolean().optional(),
    category: z.enum(INBOX_CATEGORIES, { error: 'Choose one of the categories' }).optional(),
    snoozedUntil: z.iso
      .datetime({ offset: true, error: 'Choose when the snooze ends' })
      .nullable()
      .optional(),
    note: z
      .string()
      .trim()
      .max(NOTE_MAX, `A note can be at most ${NOTE_MAX} characters`)
      .nullable()
      .optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to change' });
export type InboxUpdate = z.infer<typeof inboxUpdateSchema>;

export const REPLY_TEXT_MAX = 20_000;

export const inboxReplyInputSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Write your reply first')
    .max(REPLY_TEXT_MAX, `A reply can be at most ${REPLY_TEXT_MAX.toLocaleString('en')} characters`),
});
export type InboxReplyInput = z.infer<typeof inboxReplyInputSchema>;

export const inboxIdParamsSchema = z.object({ id: z.uuid() });
