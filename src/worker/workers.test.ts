import { Writable } from 'node:stream';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pausedSchedules } from '../server/db/schema/index';
import { JOBS } from '../server/jobs/registry';
import { logged, scheduleJobs } from './workers';

describe('job handlers', () => {
  it('a job that throws is logged with its name and id, and still fails for pg-boss', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ level: 'info' }, stream);
    const handler = logged(log, async () => {
      throw new Error('Unknown time zone');
    });
    const job = { id: 'job-123', name: 'dispatch-outbox', data: {}, signal: new AbortController().signal };
    await expect(handler([job])).rejects.toThrow('Unknown time zone');
    const entry = JSON.parse(lines.find((l) => l.includes('job failed'))!);
    expect(entry).toMatchObject({ jobId: 'job-123', job: 'dispatch-outbox', msg: 'job failed' });
    expect(entry.err.message).toBe('Unknown time zone');
  });
});

describe('cron schedules at worker start', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app.services.db.delete(pausedSchedules).where(eq(pausedSchedules.jobName, 'purge-deleted-lists'));
    await app.close();
  });

  it('schedules every cron of the registry except a paused one, which it takes off the scheduler', async () => {
    const { db, queue } = app.services;
    await queue.schedule('purge-deleted-lists', '25 3 * * *', {});
    await db.insert(pausedSchedules).values({ jobName: 'purge-deleted-lists' }).onConflictDoNothing();
    await scheduleJobs({ db, queue });
    expect(await queue.getSchedules('purge-deleted-lists')).toEqual([]);
    for (const job of JOBS.filter((j) => j.cron && j.name !== 'purge-deleted-lists')) {
      expect(
        (await queue.getSchedules(job.name)).map((s) => s.cron),
        job.name,
      ).toEqual([job.cron]);
    }
  });
});

describe('the job registry', () => {
  it('names each queue once, and each job explains itself', () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    for (const job of JOBS) expect(job.description.length, job.name).toBeGreaterThan(10);
  });
});
