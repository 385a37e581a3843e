import type { PgBoss, WipData } from 'pg-boss';

/**
 * Wakes a worker process's idle pg-boss workers when one of their queues has a job to take, so that they
 * need not each ask PostgreSQL on their own clock. Before, each of the ~35 queues' workers fetched every
 * 2 s whether or not it had work: ~290 µs of backend CPU a fetch, each parsed and planned again (pg-boss
 * sends them as simple queries), most of PostgreSQL's parse and plan time during a newsletter send
 * (docs/sending.md). Now the process asks once every 2 s which of its queues have a job due, and wakes
 * only those queues' workers. A job queued to run now still wakes them at once by NOTIFY; this covers what
 * no NOTIFY announces (a job queued to start later, a retry's delay, a notification lost) within the same
 * 2 s as the old poll, and the workers' own poll stays as a long safety net (queue.ts).
 */
export interface Waker {
  /** A worker of `name` ran a batch fetched before `startedAt`: it fetches again when it would have polled. */
  ranBatch(name: string, startedAt: number): void;
  stop(): void;
}

export interface WakerOptions {
  /** How often the process asks which queues have a job due (the old per-worker poll). */
  dueMs: number;
  schema: string;
}

export function startWaker(boss: PgBoss, options: WakerOptions): Waker {
  const { dueMs, schema } = options;
  let stopped = false;
  let tick: NodeJS.Timeout | undefined;
  const pacing = new Set<NodeJS.Timeout>();

  const workers = (): WipData[] => boss.getWipData().filter((w) => w.state === 'active');

  /** Idle workers of each due queue, as many as it has jobs due: the others would only fetch nothing. */
  const wakeDue = async (): Promise<void> => {
    const all = workers();
    if (all.length === 0) return;
    const names = [...new Set(all.map((w) => w.name))];
    let due: Map<string, number>;
    try {
      due = await dueQueues(boss, schema, names, all.length);
    } catch {
      // Unable to tell which queues have work: every idle worker asks, as each did on its own clock.
      due = new Map(names.map((name) => [name, all.length]));
    }
    for (const [name, count] of due) {
      const idle = all.filter((w) => w.name === name && w.count === 0);
      for (const w of idle.slice(0, count)) boss.notifyWorker(w.id);
    }
  };

  const loop = async (): Promise<void> => {
    const started = Date.now();
    await wakeDue().catch(() => {});
    if (stopped) return;
    tick = setTimeout(loop, Math.max(0, dueMs - (Date.now() - started)));
    tick.unref();
  };
  tick = setTimeout(loop, dueMs);
  tick.unref();
  boss.once('stopped', () => stop());

  function stop(): void {
    stopped = true;
    clearTimeout(tick);
    for (const timer of pacing) clearTimeout(timer);
    pacing.clear();
  }

  return {
    ranBatch(name, startedAt) {
      if (stopped) return;
      // The worker that ran the batch is one that has not fetched since it began.
      const wakeRunner = () => {
        const ran = workers().find((w) => w.name === name && (w.lastFetchedOn ?? 0) <= startedAt);
        if (ran) boss.notifyWorker(ran.id);
      };
      // After a batch pg-boss waits out the rest of its poll (60 s now). The old 2 s poll fetched again at
      // once after a batch that outlasted it, and after a shorter one when the 2 s were up (100 ms of
      // slack): a queue with a backlog keeps that pace without a statement of ours. Woken now, before
      // the handler returns, the worker skips its wait (pg-boss checks for a notification first).
      const wait = startedAt + dueMs - 100 - Date.now();
      if (wait <= 0) {
        wakeRunner();
        return;
      }
      const timer = setTimeout(() => {
        pacing.delete(timer);
        wakeRunner();
      }, wait);
      timer.unref();
      pacing.add(timer);
    },
    stop,
  };
}

/**
 * Queues among `names` with a job a fetch could take now (pg-boss's own conditions: waiting, not blocked,
 * due by its clock), each with how many, up to `limit`. One statement for all of them.
 */
async function dueQueues(boss: PgBoss, schema: string, names: string[], limit: number) {
  const { rows } = await boss.getDb().executeSql(
    `SELECT q.name, d.due
       FROM unnest($1::text[]) AS q(name)
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS due FROM (
           SELECT 1 FROM ${schema}.job j
            WHERE j.name = q.name AND j.state < 'active' AND NOT j.blocked
              AND j.start_after <= (SELECT ${schema}.job_now())
            LIMIT $2
         ) waiting
       ) d
      WHERE d.due > 0`,
    [names, limit],
  );
  return new Map((rows as { name: string; due: number }[]).map((row) => [row.name, row.due]));
}
