import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import type { Database } from '@server/db/client';
import { scrapeJobs, scrapePages, scrapeResults } from '@server/db/schema';
import type { Env } from '@server/env';
import type { Queue } from '@server/jobs/queue';
import { AppError } from '@server/lib/errors';
import { isAllowedAddress } from '@server/lib/network-guard';
import {
  type AcceptScrapeResultInput,
  type createScrapeJobSchema,
  SCRAPE_SKIP_REASONS,
  type ScrapeJob,
  type ScrapeJobDetail,
  type ScrapeResult,
  type ScrapeSkipReason,
  type scrapeResultQuerySchema,
} from '@shared/scraper';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { createDirectoryContact } from '../directory/directory.service';
import { seedFrontier } from './crawl';

/*
 * The scraper as the console and the review queue use it: crawl jobs (create, watch, pause, resume,
 * cancel) and the businesses they found (accept into the directory, with edits, or reject).
 */

export const RUN_SCRAPE_JOB = 'run-scrape-job';

const JOB_NOT_FOUND = 'Crawl not found';
const RESULT_NOT_FOUND = 'Found business not found';

type JobRow = typeof scrapeJobs.$inferSelect;
type ResultRow = typeof scrapeResults.$inferSelect;

function toJobDto(row: JobRow, pending: { pages: number; records: number }): ScrapeJob {
  return {
    id: row.id,
    name: row.name,
    seeds: row.seeds,
    maxDepth: row.maxDepth,
    maxPages: row.maxPages,
    delaySeconds: row.delaySeconds,
    sameSiteOnly: row.sameSiteOnly,
    defaultCountryCode: row.defaultCountryCode,
    status: row.status,
    pagesFetched: row.pagesFetched,
    pagesSkipped: row.pagesSkipped,
    pagesPending: pending.pages,
    recordsFound: row.recordsFound,
    recordsPending: pending.records,
    error: row.error,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

function toResultDto(row: ResultRow & { jobName: string }): ScrapeResult {
  return {
    id: row.id,
    jobId: row.jobId,
    jobName: row.jobName,
    sourceUrl: row.sourceUrl,
    crawledAt: row.crawledAt.toISOString(),
    companyName: row.companyName,
    email: row.email,
    phone: row.phone,
    website: row.website,
    address: row.address,
    city: row.city,
    countryCode: row.countryCode,
    category: row.category,
    status: row.status,
    duplicateOfId: row.duplicateOfId,
    directoryContactId: row.directoryContactId,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

const seedError = (index: number, message: string) =>
  new AppError('validation', message, { errors: [{ path: `seeds.${index}`, message }] });

/**
 * Refuses a seed the crawler could not fetch anyway, while the operator is still looking at the form:
 * a host that does not resolve, or one on an address the network setting does not allow.
 */
async function checkSeeds(seeds: string[], network: Env['SCRAPER_NETWORK']): Promise<void> {
  for (const [index, seed] of seeds.entries()) {
    const host = new URL(seed).hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    if (isIP(host) !== 0) addresses = [host];
    else {
      try {
        addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
      } catch {
        throw seedError(index, `We could not find the site ${host}`);
      }
    }
    if (!addresses.every((address) => isAllowedAddress(address, network))) {
      throw seedError(index, `${host} is not on a public address, so the crawler may not fetch it`);
    }
  }
}

export async function enqueueScrapeSlice(queue: Queue, jobId: string): Promise<void> {
  await queue.send(RUN_SCRAPE_JOB, { jobId }, { singletonKey: jobId, retryLimit: 3, retryDelay: 30 });
}

async function pendingCounts(db: Database, jobIds: string[]) {
  if (jobIds.length === 0) return new Map<string, { pages: number; records: number }>();
  const [pages, records] = await Promise.all([
    db
      .select({ jobId: scrapePages.jobId, n: count() })
      .from(scrapePages)
      .where(and(inArray(scrapePages.jobId, jobIds), eq(scrapePages.status, 'pending')))
      .groupBy(scrapePages.jobId),
    db
      .select({ jobId: scrapeResults.jobId, n: count() })
      .from(scrapeResults)
      .where(and(inArray(scrapeResults.jobId, jobIds), eq(scrapeResults.status, 'pending')))
      .groupBy(scrapeResults.jobId),
  ]);
  const byJob = new Map(jobIds.map((id) => [id, { pages: 0, records: 0 }]));
  for (const row of pages) byJob.get(row.jobId)!.pages = row.n;
  for (const row of records) byJob.get(row.jobId)!.records = row.n;
  return byJob;
}

export async function createScrapeJob(options: {
  db: Database;
  queue: Queue;
  network: Env['SCRAPER_NETWORK'];
  actor: AuditActor;
  input: z.output<typeof createScrapeJobSchema>;
}): Promise<ScrapeJob> {
  const { db, input } = options;
  const seeds = [...new Set(input.seeds.map((seed) => new URL(seed).toString()))];
  await checkSeeds(seeds, options.network);
  const job = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(scrapeJobs)
      .values({
        name: input.name,
        seeds,
        maxDepth: input.maxDepth,
        maxPages: input.maxPages,
        delaySeconds: input.delaySeconds,
        sameSiteOnly: input.sameSiteOnly,
        defaultCountryCode: input.defaultCountryCode,
        createdBy: options.actor.id,
      })
      .returning();
    await seedFrontier(tx as unknown as Database, row!.id, seeds);
    await recordAuditEntry({
      db: tx as unknown as Database,
      actor: options.actor,
      action: 'scraper.job_created',
      targetType: 'scrape_job',
      targetId: row!.id,
      details: { name: input.name, seeds, maxPages: input.maxPages, maxDepth: input.maxDepth },
    });
    return row!;
  });
  await enqueueScrapeSlice(options.queue, job.id);
  return toJobDto(job, { pages: seeds.length, records: 0 });
}

export async function listScrapeJobs({ db }: { db: Database }): Promise<ScrapeJob[]> {
  const rows = await db.select().from(scrapeJobs).orderBy(desc(scrapeJobs.createdAt)).limit(200);
  const pending = await pendingCounts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toJobDto(row, pending.get(row.id)!));
}

async function getJobRow(db: Database, id: string): Promise<JobRow> {
  const [row] = await db.select().from(scrapeJobs).where(eq(scrapeJobs.id, id));
  if (!row) throw new AppError('not_found', JOB_NOT_FOUND);
  return row;
}

export async function getScrapeJobDetail({ db, id }: { db: Database; id: string }): Promise<ScrapeJobDetail> {
  const row = await getJobRow(db, id);
  const [pending, skipped, recent] = await Promise.all([
    pendingCounts(db, [id]),
    db
      .select({ reason: scrapePages.reason, n: count() })
      .from(scrapePages)
      .where(and(eq(scrapePages.jobId, id), eq(scrapePages.status, 'skipped')))
      .groupBy(scrapePages.reason)
      .orderBy(desc(count())),
    db
      .select()
      .from(scrapePages)
      .where(and(eq(scrapePages.jobId, id), sql`${scrapePages.status} <> 'pending'`))
      .orderBy(desc(scrapePages.fetchedAt), desc(scrapePages.id))
      .limit(50),
  ]);
  return {
    job: toJobDto(row, pending.get(id)!),
    skipped: skipped.map((entry) => ({
      reason: entry.reason ?? 'unknown',
      label: SCRAPE_SKIP_REASONS[entry.reason as ScrapeSkipReason] ?? 'Skipped',
      count: entry.n,
    })),
    recentPages: recent.map((page) => ({
      url: page.url,
      depth: page.depth,
      status: page.status,
      reason: page.reason ? (SCRAPE_SKIP_REASONS[page.reason as ScrapeSkipReason] ?? page.reason) : null,
      httpStatus: page.httpStatus,
      recordsFound: page.recordsFound,
      fetchedAt: page.fetchedAt?.toISOString() ?? null,
    })),
  };
}

const TRANSITIONS = {
  pause: {
    from: ['queued', 'running'],
    to: 'paused',
    message: 'Only a queued or running crawl can be paused',
  },
  resume: { from: ['paused'], to: 'queued', message: 'Only a paused crawl can be resumed' },
  cancel: {
    from: ['queued', 'running', 'paused'],
    to: 'cancelled',
    message: 'This crawl has already finished',
  },
} as const;

export async function changeScrapeJobState(options: {
  db: Database;
  queue: Queue;
  actor: AuditActor;
  id: string;
  action: keyof typeof TRANSITIONS;
}): Promise<ScrapeJob> {
  const { db, id, action } = options;
  const transition = TRANSITIONS[action];
  const current = await getJobRow(db, id);
  const [row] = await db
    .update(scrapeJobs)
    .set({
      status: transition.to,
      ...(action === 'cancel' ? { finishedAt: sql`now()` } : {}),
    })
    .where(and(eq(scrapeJobs.id, id), inArray(scrapeJobs.status, [...transition.from])))
    .returning();
  if (!row) throw new AppError('conflict', transition.message);
  await recordAuditEntry({
    db,
    actor: options.actor,
    action: `scraper.job_${action === 'cancel' ? 'cancelled' : `${action}d`}`,
    targetType: 'scrape_job',
    targetId: id,
    details: { name: current.name, from: current.status },
  });
  if (action === 'resume') await enqueueScrapeSlice(options.queue, id);
  const pending = await pendingCounts(db, [id]);
  return toJobDto(row, pending.get(id)!);
}

export async function listScrapeResults(options: {
  db: Database;
  query: z.output<typeof scrapeResultQuerySchema>;
}) {
  const { db, query } = options;
  const where = and(
    eq(scrapeResults.status, query.status),
    ...(query.jobId ? [eq(scrapeResults.jobId, query.jobId)] : []),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ result: scrapeResults, jobName: scrapeJobs.name })
      .from(scrapeResults)
      .innerJoin(scrapeJobs, eq(scrapeJobs.id, scrapeResults.jobId))
      .where(where)
      // The review queue is oldest first, like the verification queue; decided items newest first.
      .orderBy(
        query.status === 'pending' ? scrapeResults.crawledAt : desc(scrapeResults.reviewedAt),
        scrapeResults.id,
      )
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(scrapeResults).where(where),
  ]);
  return {
    results: rows.map((row) => toResultDto({ ...row.result, jobName: row.jobName })),
    total: total?.n ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

async function getPendingResult(db: Database, id: string): Promise<ResultRow> {
  const [row] = await db.select().from(scrapeResults).where(eq(scrapeResults.id, id));
  if (!row) throw new AppError('not_found', RESULT_NOT_FOUND);
  if (row.status !== 'pending') throw new AppError('conflict', 'This business has already been reviewed');
  return row;
}

async function resultDto(db: Database, id: string): Promise<ScrapeResult> {
  const [row] = await db
    .select({ result: scrapeResults, jobName: scrapeJobs.name })
    .from(scrapeResults)
    .innerJoin(scrapeJobs, eq(scrapeJobs.id, scrapeResults.jobId))
    .where(eq(scrapeResults.id, id));
  return toResultDto({ ...row!.result, jobName: row!.jobName });
}

/**
 * Adds a found business to the directory with the officer's corrections. It goes in unverified, keeping
 * the page it came from and the crawl date, so it then waits in the verification queue like any new
 * record. An address that reached the directory meanwhile marks the item a duplicate (409).
 */
export async function acceptScrapeResult(options: {
  db: Database;
  reviewerId: string;
  id: string;
  edits: AcceptScrapeResultInput;
}): Promise<ScrapeResult> {
  const { db, edits } = options;
  const row = await getPendingResult(db, options.id);
  const countryCode = edits.countryCode ?? row.countryCode;
  const category = edits.category ?? row.category;
  if (!countryCode) {
    throw new AppError('validation', 'Choose a country', {
      errors: [{ path: 'countryCode', message: 'Choose a country' }],
    });
  }
  if (!category) {
    throw new AppError('validation', 'Choose a category', {
      errors: [{ path: 'category', message: 'Choose a category' }],
    });
  }
  let contactId: string;
  try {
    const contact = await createDirectoryContact({
      db,
      actorId: options.reviewerId,
      source: 'scraper',
      provenance: { sourceUrl: row.sourceUrl, crawledAt: row.crawledAt },
      fields: {
        companyName: edits.companyName ?? row.companyName,
        contactName: edits.contactName ?? null,
        jobTitle: edits.jobTitle ?? null,
        email: edits.email ?? row.email,
        phone: edits.phone !== undefined ? edits.phone : row.phone,
        website: edits.website !== undefined ? edits.website : row.website,
        address: edits.address !== undefined ? edits.address : row.address,
        city: edits.city !== undefined ? edits.city : row.city,
        countryCode,
        category,
      },
    });
    contactId = contact.id;
  } catch (error) {
    if (error instanceof AppError && error.code === 'conflict') {
      const existing = (error.extra as { existing?: { id: string } }).existing;
      await db
        .update(scrapeResults)
        .set({
          status: 'duplicate',
          duplicateOfId: existing?.id ?? null,
          reviewedBy: options.reviewerId,
          reviewedAt: sql`now()`,
        })
        .where(eq(scrapeResults.id, row.id));
    }
    throw error;
  }
  await db
    .update(scrapeResults)
    .set({
      status: 'accepted',
      directoryContactId: contactId,
      reviewedBy: options.reviewerId,
      reviewedAt: sql`now()`,
    })
    .where(eq(scrapeResults.id, row.id));
  return resultDto(db, row.id);
}

export async function rejectScrapeResult(options: { db: Database; reviewerId: string; id: string }) {
  const row = await getPendingResult(options.db, options.id);
  await options.db
    .update(scrapeResults)
    .set({ status: 'rejected', reviewedBy: options.reviewerId, reviewedAt: sql`now()` })
    .where(eq(scrapeResults.id, row.id));
  return resultDto(options.db, row.id);
}
