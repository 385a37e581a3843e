import { describe, expect, it } from 'vitest';
import { isIanaTimeZone, timeZoneSchema } from './time-zone';

describe('timeZoneSchema', () => {
  it('accepts the IANA names the runtime knows', () => {
    for (const name of [
      'Africa/Lagos',
      'Africa/Nairobi',
      'Europe/London',
      'America/Argentina/Buenos_Aires',
      'UTC',
      'Etc/GMT+1',
    ]) {
      expect(timeZoneSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it('refuses made-up names, offsets and junk with a message that names the value', () => {
    for (const name of [
      'Not/AZone',
      'Africa/Lagoss',
      '+01:00',
      'lagos',
      '../../etc',
      'Africa/Lagos\u0000',
      '',
    ]) {
      const result = timeZoneSchema.safeParse(name);
      expect(result.success, name).toBe(false);
    }
    const result = timeZoneSchema.safeParse('Not/AZone');
    expect(result.error?.issues[0]?.message).toBe(
      'Unknown time zone "Not/AZone". Use a name like Africa/Lagos or Europe/London.',
    );
  });

  it('is what the dispatcher can format with', () => {
    expect(isIanaTimeZone('Africa/Lagos')).toBe(true);
    expect(isIanaTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
