import type { Database } from '@server/db/client';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { copyTrackingHits, insertTrackingHits, type TrackingHit } from './tracking-hits';

/*
 * Opens and clicks are kept in memory and written in multi-row INSERTs, so a burst of pixel loads costs a
 * few statements a second instead of one per request (DESIGN: tracking hits buffered and flushed).
 * - A flush runs every `flushIntervalMs` and as soon as `batchSize` rows wait; one flush at a time.
 * - A failed write keeps its rows (they go back to the front) and is retried on the next tick. Above
 *   `maxBuffered` rows the oldest are dropped and logged, so an outage cannot exhaust memory.
 * - The app's onClose hook calls close(), which writes what is left before the database closes.
 */

export interface FlushResult {
  written: number;
  remaining: number;
  failed: boolean;
}

export interface TrackingBuffer {
  push(hit: TrackingHit): void;
  /** Writes every row buffered at the time of the call (and any added meanwhile). Never throws. */
  flush(): Promise<FlushResult>;
  /** Stops the timer and flushes. */
  close(): Promise<FlushResult>;
  readonly size: number;
  readonly stats: { written: number; dropped: number; failedFlushes: number };
}

export interface TrackingBufferOptions {
  log: FastifyBaseLogger;
  /** Writes one batch and resolves with the number of events stored. */
  write: (hits: TrackingHit[]) => Promise<number>;
  flushIntervalMs?: number;
  batchSize?: number;
  maxBuffered?: number;
}

export const TRACKING_FLUSH_INTERVAL_MS = 1_000;
/**
 * Rows per write under load. 5,000 rather than 1,000: at ~30,000 hits a second a commit (and its WAL
 * flush) every 35 ms cost about 7% of bench/tracking's throughput; 10,000 gained nothing more. A crash
 * still loses at most one interval: the timer writes whatever waits every second.
 */
export const TRACKING_BATCH_SIZE = 5_000;
export const TRACKING_MAX_BUFFERED = 100_000;

export function createTrackingBuffer(options: TrackingBufferOptions): TrackingBuffer {
  const { log, write } = options;
  const batchSize = options.batchSize ?? TRACKING_BATCH_SIZE;
  const maxBuffered = options.maxBuffered ?? TRACKING_MAX_BUFFERED;
  let pending: TrackingHit[] = [];
  let running: Promise<FlushResult> | null = null;
  const stats = { written: 0, dropped: 0, failedFlushes: 0 };

  /**
   * Above the cap the oldest rows go, down to nine tenths of it: dropping in chunks keeps a full buffer
   * (a long database outage under load) from copying the whole array on every hit.
   */
  function enforceCap(): void {
    if (pending.length <= maxBuffered) return;
    const excess = pending.length - Math.floor(maxBuffered * 0.9);
    pending = pending.slice(excess);
    stats.dropped += excess;
    log.error(
      { dropped: excess, totalDropped: stats.dropped, buffered: pending.length },
      'tracking buffer full: oldest open/click events dropped',
    );
  }

  /** Writes batches until the buffer is empty (`all`) or holds less than a full batch. */
  async function drain(all: boolean): Promise<FlushResult> {
    let written = 0;
    while (pending.length > 0 && (all || pending.length >= batchSize)) {
      const batch = pending.length <= batchSize ? pending : pending.slice(0, batchSize);
      pending = pending.length <= batchSize ? [] : pending.slice(batchSize);
      try {
        const stored = await write(batch);
        written += stored;
        stats.written += stored;
      } catch (error) {
        pending = batch.concat(pending);
        enforceCap();
        stats.failedFlushes += 1;
        // Logged on the first failure and then every 30th, so an outage does not flood the log.
        if (stats.failedFlushes % 30 === 1) {
          log.error(
            { err: error, buffered: pending.length, failedFlushes: stats.failedFlushes },
            'tracking events could not be written; kept for the next flush',
          );
        }
        return { written, remaining: pending.length, failed: true };
      }
    }
    return { written, remaining: pending.length, failed: false };
  }

  async function run(all: boolean): Promise<FlushResult> {
    // One flush at a time: wait for the running one, then drain what is left.
    while (running) await running;
    running = drain(all);
    try {
      return await running;
    } finally {
      running = null;
    }
  }

  const timer = setInterval(() => {
    if (!running && pending.length > 0) void run(true);
  }, options.flushIntervalMs ?? TRACKING_FLUSH_INTERVAL_MS);
  // The timer alone must not keep a process alive.
  timer.unref();

  return {
    push(hit) {
      pending.push(hit);
      if (pending.length > maxBuffered) enforceCap();
      if (pending.length >= batchSize && !running) void run(false);
    },
    flush: () => run(true),
    async close() {
      clearInterval(timer);
      return run(true);
    },
    get size() {
      return pending.length;
    },
    stats,
  };
}

/** The buffer the app uses: rows go to email_events. */
export function createDatabaseTrackingBuffer(
  options: { db: Database } & Omit<TrackingBufferOptions, 'write'>,
): TrackingBuffer {
  const { db, ...rest } = options;
  const client = (db as unknown as { $client: unknown }).$client;
  // PostgreSQL takes the batch by COPY; the embedded PGlite by one INSERT … SELECT unnest.
  const pool = client instanceof pg.Pool ? client : null;
  return createTrackingBuffer({
    ...rest,
    write: async (hits) => {
      if (!pool) return insertTrackingHits({ db, hits });
      try {
        return await copyTrackingHits({ pool, hits });
      } catch {
        // COPY is all or nothing (email_events has no foreign keys, so a deleted owner no longer fails
        // it, but a row PostgreSQL refuses would). The INSERT joins each hit to its message and skips
        // the ones that are gone.
        return insertTrackingHits({ db, hits });
      }
    },
  });
}
