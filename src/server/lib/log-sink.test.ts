import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { parseEnv } from '../env';
import { createLogSink, toRow } from './log-sink';
import { createProcessLogger } from './logger';

/*
 * The sink's promises: logging never waits for (or fails with) the database, memory stays bounded while
 * the database is slow, and no secret reaches a row. The database here is a stand-in whose insert never
 * answers or always fails — the two ways a real one lets the logger down.
 */

function databaseWhoseInsert(behaviour: 'hangs' | 'fails'): { db: Database; calls: () => number } {
  let calls = 0;
  const db = {
    insert: () => ({
      values: () => {
        calls++;
        return behaviour === 'hangs'
          ? new Promise(() => {})
          : Promise.reject(new Error('connection terminated unexpectedly'));
      },
    }),
  } as unknown as Database;
  return { db, calls: () => calls };
}

const line = (msg: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level: 30, time: Date.now(), msg, ...extra });

describe('log sink', () => {
  it('keeps logging while the database hangs: the queue stops at its bound and the rest is counted as dropped', async () => {
    const { db, calls } = databaseWhoseInsert('hangs');
    const sink = createLogSink({ process: 'web', maxQueued: 100, batchSize: 10, reportError: () => {} });
    sink.attach(db);
    for (let i = 0; i < 1_000; i++) sink.write(line(`line ${i}`));
    expect(sink.stats()).toMatchObject({ queued: 100, dropped: 900, written: 0 });
    // The insert starts on the next turn of the event loop, and never answers.
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls()).toBe(1);
    for (let i = 0; i < 1_000; i++) sink.write(line(`more ${i}`));
    await new Promise((resolve) => setImmediate(resolve));
    // Still one insert at a time (no pile-up against a slow database), and memory stays bounded.
    expect(calls()).toBe(1);
    expect(sink.stats().queued).toBeLessThanOrEqual(100);
    expect(sink.stats().dropped).toBeGreaterThanOrEqual(1_900 - 10);
  });

  it('drops and counts a batch the database refuses, and reports it without throwing', async () => {
    const { db } = databaseWhoseInsert('fails');
    const reports: string[] = [];
    const sink = createLogSink({ process: 'worker', batchSize: 5, reportError: (m) => reports.push(m) });
    for (let i = 0; i < 12; i++) sink.write(line(`line ${i}`));
    sink.attach(db);
    await sink.flush();
    expect(sink.stats()).toMatchObject({ written: 0, dropped: 12, queued: 0, failedInserts: 3 });
    expect(sink.stats().lastError).toContain('connection terminated');
    // One report for a burst of failures, not one per batch.
    expect(reports).toHaveLength(1);
    await sink.close();
  });

  it('a logger writing to it returns at once whatever the database does', () => {
    const { db } = databaseWhoseInsert('hangs');
    const sink = createLogSink({ process: 'web', maxQueued: 50, reportError: () => {} });
    sink.attach(db);
    const log = createProcessLogger(
      parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', LOG_TABLE_LEVEL: 'info' }),
      sink,
      'web',
    );
    for (let i = 0; i < 500; i++) log.info({ i }, 'busy');
    log.debug('below the table level');
    const stats = sink.stats();
    expect(stats.queued + stats.dropped + 1).toBeGreaterThanOrEqual(500);
    expect(stats.queued).toBeLessThanOrEqual(50);
  });
});

describe('log line to row', () => {
  it('maps request, user and job fields to columns and keeps the rest as data', () => {
    const row = toRow(
      line('request completed', {
        reqId: 'r-1',
        pid: 1,
        hostname: 'h',
        res: { statusCode: 404, method: 'GET', url: '/api/campaigns/:id', userId: 'u-1' },
        responseTime: 3.2,
      }),
      'web',
    );
    expect(row).toMatchObject({
      requestId: 'r-1',
      statusCode: 404,
      method: 'GET',
      route: '/api/campaigns/:id',
      userId: 'u-1',
      process: 'web',
      level: 30,
    });
    expect(row?.data).toMatchObject({ responseTime: 3.2 });
    expect(row?.data).not.toHaveProperty('hostname');
    const job = toRow(line('job failed', { job: 'dispatch-outbox', jobId: 'j-1', process: 'worker' }), 'app');
    expect(job).toMatchObject({ job: 'dispatch-outbox', jobId: 'j-1', process: 'worker' });
  });

  it('removes secrets at any depth, whatever the redact paths missed', () => {
    const row = toRow(
      line('careless', {
        password: 'pw-1',
        user: { newPassword: 'pw-2', profile: { apiKey: 'k-3', sessionToken: 't-4' } },
        headers: { Authorization: 'Bearer b-5', cookie: 'c-6' },
        err: { message: 'failed', params: ['p-7'] },
        list: [{ clientSecret: 's-8' }],
      }),
      'web',
    );
    const text = JSON.stringify(row);
    for (const secret of ['pw-1', 'pw-2', 'k-3', 't-4', 'b-5', 'c-6', 'p-7', 's-8']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('careless');
  });

  it('ignores a line that is not JSON', () => {
    expect(toRow('not json', 'web')).toBeNull();
  });
});
