import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createTrackingBuffer } from './tracking-buffer';
import type { TrackingHit } from './tracking-hits';

/*
 * The buffer's own rules with a writer that records batches (and fails on demand); tracking.test.ts
 * covers the real INSERT into email_events.
 */

const log = pino({ level: 'silent' });

function hit(n: number): TrackingHit {
  return {
    outboxMessageId: randomUUID(),
    owner: {
      userId: 'user-1',
      campaignId: randomUUID(),
      stepId: null,
      campaignContactId: randomUUID(),
      senderAccountId: null,
    },
    type: 'opened',
    occurredAt: new Date(),
    detail: String(n),
    machine: false,
    machineReason: null,
    userAgent: null,
    metadata: null,
  };
}

function recordingWriter() {
  const batches: string[][] = [];
  let failuresLeft = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let release: (() => void) | null = null;
  let hold = false;
  return {
    batches,
    failNext(times: number) {
      failuresLeft = times;
    },
    holdWrites() {
      hold = true;
    },
    releaseWrites() {
      hold = false;
      release?.();
    },
    get maxInFlight() {
      return maxInFlight;
    },
    write: async (hits: TrackingHit[]) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (hold) await new Promise<void>((resolve) => (release = resolve));
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          throw new Error('database unavailable');
        }
        batches.push(hits.map((h) => h.detail!));
        return hits.length;
      } finally {
        inFlight -= 1;
      }
    },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => String(from + i));

describe('tracking buffer', () => {
  it('writes everything buffered on flush, in batches, oldest first', async () => {
    const writer = recordingWriter();
    const buffer = createTrackingBuffer({
      log,
      write: writer.write,
      batchSize: 1_000,
      flushIntervalMs: 60_000,
    });
    for (let i = 0; i < 5; i++) buffer.push(hit(i));
    expect(writer.batches).toEqual([]);
    expect(await buffer.flush()).toEqual({ written: 5, remaining: 0, failed: false });
    expect(writer.batches).toEqual([range(0, 5)]);
    expect(buffer.size).toBe(0);
    await buffer.close();
  });

  it('starts a flush as soon as a full batch waits', async () => {
    const writer = recordingWriter();
    const buffer = createTrackingBuffer({ log, write: writer.write, batchSize: 3, flushIntervalMs: 60_000 });
    buffer.push(hit(0));
    buffer.push(hit(1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writer.batches).toEqual([]);
    buffer.push(hit(2));
    await buffer.flush();
    expect(writer.batches[0]).toEqual(['0', '1', '2']);
    await buffer.close();
  });

  it('flushes on its timer', async () => {
    const writer = recordingWriter();
    const buffer = createTrackingBuffer({ log, write: writer.write, flushIntervalMs: 20 });
    buffer.push(hit(7));
    await expect.poll(() => writer.batches, { timeout: 5_000 }).toEqual([['7']]);
    await buffer.close();
  });

  it('keeps the rows of a failed write and writes them, in order, on the next flush', async () => {
    const writer = recordingWriter();
    const buffer = createTrackingBuffer({
      log,
      write: writer.write,
      batchSize: 1_000,
      flushIntervalMs: 60_000,
    });
    for (let i = 0; i < 3; i++) buffer.push(hit(i));
    writer.failNext(1);
    expect(await buffer.flush()).toEqual({ written: 0, remaining: 3, failed: true });
    buffer.push(hit(3));
    expect(await buffer.flush()).toEqual({ written: 4, remaining: 0, failed: false });
    expect(writer.batches).toEqual([range(0, 4)]);
    expect(buffer.stats.failedFlushes).toBe(1);
    await buffer.close();
  });

  it('puts a failed size-triggered batch back in front of rows that arrived meanwhile', async () => {
    const writer = recordingWriter();
    const buffer = createTrackingBuffer({ log, write: writer.write, batchSize: 2, flushIntervalMs: 60_000 });
    writer.failNext(1);
    buffer.push(hit(0));
    buffer.push(hit(1)); // a full batch: its write starts, and fails
    buffer.push(hit(2));
    await buffer.flush();
    expect(writer.batches.flat()).toEqual(range(0, 3));
    expect(buffer.stats.failedFlushes).toBe(1);
    await buffer.close();
  });

  it('drops the oldest rows above its cap (down to nine tenths), so an outage cannot exhaust memory', async () => {
    const writer = recordingWriter();
    const buffer = createTrackingBuffer({
      log,
      write: writer.write,
      batchSize: 1_000,
      maxBuffered: 5,
      flushIntervalMs: 60_000,
    });
    writer.failNext(1);
    for (let i = 0; i < 4; i++) buffer.push(hit(i));
    expect((await buffer.flush()).failed).toBe(true);
    // The 6th row drops the two oldest (down to 4), the 8th two more.
    for (let i = 4; i < 8; i++) buffer.push(hit(i));
    expect(buffer.size).toBe(4);
    expect(buffer.stats.dropped).toBe(4);
    await buffer.flush();
    expect(writer.batches.flat()).toEqual(range(4, 8));
    await buffer.close();
  });

  it('runs one flush at a time, and a flush called meanwhile also writes what came after', async () => {
    const writer = recordingWriter();
    const buffer = createTrackingBuffer({
      log,
      write: writer.write,
      batchSize: 1_000,
      flushIntervalMs: 60_000,
    });
    buffer.push(hit(0));
    writer.holdWrites();
    const first = buffer.flush();
    buffer.push(hit(1));
    const second = buffer.flush();
    writer.releaseWrites();
    await Promise.all([first, second]);
    expect(writer.maxInFlight).toBe(1);
    expect(writer.batches).toEqual([['0'], ['1']]);
    await buffer.close();
  });

  it('writes what is left on close', async () => {
    const writer = recordingWriter();
    const buffer = createTrackingBuffer({ log, write: writer.write, flushIntervalMs: 60_000 });
    buffer.push(hit(1));
    buffer.push(hit(2));
    expect(await buffer.close()).toEqual({ written: 2, remaining: 0, failed: false });
    expect(writer.batches).toEqual([['1', '2']]);
  });
});
