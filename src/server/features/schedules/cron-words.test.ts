import { JOBS } from '@server/jobs/registry';
import { describe, expect, it } from 'vitest';
import { describeCron } from './cron-words';

describe('describeCron', () => {
  it.each([
    ['* * * * *', 'Every minute'],
    ['*/10 * * * *', 'Every 10 minutes'],
    ['*/1 * * * *', 'Every minute'],
    ['23 * * * *', 'Every hour at minute 23'],
    ['0 */6 * * *', 'Every 6 hours at minute 0'],
    ['25 3 * * *', 'Every day at 03:25 UTC'],
    ['5 14 * * 1', 'Every Monday at 14:05 UTC'],
    ['0 0 * * 7', 'Every Sunday at 00:00 UTC'],
  ])('%s is "%s"', (cron, words) => {
    expect(describeCron(cron)).toBe(words);
  });

  it('answers an expression it cannot put in words as the expression itself', () => {
    expect(describeCron('0 9 1 * *')).toBe('0 9 1 * *');
    expect(describeCron('0 9-17 * * 1-5')).toBe('0 9-17 * * 1-5');
    expect(describeCron('61 * * * *')).toBe('61 * * * *');
  });

  it('puts every schedule the application declares in words', () => {
    for (const job of JOBS.filter((j) => j.cron)) expect(describeCron(job.cron!)).not.toBe(job.cron);
  });
});
