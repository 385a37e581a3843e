import { describe, expect, it } from 'vitest';
import { timeOrderedUuid, writeSecondsPrefix } from './time-ordered-id';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a UUIDv7 whose first 48 bits are the time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 29, 1, 30, 0, 123);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('sorts by time, and ids of the same millisecond still differ', () => {
    const earlier = timeOrderedUuid(1_800_000_000_000);
    const later = timeOrderedUuid(1_800_000_000_001);
    expect(earlier < later).toBe(true);
    const same = new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(1_800_000_000_000)));
    expect(same.size).toBe(1000);
  });
});

describe('writeSecondsPrefix', () => {
  it('writes the seconds big-endian, so byte order is time order', () => {
    const a = Buffer.alloc(4);
    const b = Buffer.alloc(4);
    writeSecondsPrefix(a, 0, 1_800_000_000_999);
    writeSecondsPrefix(b, 0, 1_800_000_001_000);
    expect(a.readUInt32BE(0)).toBe(1_800_000_000);
    expect(Buffer.compare(a, b)).toBe(-1);
  });
});
