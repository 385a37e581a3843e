import type { Database } from '@server/db/client';
import { scrapeJobs } from '@server/db/schema';
import type { Env } from '@server/env';
import { defineJob } from '@server/jobs/define-job';
import type { Queue } from '@server/jobs/queue';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { crawlSlice, type SliceOutcome } from './crawl';
import { createPageFetcher, SCRAPER_USER_AGENT_NAME, scraperUserAgent } from './fetch-page';
import { enqueueScrapeSlice, RUN_SCRAPE_JOB } from './scraper.service';

export async function runScrapeSlice(options: {
  db: Database;
  queue: Queue;
  env: Pick<Env, 'APP_URL' | 'SCRAPER_NETWORK'>;
  jobId: string;
  budgetMs?: number;
}): Promise<SliceOutcome> {
  const fetcher = createPageFetcher({
    network: options.env.SCRAPER_NETWORK,
    userAgent: scraperUserAgent(options.env.APP_URL),
  });
  try {
    const outcome = await crawlSlice(
      { db: options.db, fetcher, agent: SCRAPER_USER_AGENT_NAME, budgetMs: options.budgetMs },
      options.jobId,
    );
    if (outcome === 'more') await enqueueScrapeSlice(options.queue, options.jobId);
    return outcome;
  } catch (error) {
    // A crawl that cannot go on says why in the console rather than staying "running" forever.
    await options.db
      .update(scrapeJobs)
      .set({ status: 'failed', error: (error as Error).message.slice(0, 500), finishedAt: sql`now()` })
      .where(eq(scrapeJobs.id, options.jobId));
    throw error;
  } finally {
    await fetcher.close();
  }
}

/**
 * One slice (about a minute) of a crawl; it queues the next slice itself until the crawl is done, paused
 * or cancelled. One slice per crawl at a time (the queue's singleton key is the crawl), so a crawl's
 * pages are fetched in order and its host spacing holds.
 */
export const runScrapeJobJob = defineJob({
  name: RUN_SCRAPE_JOB,
  description: 'Crawls the next slice (about a minute) of a scraper crawl, then queues the slice after it.',
  payload: z.object({ jobId: z.uuid() }),
  // One slice of a crawl running and the next one queued (singletonKey: the crawl).
  queue: { policy: 'stately' },
  async run({ services, log, payload }) {
    const outcome = await runScrapeSlice({
      db: services.db,
      queue: services.queue,
      env: services.env,
      jobId: payload.jobId,
    });
    log.info({ scrapeJobId: payload.jobId, outcome }, 'crawl slice finished');
  },
});
