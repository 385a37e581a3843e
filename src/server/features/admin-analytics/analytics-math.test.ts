import { describe, expect, it } from 'vitest';
import { withoutLiterals } from './database-monitor.service';
import { latencyOfBucket, percentileOf, rangeStart } from './system-analytics.service';

describe('latency histogram', () => {
  it('reads percentiles from bucket counts', () => {
    // 90 waits of about 1 s (bucket 4) and 10 of about 15 s (bucket 16).
    const histogram = new Map([
      [4, 90],
      [16, 10],
    ]);
    expect(percentileOf(histogram, 0.5)).toBe(latencyOfBucket(4));
    expect(percentileOf(histogram, 0.9)).toBe(latencyOfBucket(4));
    expect(percentileOf(histogram, 0.95)).toBe(latencyOfBucket(16));
    expect(percentileOf(new Map(), 0.5)).toBeNull();
  });

  it('gives each bucket the middle of its span', () => {
    expect(latencyOfBucket(0)).toBeCloseTo(0.1, 1);
    expect(latencyOfBucket(4)).toBeGreaterThan(1);
    expect(latencyOfBucket(4)).toBeLessThan(2 ** (5 / 4) - 1);
  });
});

describe('rangeStart', () => {
  it('aligns buckets to hours, six-hour blocks and days', () => {
    const at = new Date('2026-03-10T14:35:00Z');
    expect(rangeStart('24h', at).toISOString()).toBe('2026-03-09T15:00:00.000Z');
    expect(rangeStart('7d', at).toISOString()).toBe('2026-03-03T18:00:00.000Z');
    expect(rangeStart('30d', at).toISOString()).toBe('2026-02-09T00:00:00.000Z');
  });
});

describe('withoutLiterals', () => {
  it('hides inlined values but keeps parameters and names', () => {
    expect(withoutLiterals('SELECT * FROM "user" WHERE email = \'ada@example.com\' AND n > 42')).toBe(
      'SELECT * FROM "user" WHERE email = ? AND n > ?',
    );
    expect(withoutLiterals('SELECT * FROM t1 WHERE id = $1 LIMIT 10')).toBe(
      'SELECT * FROM t1 WHERE id = $1 LIMIT ?',
    );
    expect(withoutLiterals("SELECT 'it''s'")).toBe('SELECT ?');
  });
});
