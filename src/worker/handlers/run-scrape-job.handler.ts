import type { FastifyBaseLogger } from 'fastify';
import { runScrapeSlice } from '../../server/jobs/run-scrape-job.job';
import type { WorkerServices } from '../services';

export async function handleRunScrapeJob(input: {
  services: WorkerServices;
  log: FastifyBaseLogger;
  payload: { jobId: string };
}): Promise<void> {
  const { env } = input.services;
  if (!env) throw new Error('run-scrape-job needs the environment');
  const outcome = await runScrapeSlice({
    db: input.services.db,
    queue: input.services.queue,
    env,
    jobId: input.payload.jobId,
  });
  input.log.info({ scrapeJobId: input.payload.jobId, outcome }, 'crawl slice finished');
}
