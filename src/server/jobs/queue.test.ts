import { type DatabaseHandle, openDatabase } from '@server/db/client';
import { ownDatabase } from '@tests/setup/own-database';
import { pgliteSnapshot } from '@tests/setup/test-app';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Queue, startQueue, workerPolling } from './queue';
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

  it('turns the notification on for a queue made before it notified', async () => {
    await worker.updateQueue('import-contacts', { notify: false });
    const again = await startQueue({ database, url, runsWorkers: false });
    await again.stop({ graceful: false });
    expect((await worker.getQueue('import-contacts'))?.notify).toBe(true);
  });
});
