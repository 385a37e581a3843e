import { z } from 'zod';
import { NEWSLETTER_STATUSES } from './campaigns';
import { emailBodyHtml } from './email-body';

/*
 * Newsletters (a block document rendered to email-safe HTML) and bulk emails (one rich-text message):
 * the block vocabulary, the DTO and the request schemas. The renderer is newsletter-render.ts.
 */

export const NEWSLETTER_KINDS = ['newsletter', 'bulk'] as const;
export type NewsletterKind = (typeof NEWSLETTER_KINDS)[number];

export const NEWSLETTER_KIND_LABELS: Record<NewsletterKind, string> = {
  newsletter: 'Newsletter',
  bulk: 'Bulk email',
};

export const NEWSLETTER_STATUS_LABELS: Record<(typeof NEWSLETTER_STATUSES)[number], string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
};

export const MAX_NEWSLETTER_BLOCKS = 100;
export const MAX_COLUMN_BLOCKS = 10;
/** Uploaded images: these types, up to 5 MB. */
export const NEWSLETTER_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const NEWSLETTER_MESSAGES = {
  notFound: 'Newsletter not found',
  testContactNotFound: 'No contact with this email address is in the lists chosen for this newsletter.',
  notEditable: 'This has already been sent and can no longer be changed. Duplicate it to send a new version.',
  alreadySent: 'This has already been sent.',
  notScheduled: 'Only a scheduled send can be unscheduled.',
  notPaused: 'Only a paused send can be resumed.',
  notStoppable: 'Only a send in progress can be stopped.',
  needsSubject: 'Add a subject before sending.',
  needsBody: 'Add some content before sending.',
  needsLists: 'Choose at least one list to send to.',
  needsSenders: 'Choose at least one sender account.',
  noActiveSender: 'None of the chosen sender accounts is active. Resume one or choose another.',
  emptyAudience:
    'The chosen lists have no contacts that can be mailed (after removing unsubscribed and bounced addresses).',
  scheduleInPast: 'Choose a time in the future.',
  scheduleTooFar: 'You can schedule up to one year ahead.',
  imageMissing: 'Choose an image to upload.',
  imageType: 'Upload a PNG, JPEG, GIF or WebP image.',
  imageTooLarge: 'The image is larger than 5 MB. Make it smaller and try again.',
} as const;

export const NEWSLETTER_PALETTE = [
  '#111827',
  '#374151',
  '#6b7280',
  '#ffffff',
  '#f3f4f6',
  '#0f766e',
  '#15803d',
  '#1d4ed8',
  '#7c3aed',
  '#b91c1c',
  '#c2410c',
  '#ca8a04',
] as const;

export const SOCIAL_NETWORKS = [
  'website',
  'facebook',
  'x',
  'instagram',
  'linkedin',
  'youtube',
  'tiktok',
  'whatsapp',
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export const SOCIAL_NETWORK_LABELS: Record<SocialNetwork, string> = {
  website: 'Website',
  facebook: 'Facebook',
  x: 'X',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  whatsapp: 'WhatsApp',
};

const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Choose a colour like #1d4ed8');
const align = z.enum(['left', 'center', 'right']);
const blockId = z.string().min(1).max(40);
/**
 * A link a reader can follow: web, mail or phone, or a merge tag that becomes one. An edit-me marker
 * (`[[edit: link to your page]]`, shared/placeholders.ts) is accepted in a draft: the pre-send check
 * refuses to send it.
 */
export function isSafeLink(value: string): boolean {
  const v = value.trim();
  return (
    /^(https?:\/\/[^\s"'<>]+|mailto:[^\s"'<>]+|tel:[+0-9 ()-]+)$/i.test(v) ||
    /^\{\{[^{}]+\}\}$/.test(v) ||
    /^\[\[\s*edit\s*:[^\]"'<>]*\]\]$/i.test(v)
  );
}
/** A link field still as a new block starts it: nothing, or just the scheme. */
export function isUnfilledLink(value: unknown): boolean {
  return typeof value !== 'string' || /^\s*(https?:\/\/)?\s*$/i.test(value);
}
const link = z
  .string()
  .trim()
  .max(2000, 'The link is too long')
  .refine((v) => v === '' || isSafeLink(v), 'Enter a link starting with https://, mailto: or tel:');
const requiredLink = link.refine((v) => v !== '', 'Enter a link');
const imageUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => v === '' || /^https?:\/\/[^\s"'<>]+$/i.test(v), 'Images need a web address (https://…)');

export const headingBlockSchema = z.object({
  id: blockId,
  type: z.literal('heading'),
  text: z.string().max(500),
  level: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
  align: align.default('left'),
  color: color.default('#111827'),
});
export const textBlockSchema = z.object({
  id: blockId,
  type: z.literal('text'),
  /** Paragraphs separated by a blank line; **bold**, *italic* and [label](https://…) links. */
  text: z.string().max(20_000),
  align: align.default('left'),
  color: color.default('#374151'),
});
export const imageBlockSchema = z.object({
  id: blockId,
  type: z.literal('image'),
  src: imageUrl,
  alt: z.string().max(300).default(''),
  width: z.number().int().min(20).max(600).default(600),
  href: link.default(''),
  align: align.default('center'),
});
export const buttonBlockSchema = z.object({
  id: blockId,
  type: z.literal('button'),
  label: z.string().trim().min(1, 'Enter the button text').max(80),
  href: requiredLink,
  background: color.default('#1d4ed8'),
  color: color.default('#ffffff'),
  align: align.default('center'),
});
export const dividerBlockSchema = z.object({
  id: blockId,
  type: z.literal('divider'),
  color: color.default('#e5e7eb'),
});
export const socialBlockSchema = z.object({
  id: blockId,
  type: z.literal('social'),
  // A link added but not filled in yet (empty, or the "https://" a new one starts with) is left out,
  // not refused: saving a draft must not fail on a field the user has not reached.
  links: z.preprocess(
    (links) => (Array.isArray(links) ? links.filter((l) => !isUnfilledLink(l?.url)) : links),
    z.array(z.object({ network: z.enum(SOCIAL_NETWORKS), url: requiredLink })).max(SOCIAL_NETWORKS.length),
  ),
  align: align.default('center'),
});
export const footerBlockSchema = z.object({
  id: blockId,
  type: z.literal('footer'),
  /** Company name, address, why the reader gets this. The unsubscribe link is added to every send. */
  text: z.string().max(2000),
  align: align.default('center'),
});

/** What a column may hold. */
export const columnBlockSchema = z.discriminatedUnion('type', [
  headingBlockSchema,
  textBlockSchema,
  imageBlockSchema,
  buttonBlockSchema,
]);
export const columnsBlockSchema = z.object({
  id: blockId,
  type: z.literal('columns'),
  columns: z.tuple([
    z.array(columnBlockSchema).max(MAX_COLUMN_BLOCKS),
    z.array(columnBlockSchema).max(MAX_COLUMN_BLOCKS),
  ]),
});

export const newsletterBlockSchema = z.discriminatedUnion('type', [
  headingBlockSchema,
  textBlockSchema,
  imageBlockSchema,
  buttonBlockSchema,
  dividerBlockSchema,
  columnsBlockSchema,
  socialBlockSchema,
  footerBlockSchema,
]);
export type NewsletterBlock = z.output<typeof newsletterBlockSchema>;
export type ColumnBlock = z.output<typeof columnBlockSchema>;
export type NewsletterBlockType = NewsletterBlock['type'];
export const BLOCK_TYPES = [
  'heading',
  'text',
  'image',
  'button',
  'divider',
  'columns',
  'social',
  'footer',
] as const satisfies readonly NewsletterBlockType[];
export const BLOCK_TYPE_LABELS: Record<NewsletterBlockType, string> = {
  heading: 'Heading',
  text: 'Text',
  image: 'Image',
  button: 'Button',
  divider: 'Divider',
  columns: 'Two columns',
  social: 'Social links',
  footer: 'Footer',
};

export const newsletterBlocksSchema = z
  .array(newsletterBlockSchema)
  .max(MAX_NEWSLETTER_BLOCKS, `A newsletter can have up to ${MAX_NEWSLETTER_BLOCKS} blocks`);

const name = z.string().trim().min(1, 'Enter a name').max(120, 'Name must be at most 120 characters');
const subject = z
  .string()
  .trim()
  .max(200, 'Subject must be at most 200 characters')
  .refine((v) => !/[\r\n]/.test(v), 'Subject cannot contain line breaks');
const preheader = z
  .string()
  .trim()
  .max(200, 'The preview text must be at most 200 characters')
  .refine((v) => !/[\r\n]/.test(v), 'The preview text cannot contain line breaks');
const bodyHtml = emailBodyHtml;

export const newsletterCreateSchema = z.object({
  kind: z.enum(NEWSLETTER_KINDS).default('newsletter'),
  name,
  subject: subject.default(''),
  preheader: preheader.default(''),
  /** Newsletters: the block document (default: a starter layout). */
  blocks: newsletterBlocksSchema.optional(),
  /** Bulk emails: the rich-text body. */
  html: bodyHtml.optional(),
});
export type NewsletterCreateInput = z.input<typeof newsletterCreateSchema>;
export type NewsletterCreateSchemaOutput = z.output<typeof newsletterCreateSchema>;

export const newsletterUpdateSchema = z.object({
  name: name.optional(),
  subject: subject.optional(),
  preheader: preheader.optional(),
  blocks: newsletterBlocksSchema.optional(),
  html: bodyHtml.optional(),
  listIds: z.array(z.uuid()).max(50).optional(),
  /** Segments narrowing some of the lists: at most one per list, its list among listIds. */
  segmentIds: z.array(z.uuid()).max(50).optional(),
  senderAccountIds: z.array(z.uuid()).max(40).optional(),
  /** Listed on the public archive; the one setting that may change after the send. */
  inArchive: z.boolean().optional(),
});
export type NewsletterUpdateInput = z.input<typeof newsletterUpdateSchema>;

export const newsletterSendSchema = z.object({
  listIds: z.array(z.uuid()).min(1, NEWSLETTER_MESSAGES.needsLists).max(50),
  segmentIds: z.array(z.uuid()).max(50).optional(),
  senderAccountIds: z.array(z.uuid()).min(1, NEWSLETTER_MESSAGES.needsSenders).max(40),
});
export const newsletterScheduleSchema = newsletterSendSchema.extend({
  scheduledAt: z.iso.datetime({ offset: true, message: 'Choose a date and time' }),
});
export const newsletterTestSendSchema = z.object({
  senderAccountId: z.uuid('Choose a sender account'),
  to: z.email('Enter a valid email address').max(254).optional(),
  /** The audience contact the copy is personalised as (the first of the lists when left out). */
  asContact: z.email('Enter the email address of a contact in the lists').max(254).optional(),
});
export const newsletterListQuerySchema = z.object({ kind: z.enum(NEWSLETTER_KINDS).optional() });

export const newsletterStatsSchema = z.object({
  sent: z.number(),
  opened: z.number(),
  clicked: z.number(),
  unsubscribed: z.number(),
});

export const newsletterSchema = z.object({
  id: z.string(),
  kind: z.enum(NEWSLETTER_KINDS),
  name: z.string(),
  subject: z.string(),
  preheader: z.string(),
  blocks: z.array(z.unknown()).nullable(),
  html: z.string(),
  text: z.string(),
  status: z.enum(NEWSLETTER_STATUSES),
  listIds: z.array(z.string()),
  segmentIds: z.array(z.string()),
  senderAccountIds: z.array(z.string()),
  scheduledAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  webUrl: z.string(),
  inArchive: z.boolean(),
  recipientCount: z.number(),
  stats: newsletterStatsSchema.optional(),
  /**
   * A send ('sending') whose campaign is paused: by the bounce or complaint protection, or by a suspension
   * of the account. Its queued messages wait until it is resumed (POST /api/newsletters/:id/resume).
   */
  paused: z.boolean(),
  /** Why it was paused, as its campaign records it; null when it is not paused. */
  pausedReason: z.string().nullable(),
});
export type Newsletter = z.infer<typeof newsletterSchema>;
export type NewsletterStats = z.infer<typeof newsletterStatsSchema>;

/** The user's public archive of sent newsletters. */
export const newsletterArchiveSchema = z.object({
  enabled: z.boolean(),
  /** The public address while the archive is on; null while it is off. */
  url: z.string().nullable(),
});
export type NewsletterArchive = z.infer<typeof newsletterArchiveSchema>;
export const newsletterArchiveUpdateSchema = z.object({ enabled: z.boolean() });

/** The archive page lists this many newsletters at a time, newest first, with Newer/Older links. */
export const ARCHIVE_PAGE_LIMIT = 100;

export const newsletterImageSchema = z.object({ url: z.string() });

/** A first document for a new newsletter, so the editor never opens on an empty page. */
export function starterBlocks(makeId: () => string): NewsletterBlock[] {
  return [
    {
      id: makeId(),
      type: 'heading',
      text: 'This month at {{ senderName | default: "our company" }}',
      level: 1,
      align: 'left',
      color: '#111827',
    },
    {
      id: makeId(),
      type: 'text',
      text: 'Hello {{ firstName | default: "there" }},\n\nHere is what we have been working on, and what is coming next.',
      align: 'left',
      color: '#374151',
    },
    {
      id: makeId(),
      type: 'button',
      // A link that works as it is: replies reach the sending account.
      label: 'Write to us',
      href: 'mailto:{{senderEmail}}',
      background: '#1d4ed8',
      color: '#ffffff',
      align: 'left',
    },
    { id: makeId(), type: 'divider', color: '#e5e7eb' },
    {
      id: makeId(),
      type: 'footer',
      text: 'You receive this email because you are a customer or subscribed to our updates.',
      align: 'center',
    },
  ];
}
