import { describe, expect, it } from 'vitest';
import { COMMON_TIME_ZONES, timeZoneOptions } from './time-zones';

describe('timeZoneOptions', () => {
  it('offers the common zones first, Lagos at the top, then the rest sorted without repeats', () => {
    const options = timeZoneOptions(undefined, ['Europe/Paris', 'Africa/Lagos', 'America/New_York']);
    expect(options[0]).toMatchObject({ value: 'Africa/Lagos', label: 'Africa / Lagos', group: 'Common' });
    expect(options.slice(COMMON_TIME_ZONES.length).map((option) => option.value)).toEqual([
      'America/New_York',
      'Europe/Paris',
    ]);
    expect(options.filter((option) => option.value === 'Africa/Lagos')).toHaveLength(1);
  });

  it('reads underscores as spaces and finds a zone by its city', () => {
    const dar = timeZoneOptions().find((option) => option.value === 'Africa/Dar_es_Salaam');
    expect(dar).toMatchObject({ label: 'Africa / Dar es Salaam' });
    expect(dar?.keywords).toContain('Dar es Salaam');
  });

  it('keeps a saved zone this browser does not list', () => {
    const options = timeZoneOptions('Mars/Olympus_Mons', ['Europe/Paris']);
    expect(options.map((option) => option.value)).toContain('Mars/Olympus_Mons');
  });

  it('lists every zone the runtime knows', () => {
    const known = Intl.supportedValuesOf('timeZone');
    expect(timeZoneOptions().length).toBeGreaterThanOrEqual(known.length);
  });
});
