import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatBucket,
  formatBytes,
  formatDayLabel,
  formatRate,
  formatWait,
} from './analytics-format';

describe('analytics formatting', () => {
  it('labels buckets by their size, in UTC', () => {
    expect(formatBucket('2026-03-03T14:00:00.000Z', 3600)).toBe('14:00');
    expect(formatBucket('2026-03-03T18:00:00.000Z', 6 * 3600)).toBe('Tue 18:00');
    expect(formatBucket('2026-03-03T00:00:00.000Z', 86400)).toBe('3 Mar');
    expect(formatDayLabel('2026-12-31')).toBe('31 Dec');
  });

  it('says waits, rates, sizes and ages as people read them', () => {
    expect(formatWait(null)).toBe('—');
    expect(formatWait(0.42)).toBe('0.4 s');
    expect(formatWait(42)).toBe('42 s');
    expect(formatWait(210)).toBe('3.5 min');
    expect(formatWait(7560)).toBe('2.1 h');
    expect(formatRate(null)).toBe('—');
    expect(formatRate(0.0512)).toBe('5.1 %');
    expect(formatRate(0.0004)).toBe('0.04 %');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2.4 * 1024 ** 3)).toBe('2.4 GB');
    expect(formatBytes(812 * 1024)).toBe('812 kB');
    expect(formatAge(45)).toBe('45 s');
    expect(formatAge(3 * 3600)).toBe('3 h');
    expect(formatAge(4 * 86400)).toBe('4 d');
  });
});
