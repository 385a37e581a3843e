import { describe, expect, it } from 'vitest';
import { outOfOfficePausedUntil } from './out-of-office-pause';

const at = new Date('2027-03-20T10:00:00Z');

describe('outOfOfficePausedUntil', () => {
  it('is 08:00 in the contact zone on the day after the return date', () => {
    const returnDate = new Date('2027-03-22T00:00:00Z');
    expect(outOfOfficePausedUntil({ returnDate, timeZone: 'Africa/Lagos', at }).toISOString()).toBe(
      '2027-03-23T07:00:00.000Z',
    );
    expect(outOfOfficePausedUntil({ returnDate, timeZone: 'America/New_York', at }).toISOString()).toBe(
      '2027-03-23T12:00:00.000Z',
    );
  });

  it('follows a daylight-saving change between the message and the resume day', () => {
    // London moves to BST on Sunday 28 March 2027: 08:00 that morning is 07:00 UTC.
    const returnDate = new Date('2027-03-27T00:00:00Z');
    expect(outOfOfficePausedUntil({ returnDate, timeZone: 'Europe/London', at }).toISOString()).toBe(
      '2027-03-28T07:00:00.000Z',
    );
  });

  it('uses UTC for an unknown or missing zone and a week without a return date', () => {
    const returnDate = new Date('2027-03-22T00:00:00Z');
    expect(outOfOfficePausedUntil({ returnDate, timeZone: 'Mars/Olympus', at }).toISOString()).toBe(
      '2027-03-23T08:00:00.000Z',
    );
    expect(outOfOfficePausedUntil({ returnDate, timeZone: null, at }).toISOString()).toBe(
      '2027-03-23T08:00:00.000Z',
    );
    expect(outOfOfficePausedUntil({ returnDate: null, timeZone: 'Africa/Lagos', at }).toISOString()).toBe(
      '2027-03-27T10:00:00.000Z',
    );
  });
});
