import { z } from 'zod';

/** The operator's runbooks (docs/runbooks/*.md), rendered by the server for /admin/documentation. */
export const RUNBOOK_SLUGS = [
  'deploy',
  'scale-out',
  'rotate-keys',
  'restore-backup',
  'complaint-spike',
  'refund',
  'connect-ai',
] as const;
export type RunbookSlug = (typeof RUNBOOK_SLUGS)[number];

export const runbookSummarySchema = z.object({
  slug: z.enum(RUNBOOK_SLUGS),
  title: z.string(),
  /** The first paragraph, as plain text. */
  summary: z.string(),
});
export type RunbookSummary = z.infer<typeof runbookSummarySchema>;

export const tocEntrySchema = z.object({ id: z.string(), text: z.string(), depth: z.number().int() });
export type TocEntry = z.infer<typeof tocEntrySchema>;

export const runbookSchema = runbookSummarySchema.extend({
  /** Sanitised HTML of the whole document (headings carry the ids the table of contents links to). */
  html: z.string(),
  toc: z.array(tocEntrySchema),
});
export type Runbook = z.infer<typeof runbookSchema>;

export const runbookParamsSchema = z.object({
  slug: z.enum(RUNBOOK_SLUGS, { error: 'No such runbook' }),
});
