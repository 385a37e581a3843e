import { type DatabaseHandle, openDatabase } from '@server/db/client';
import { ownDatabase } from '@tests/setup/own-database';
import { pgliteSnapshot } from '@tests/setup/test-app';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Queue, startQueue, workerPolling, workQueue } from './queue';
import { JOBS } from './registry';

/*
 * The queue of a web process (sends only) and that of a worker process, as `start:web` and `start:worker`
 * make them: on PostgreSQL two pg-boss instances on a database of this file's own (the run's is shared by
 * files running meanwhile, whose jobs these workers would take); on PGlite the one queue of the process.
 */
let database: DatabaseHandle;
let web: Queue;
let worker: Queue;
let drop: () => Promise<void> = async () => {};
let url: string | undefined;

beforeAll(async () => {
  const own = await ownDatabase('wake');
  drop = own.drop;
  url = own.env.DATABASE_URL;
  database = url
    ? await openDatabase({ url, poolSize: 4 })
    : await openDatabase({ snapshot: pgliteSnapshot() });
  worker = await startQueue({ database, url, runsWorkers: true });
  web = url ? await startQueue({ database, url, runsWorkers: false }) : worker;
}, 60_000);

afterAll(async () => {
  if (web !== worker) await web?.stop({ graceful: false });
  await worker?.stop({ graceful: false });
  await database?.close();
  await drop();
});

/** Resolves once every worker of these queues has made its first fetch and waits for the next. */
async function idle(queue: Queue, names: string[]): Promise<void> {
  await vi.waitFor(
    () => {
      const fetched = queue.getWipData().filter((w) => names.includes(w.name) && w.lastFetchedOn);
      expect(fetched.length).toBeGreaterThanOrEqual(names.length);
    },
    { timeout: 20_000, interval: 50 },
  );
}

describe('a queued job wakes an idle worker', () => {
  it('runs a job of every queue of the registry at once, though its worker polls every ten minutes', async () => {
    const names = JOBS.map((job) => job.name);
    const ran = new Set<string>();
    for (const name of names) {
      await worker.work(name, { pollingIntervalSeconds: 600 }, async () => {
        ran.add(name);
      });
    }
    await idle(worker, names);
    for (const name of names) await web.send(name, {});
    // Without a wake-up each job would wait out its worker's ten minutes.
    await vi.waitFor(() => expect([...names].filter((name) => !ran.has(name))).toEqual([]), {
      timeout: 20_000,
      interval: 50,
    });
    for (const name of names) await worker.offWork(name, { wait: true });
  }, 60_000);

  it('still runs, by its poll, a job no notification announces (one queued to start later)', async () => {
    // pg-boss notifies only a job that may run now; this one comes due a second later, unannounced.
    const name = 'dispatch-outbox';
    let ran = false;
    await worker.work(name, workerPolling(1), async () => {
      ran = true;
    });
    await idle(worker, [name]);
    await web.send(name, {}, { startAfter: new Date(Date.now() + 1_000) });
    // pg-boss's own poll of a queue whose NOTIFY works is every 30 s; ours stays at the interval given.
    await vi.waitFor(() => expect(ran).toBe(true), { timeout: 20_000, interval: 50 });
    await worker.offWork(name, { wait: true });
  }, 60_000);

  it('runs a job queued to start later within seconds, though its worker polls every ten minutes', async () => {
    // No notification announces it; the worker process's check of which queues have a job due wakes it.
    const name = 'purge-expired-sessions';
    let ranAt = 0;
    await worker.work(name, { pollingIntervalSeconds: 600 }, async () => {
      ranAt = Date.now();
    });
    await idle(worker, [name]);
    const dueAt = Date.now() + 1_000;
    await web.send(name, {}, { startAfter: new Date(dueAt) });
    await vi.waitFor(() => expect(ranAt).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
    // The check runs every 2 s; a loaded machine adds its delays.
    expect(ranAt - dueAt).toBeLessThan(6_000);
    await worker.offWork(name, { wait: true });
  }, 60_000);

  it('drains a backlog queued at once, though its worker polls every ten minutes', async () => {
    // One insert, one notification: the worker takes one job, then the others are due and nothing new
    // announces them.
    const name = 'import-contacts';
    let ran = 0;
    await worker.work(name, { pollingIntervalSeconds: 600 }, async () => {
      ran += 1;
    });
    await idle(worker, [name]);
    await web.insert(name, [{ data: {} }, { data: {} }, { data: {} }]);
    await vi.waitFor(() => expect(ran).toBe(3), { timeout: 20_000, interval: 50 });
    await worker.offWork(name, { wait: true });
  }, 60_000);

  it('takes the next job of a backlog at once after a batch longer than the due check', async () => {
    // pg-boss waits out its poll (60 s, queue.ts) after a batch; the old 2 s poll fetched again at once
    // after a longer one, so a backlog of slow jobs ran back to back. It must still.
    const name = 'recheck-greylisted';
    const runs: { start: number; end: number }[] = [];
    await workQueue(worker, name, {}, async () => {
      const start = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      runs.push({ start, end: Date.now() });
    });
    await idle(worker, [name]);
    await web.insert(name, [{ data: {} }, { data: {} }, { data: {} }]);
    await vi.waitFor(() => expect(runs).toHaveLength(3), { timeout: 30_000, interval: 50 });
    // Waiting for the next due check instead left ~1.5 s between batches; a fetch takes milliseconds.
    const gaps = runs.slice(1).map((run, i) => run.start - runs[i]!.end);
    expect(gaps.reduce((a, b) => a + b, 0)).toBeLessThan(1_200);
    await worker.offWork(name, { wait: true });
  }, 60_000);

  it('asks PostgreSQL for jobs far less often than once per queue every two seconds when idle', async () => {
    const names = JOBS.map((job) => job.name);
    for (const name of names) await worker.work(name, workerPolling(), async () => {});
    await idle(worker, names);
    // Every statement of the worker's queue: pg-boss's fetches say FOR UPDATE ... SKIP LOCKED.
    const db = worker.getDb() as { executeSql: (text: string, values?: unknown[]) => Promise<unknown> };
    const original = db.executeSql;
    const statements: string[] = [];
    db.executeSql = (text, values) => {
      statements.push(text);
      return original.call(db, text, values);
    };
    try {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    } finally {
      db.executeSql = original;
    }
    const fetches = statements.filter((text) => text.includes('SKIP LOCKED')).length;
    // Polling each queue every 2 s made about names.length * 2.5 fetches in these 5 s.
    expect(fetches).toBeLessThan(names.length / 4);
    expect(statements.length).toBeLessThan(names.length / 2);
    for (const name of names) await worker.offWork(name, { wait: true });
  }, 60_000);

  it('wakes every idle worker when it cannot tell which queues have a job due', async () => {
    const name = 'purge-stale-imports';
    await worker.work(name, { pollingIntervalSeconds: 600 }, async () => {});
    await idle(worker, [name]);
    const db = worker.getDb() as { executeSql: (text: string, values?: unknown[]) => Promise<unknown> };
    const original = db.executeSql;
    let fetches = 0;
    db.executeSql = (text, values) => {
      if (text.includes('AS q(name)')) return Promise.reject(new Error('connection lost'));
      if (text.includes('SKIP LOCKED') && text.includes(`'${name}'`)) fetches += 1;
      return original.call(db, text, values);
    };
    try {
      // As each worker polled on its own clock: a fetch within the check's 2 s, not the worker's ten minutes.
      await vi.waitFor(() => expect(fetches).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
    } finally {
      db.executeSql = original;
    }
    await worker.offWork(name, { wait: true });
  }, 60_000);

  it('turns the notification on for a queue made before it notified', async () => {
    await worker.updateQueue('import-contacts', { notify: false });
    const again = await startQueue({ database, url, runsWorkers: false });
    await again.stop({ graceful: false });
    expect((await worker.getQueue('import-contacts'))?.notify).toBe(true);
  });
});
