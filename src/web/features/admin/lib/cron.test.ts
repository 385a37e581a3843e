import { describe, expect, it } from 'vitest';
import { describeCron } from './cron';

describe('describeCron', () => {
  it('says the simple schedules in words and leaves the rest alone', () => {
    expect(describeCron('25 3 * * *')).toBe('Daily at 03:25 UTC');
    expect(describeCron('41 * * * *')).toBe('Hourly at :41');
    expect(describeCron('*/5 * * * *')).toBe('*/5 * * * *');
    expect(describeCron('0 9 * * 1')).toBe('0 9 * * 1');
  });
});
