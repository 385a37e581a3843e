import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '@server/db/client';
import { scrapeJobs, scrapePages } from '@server/db/schema';
import type { ScrapeSkipReason } from '@shared/scraper';
import { and, eq, sql } from 'drizzle-orm';
import { extractPage, extractSitemap } from './extract';
import type { PageFetcher } from './fetch-page';
import { type HostRules, hostKey, hostRulesFor, releaseHostSlot, reserveHostSlot } from './robots';
import { saveFoundBusiness } from './scrape-results';

/*
 * One slice of a crawl: pages are taken from the job's frontier in the order they were found (breadth
 * first), each checked against robots.txt and the job's scope, fetched no sooner than the host allows,
 * and mined for links and a business. A slice ends after `budgetMs` so a pause or cancel takes effect
 * within seconds and no queue job runs for hours; the job handler queues the next slice.
 */

const LINKS_PER_PAGE = 300;

type JobRow = typeof scrapeJobs.$inferSelect;

export type SliceOutcome = 'more' | 'done' | 'stopped';

export interface CrawlContext {
  db: Database;
  fetcher: PageFetcher;
  /** The robots.txt user-agent token we answer to. */
  agent: string;
  budgetMs?: number;
}

/** A seed's site: its host without "www.", so www.a.ng and shop.a.ng are both a.ng's. */
const siteOf = (host: string) => host.toLowerCase().replace(/^www\./, '');

function inScope(job: JobRow, url: URL): boolean {
  if (!job.sameSiteOnly) return true;
  const host = url.hostname.toLowerCase();
  return job.seeds.some((seed) => {
    const site = siteOf(new URL(seed).hostname);
    return host === site || host.endsWith(`.${site}`);
  });
}

export const looksLikeSitemap = (url: string) => /sitemap[^/]*\.xml$/i.test(new URL(url).pathname);

async function addPages(
  db: Database,
  jobId: string,
  pages: {
    url: string;
    depth: number;
    isSitemap?: boolean;
    status?: 'pending' | 'skipped';
    reason?: ScrapeSkipReason;
  }[],
): Promise<void> {
  if (pages.length === 0) return;
  const inserted = await db
    .insert(scrapePages)
    .values(
      pages.map((page) => ({
        jobId,
        url: page.url,
        depth: page.depth,
        isSitemap: page.isSitemap ?? false,
        status: page.status ?? 'pending',
        reason: page.reason ?? null,
      })),
    )
    .onConflictDoNothing()
    .returning({ status: scrapePages.status });
  const skipped = inserted.filter((row) => row.status === 'skipped').length;
  if (skipped > 0) {
    await db
      .update(scrapeJobs)
      .set({ pagesSkipped: sql`${scrapeJobs.pagesSkipped} + ${skipped}` })
      .where(eq(scrapeJobs.id, jobId));
  }
}

/** Where a link found on a page goes: the frontier, or the skipped list with its reason. */
function placeLinks(job: JobRow, links: string[], depth: number) {
  return links.slice(0, LINKS_PER_PAGE).map((url) => {
    if (!inScope(job, new URL(url)))
      return { url, depth, status: 'skipped' as const, reason: 'offHost' as const };
    if (depth > job.maxDepth) return { url, depth, status: 'skipped' as const, reason: 'depth' as const };
    return { url, depth };
  });
}

async function finishPage(
  db: Database,
  job: JobRow,
  pageId: number,
  result: {
    status: 'fetched' | 'skipped';
    reason?: ScrapeSkipReason | null;
    httpStatus?: number;
    records?: number;
  },
) {
  await db
    .update(scrapePages)
    .set({
      status: result.status,
      reason: result.reason ?? null,
      httpStatus: result.httpStatus ?? null,
      recordsFound: result.records ?? 0,
      fetchedAt: sql`now()`,
    })
    .where(eq(scrapePages.id, pageId));
  await db
    .update(scrapeJobs)
    .set(
      result.status === 'fetched'
        ? {
            pagesFetched: sql`${scrapeJobs.pagesFetched} + 1`,
            recordsFound: sql`${scrapeJobs.recordsFound} + ${result.records ?? 0}`,
          }
        : { pagesSkipped: sql`${scrapeJobs.pagesSkipped} + 1` },
    )
    .where(eq(scrapeJobs.id, job.id));
}

async function loadRunnableJob(db: Database, jobId: string): Promise<JobRow | null> {
  const [job] = await db.select().from(scrapeJobs).where(eq(scrapeJobs.id, jobId));
  if (!job || (job.status !== 'queued' && job.status !== 'running')) return null;
  if (job.status === 'queued') {
    const [started] = await db
      .update(scrapeJobs)
      .set({ status: 'running', startedAt: sql`coalesce(${scrapeJobs.startedAt}, now())` })
      .where(and(eq(scrapeJobs.id, jobId), eq(scrapeJobs.status, 'queued')))
      .returning();
    return started ?? null;
  }
  return job;
}

async function completeJob(db: Database, jobId: string): Promise<void> {
  // What is left in the frontier once the page cap is reached is skipped, and said so.
  const capped = await db
    .update(scrapePages)
    .set({ status: 'skipped', reason: 'pageCap' })
    .where(and(eq(scrapePages.jobId, jobId), eq(scrapePages.status, 'pending')))
    .returning({ id: scrapePages.id });
  await db
    .update(scrapeJobs)
    .set({
      status: 'completed',
      finishedAt: sql`now()`,
      pagesSkipped: sql`${scrapeJobs.pagesSkipped} + ${capped.length}`,
    })
    .where(and(eq(scrapeJobs.id, jobId), eq(scrapeJobs.status, 'running')));
}

export async function crawlSlice(context: CrawlContext, jobId: string): Promise<SliceOutcome> {
  const { db } = context;
  const deadline = Date.now() + (context.budgetMs ?? 60_000);
  const robotsMemo = new Map<string, HostRules>();
  while (Date.now() < deadline) {
    // Read fresh each page: a pause or cancel from the console applies before the next fetch.
    const job = await loadRunnableJob(db, jobId);
    if (!job) return 'stopped';
    if (job.pagesFetched >= job.maxPages) {
      await completeJob(db, jobId);
      return 'done';
    }
    const [page] = await db
      .select()
      .from(scrapePages)
      .where(and(eq(scrapePages.jobId, jobId), eq(scrapePages.status, 'pending')))
      .orderBy(scrapePages.id)
      .limit(1);
    if (!page) {
      await completeJob(db, jobId);
      return 'done';
    }
    await crawlPage(context, job, page, robotsMemo);
  }
  return 'more';
}

async function crawlPage(
  context: CrawlContext,
  job: JobRow,
  page: typeof scrapePages.$inferSelect,
  robotsMemo: Map<string, HostRules>,
): Promise<void> {
  const { db, fetcher } = context;
  const url = new URL(page.url);
  const rules = await hostRulesFor({ db, fetcher, url, agent: context.agent, memo: robotsMemo });
  if (!rules.isAllowed(url.toString())) {
    await finishPage(db, job, page.id, { status: 'skipped', reason: 'robots' });
    return;
  }
  const slot = { db, host: hostKey(url), delaySeconds: Math.max(job.delaySeconds, rules.crawlDelaySeconds) };
  const waitMs = await reserveHostSlot(slot);
  if (waitMs > 0) await sleep(waitMs);
  const outcome = await fetcher.fetch(url, 'page');
  await releaseHostSlot(slot);
  if (outcome.kind === 'skipped') {
    await finishPage(db, job, page.id, {
      status: 'skipped',
      reason: outcome.reason,
      httpStatus: outcome.status,
    });
    return;
  }
  if (outcome.kind === 'redirect') {
    // The target is a page of its own, queued at the same depth with its own robots and scope checks;
    // the frontier's unique URLs end a redirect loop.
    await addPages(db, job.id, placeLinks(job, [outcome.location], page.depth));
    await finishPage(db, job, page.id, { status: 'fetched', httpStatus: outcome.status });
    return;
  }

  if (
    page.isSitemap ||
    (outcome.contentType === 'xml' && /<(?:urlset|sitemapindex)[\s>]/i.test(outcome.body))
  ) {
    const sitemap = extractSitemap(outcome.body, url);
    // A sitemap lists the site's pages: they are at the sitemap's own depth, not one step further.
    const placed = placeLinks(job, sitemap.urls, page.depth).map((entry) => ({
      ...entry,
      isSitemap: sitemap.nested || looksLikeSitemap(entry.url),
    }));
    await addPages(db, job.id, placed);
    await finishPage(db, job, page.id, { status: 'fetched', httpStatus: outcome.status });
    return;
  }
  if (outcome.contentType !== 'html') {
    await finishPage(db, job, page.id, {
      status: 'skipped',
      reason: 'contentType',
      httpStatus: outcome.status,
    });
    return;
  }

  const extracted = extractPage(outcome.body, url, job.defaultCountryCode);
  await addPages(db, job.id, placeLinks(job, extracted.links, page.depth + 1));
  const records = extracted.business
    ? await saveFoundBusiness({ db, jobId: job.id, sourceUrl: url.toString(), business: extracted.business })
    : 0;
  await finishPage(db, job, page.id, { status: 'fetched', httpStatus: outcome.status, records });
}

/** The first frontier of a new job: its seeds, at depth 0. */
export async function seedFrontier(db: Database, jobId: string, seeds: string[]): Promise<void> {
  await addPages(
    db,
    jobId,
    seeds.map((url) => ({ url: new URL(url).toString(), depth: 0, isSitemap: looksLikeSitemap(url) })),
  );
}
