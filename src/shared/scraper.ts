import { z } from 'zod';

/*
 * The scraper: crawl jobs an operator starts from seed URLs or sitemaps, and the review queue of the
 * businesses they find, which data entry officers accept (into the directory, unverified, so they are
 * then verified like any other record), edit or reject.
 */

export const SCRAPE_JOB_STATUSES = [
  'queued',
  'running',
  'paused',
  'cancelled',
  'completed',
  'failed',
] as const;
export type ScrapeJobStatus = (typeof SCRAPE_JOB_STATUSES)[number];

export const SCRAPE_RESULT_STATUSES = ['pending', 'accepted', 'rejected', 'duplicate'] as const;
export type ScrapeResultStatus = (typeof SCRAPE_RESULT_STATUSES)[number];

/** Why a page was not fetched or gave nothing: shown grouped on the job. */
export const SCRAPE_SKIP_REASONS = {
  robots: 'Disallowed by robots.txt',
  offHost: 'Outside the seed sites',
  depth: 'Deeper than the depth limit',
  pageCap: 'Past the page limit',
  contentType: 'Not an HTML page or sitemap',
  tooLarge: 'Larger than the size limit',
  notAllowed: 'Address not allowed (not a public address)',
  httpError: 'The server answered with an error',
  network: 'Could not be reached',
  scheme: 'Not an http(s) address',
} as const;
export type ScrapeSkipReason = keyof typeof SCRAPE_SKIP_REASONS;

export const SCRAPE_LIMITS = {
  maxSeeds: 50,
  maxDepth: 5,
  maxPages: 5000,
  minDelaySeconds: 1,
  maxDelaySeconds: 60,
  /** Pages larger than this are cut off and skipped: business pages are far smaller. */
  maxPageBytes: 2 * 1024 * 1024,
} as const;

const httpUrl = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'Enter full web addresses starting with http:// or https://');

export const createScrapeJobSchema = z.object({
  name: z.string().trim().min(1, 'Give the crawl a name').max(120),
  seeds: z
    .array(httpUrl)
    .min(1, 'Add at least one seed address')
    .max(SCRAPE_LIMITS.maxSeeds, `At most ${SCRAPE_LIMITS.maxSeeds} seed addresses per crawl`),
  maxDepth: z.number().int().min(0).max(SCRAPE_LIMITS.maxDepth).default(2),
  maxPages: z.number().int().min(1).max(SCRAPE_LIMITS.maxPages).default(200),
  delaySeconds: z
    .number()
    .int()
    .min(SCRAPE_LIMITS.minDelaySeconds)
    .max(SCRAPE_LIMITS.maxDelaySeconds)
    .default(2),
  /** Stay on the seeds' own sites (and their subdomains); otherwise follow links one site further. */
  sameSiteOnly: z.boolean().default(true),
  /** Used to read local phone numbers and as the country when a page does not say. */
  defaultCountryCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'Choose a country')
    .transform((v) => v.toUpperCase())
    .nullable()
    .default(null),
});
export type CreateScrapeJobInput = z.input<typeof createScrapeJobSchema>;

export const scrapeJobSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  seeds: z.array(z.string()),
  maxDepth: z.number().int(),
  maxPages: z.number().int(),
  delaySeconds: z.number().int(),
  sameSiteOnly: z.boolean(),
  defaultCountryCode: z.string().nullable(),
  status: z.enum(SCRAPE_JOB_STATUSES),
  pagesFetched: z.number().int(),
  pagesSkipped: z.number().int(),
  pagesPending: z.number().int(),
  recordsFound: z.number().int(),
  recordsPending: z.number().int(),
  error: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type ScrapeJob = z.infer<typeof scrapeJobSchema>;

export const scrapeJobListSchema = z.object({ jobs: z.array(scrapeJobSchema) });

export const scrapeJobDetailSchema = z.object({
  job: scrapeJobSchema,
  skipped: z.array(z.object({ reason: z.string(), label: z.string(), count: z.number().int() })),
  recentPages: z.array(
    z.object({
      url: z.string(),
      depth: z.number().int(),
      status: z.enum(['pending', 'fetched', 'skipped']),
      reason: z.string().nullable(),
      httpStatus: z.number().int().nullable(),
      recordsFound: z.number().int(),
      fetchedAt: z.string().nullable(),
    }),
  ),
});
export type ScrapeJobDetail = z.infer<typeof scrapeJobDetailSchema>;

export const scrapeResultSchema = z.object({
  id: z.string().uuid(),
  jobId: z.string().uuid(),
  jobName: z.string(),
  sourceUrl: z.string(),
  crawledAt: z.string(),
  companyName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string().nullable(),
  category: z.string().nullable(),
  status: z.enum(SCRAPE_RESULT_STATUSES),
  duplicateOfId: z.string().nullable(),
  directoryContactId: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type ScrapeResult = z.infer<typeof scrapeResultSchema>;

export const scrapeResultQuerySchema = z.object({
  status: z.enum(SCRAPE_RESULT_STATUSES).default('pending'),
  jobId: z.string().uuid().optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});

export const scrapeResultPageSchema = z.object({
  results: z.array(scrapeResultSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

/** What the officer may correct before accepting; the rest is kept from the page. */
export const acceptScrapeResultSchema = z.object({
  companyName: z.string().trim().min(1, 'Enter the business name').max(200).optional(),
  contactName: z.string().trim().max(200).nullable().optional(),
  jobTitle: z.string().trim().max(200).nullable().optional(),
  email: z.string().trim().min(3).max(320).optional(),
  phone: z.string().trim().max(40).nullable().optional(),
  website: z.string().trim().max(500).nullable().optional(),
  address: z.string().trim().max(500).nullable().optional(),
  city: z.string().trim().max(120).nullable().optional(),
  countryCode: z.string().trim().length(2, 'Choose a country').optional(),
  category: z.string().trim().min(1, 'Choose a category').optional(),
});
export type AcceptScrapeResultInput = z.infer<typeof acceptScrapeResultSchema>;
