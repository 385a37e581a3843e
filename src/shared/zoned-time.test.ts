import { describe, expect, it } from 'vitest';
import { formatPausedUntil, formatZonedDateTime, zoneCity } from './zoned-time';

describe('zoneCity', () => {
  it('names the city of an IANA zone as people write it', () => {
    expect(zoneCity('Africa/Lagos')).toBe('Lagos');
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneCity('Africa/Dar_es_Salaam')).toBe('Dar es Salaam');
    expect(zoneCity('UTC')).toBe('UTC');
  });
});

describe('formatPausedUntil', () => {
  it("reads the resume time in the campaign's zone, with the zone's city", () => {
    // 07:00 UTC is 08:00 in Lagos (UTC+1 all year).
    expect(formatPausedUntil('2026-12-01T07:00:00.000Z', 'Africa/Lagos')).toBe(
      'paused until Tue 1 Dec, 08:00 (Lagos)',
    );
    // The same instant is 09:00 in Johannesburg, on the same day.
    expect(formatPausedUntil('2026-12-01T07:00:00.000Z', 'Africa/Johannesburg')).toBe(
      'paused until Tue 1 Dec, 09:00 (Johannesburg)',
    );
    // And the evening before in New York.
    expect(formatPausedUntil('2026-12-01T03:30:00.000Z', 'America/New_York')).toBe(
      'paused until Mon 30 Nov, 22:30 (New York)',
    );
  });

  it('falls back to UTC for a zone the runtime does not know', () => {
    expect(formatZonedDateTime(new Date('2026-12-01T07:00:00.000Z'), 'Mars/Olympus')).toBe(
      'Tue 1 Dec, 07:00 (UTC)',
    );
  });
});
