import { JOBS } from '@server/jobs/registry';
import { type AutomatedSchedule, automatedSchedulesSchema, DAY_RUNS_COUNTED } from '@shared/admin-schedules';
import { auditEntriesOf } from '@tests/factories/audit';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pausedJobNames } from './schedules.service';

/*
 * Automated Schedules API. Runs are made through pg-boss itself (send, fetch, complete or fail), so the
 * screen is read from the same rows a worker leaves. Each test uses its own job names: on PostgreSQL the
 * test files share pg-boss's tables.
 */

describe('automated schedules API', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let owner: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
    owner = await createUser(app);
  });
  afterAll(() => app.close());

  const asAdmin = () => as(app, admin.cookie);

  async function list(): Promise<AutomatedSchedule[]> {
    const response = await asAdmin()({ method: 'GET', url: '/api/admin/schedules' });
    expect(response.statusCode).toBe(200);
    return automatedSchedulesSchema.parse(response.json()).schedules;
  }

  async function schedule(name: string): Promise<AutomatedSchedule> {
    const found = (await list()).find((s) => s.name === name);
    expect(found, name).toBeDefined();
    return found!;
  }

  it('answers 401 signed out and 403 to a user and a data entry officer, changing nothing', async () => {
    const dataEntry = await createUser(app, { role: 'data_entry' });
    const endpoints = [
      { method: 'GET', url: '/api/admin/schedules' },
      { method: 'POST', url: '/api/admin/schedules/purge-deleted-lists/run' },
      { method: 'POST', url: '/api/admin/schedules/purge-deleted-lists/pause' },
      { method: 'POST', url: '/api/admin/schedules/purge-deleted-lists/resume' },
    ] as const;
    for (const request of endpoints) {
      expect((await app.inject(request)).statusCode, `${request.method} ${request.url}`).toBe(401);
      for (const who of [owner, dataEntry]) {
        const response = await as(app, who.cookie)(request);
        expect(response.statusCode, `${who.user.role} ${request.method} ${request.url}`).toBe(403);
      }
    }
    expect((await pausedJobNames({ db: app.services.db })).has('purge-deleted-lists')).toBe(false);
    const sent = await app.services.queue.findJobs('purge-deleted-lists', { queued: true });
    expect(sent).toEqual([]);
  });

  it('lists every job of the registry that has a cron, with the cron in words and the next run', async () => {
    const schedules = await list();
    const expected = JOBS.filter((job) => job.cron).map((job) => job.name);
    expect(schedules.map((s) => s.name)).toEqual(expected);
    // Jobs sent only by the app are not schedules.
    expect(schedules.map((s) => s.name)).not.toContain('import-contacts');
    const minutely = schedules.find((s) => s.name === 'dispatch-outbox')!;
    expect(minutely).toMatchObject({ cron: '* * * * *', cronText: 'Every minute', paused: false });
    const nightly = schedules.find((s) => s.name === 'rebuild-directory-facets')!;
    expect(nightly.cronText).toBe('Every day at 02:40 UTC');
    const next = new Date(nightly.nextRunAt!);
    expect(next.getUTCHours()).toBe(2);
    expect(next.getUTCMinutes()).toBe(40);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    for (const s of schedules) expect(s.description.length, s.name).toBeGreaterThan(10);
  });

  it("shows a queue's last run from pg-boss: when, how long, how it ended, and the error", async () => {
    const { queue } = app.services;
    const name = 'check-sender-domains';
    expect((await schedule(name)).lastRun).toBeNull();

    await queue.send(name, {});
    const [first] = await queue.fetch(name);
    await queue.complete(name, first!.id);
    const completed = await schedule(name);
    expect(completed.lastRun).toMatchObject({ jobId: first!.id, outcome: 'completed', error: null });
    expect(completed.lastRun!.durationMs).toBeGreaterThanOrEqual(0);
    expect(completed.completedLastDay).toBe(1);

    await queue.send(name, {}, { retryLimit: 0 });
    const [second] = await queue.fetch(name);
    const running = await schedule(name);
    expect(running.lastRun).toMatchObject({ jobId: second!.id, outcome: 'running', durationMs: null });
    expect(running.pending).toBe(1);

    await queue.fail(name, second!.id, { message: 'DNS resolver unreachable' });
    const failed = await schedule(name);
    expect(failed.lastRun).toMatchObject({
      jobId: second!.id,
      outcome: 'failed',
      error: 'DNS resolver unreachable',
    });
    expect(failed.lastRun!.finishedAt).not.toBeNull();
    expect(failed).toMatchObject({ completedLastDay: 1, failedLastDay: 1, pending: 0 });
  });

  it("counts a busy queue's day over its latest runs only, and says so", async () => {
    const name = 'append-sent-folders';
    await app.services.database.executeSql(
      `INSERT INTO pgboss.job (id, name, data, state, created_on, start_after, started_on, completed_on)
       SELECT gen_random_uuid(), $1, '{}'::jsonb, 'completed'::pgboss.job_state, t, t, t, t
       FROM generate_series(1, $2::int) g, LATERAL (SELECT now() - g * interval '10 seconds' AS t) s`,
      [name, DAY_RUNS_COUNTED + 5],
    );
    const busy = await schedule(name);
    expect(busy).toMatchObject({ completedLastDay: DAY_RUNS_COUNTED, lastDayCapped: true });
    expect(busy.lastRun?.outcome).toBe('completed');
    expect((await schedule('purge-deleted-lists')).lastDayCapped).toBe(false);
  });

  it('runs a schedule now: the job is queued with its options, and the action is audited', async () => {
    const name = 'purge-expired-sessions';
    const response = await asAdmin()({ method: 'POST', url: `/api/admin/schedules/${name}/run` });
    expect(response.statusCode).toBe(200);
    const { jobId, message } = response.json() as { jobId: string; message: string };
    expect(message).toContain('will run');
    const job = await app.services.queue.getJobById(name, jobId);
    expect(job?.state).toBe('created');
    expect((await schedule(name)).pending).toBe(1);
    const audit = (await auditEntriesOf(app, admin.user.id)).find(
      (entry) => entry.action === 'schedule.run_now' && entry.targetId === name,
    );
    expect(audit).toMatchObject({ targetType: 'schedule', details: { jobId } });
  });

  it('pauses a schedule off the scheduler and resumes it, each audited once', async () => {
    const name = 'purge-deleted-account-events';
    const { queue } = app.services;
    await queue.schedule(name, '41 * * * *', {});
    const pause = () => asAdmin()({ method: 'POST', url: `/api/admin/schedules/${name}/pause` });
    const resume = () => asAdmin()({ method: 'POST', url: `/api/admin/schedules/${name}/resume` });

    expect((await pause()).json()).toMatchObject({ message: expect.stringContaining('is paused') });
    expect(await queue.getSchedules(name)).toEqual([]);
    const paused = await schedule(name);
    expect(paused).toMatchObject({ paused: true, pausedBy: admin.user.email, nextRunAt: null });
    expect((await pause()).json()).toMatchObject({ message: expect.stringContaining('already paused') });

    // A paused job can still be run by hand.
    expect((await asAdmin()({ method: 'POST', url: `/api/admin/schedules/${name}/run` })).statusCode).toBe(
      200,
    );

    expect((await resume()).json()).toMatchObject({ message: expect.stringContaining('schedule again') });
    expect((await queue.getSchedules(name)).map((s) => s.cron)).toEqual(['41 * * * *']);
    const resumed = await schedule(name);
    expect(resumed).toMatchObject({ paused: false, pausedAt: null, pausedBy: null });
    expect(resumed.nextRunAt).not.toBeNull();
    expect((await resume()).json()).toMatchObject({ message: expect.stringContaining('was not paused') });

    const actions = (await auditEntriesOf(app, admin.user.id))
      .filter((entry) => entry.targetId === name && entry.action !== 'schedule.run_now')
      .map((entry) => entry.action);
    expect(actions).toEqual(['schedule.pause', 'schedule.resume']);
  });

  it('answers 404 for a job without a schedule or unknown, and 400 for a malformed name', async () => {
    for (const name of ['import-contacts', 'no-such-job']) {
      const response = await asAdmin()({ method: 'POST', url: `/api/admin/schedules/${name}/pause` });
      expect(response.statusCode, name).toBe(404);
    }
    const bad = await asAdmin()({ method: 'POST', url: '/api/admin/schedules/Drop%20table/run' });
    expect(bad.statusCode).toBe(400);
    expect(await pausedJobNames({ db: app.services.db })).not.toContain('import-contacts');
  });
});
