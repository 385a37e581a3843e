import { describe, expect, it } from 'vitest';
import { parseReturnDate } from './return-date';

// Tuesday 24 November 2026, mid-morning in Lagos.
const written = new Date('2026-11-24T09:30:00Z');
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe('parseReturnDate', () => {
  it.each([
    ['I will be back on 3 December.', '2026-12-03'],
    ['I will be back on December 3rd, 2026.', '2026-12-03'],
    ['I shall return on 12/01/2027 and reply then.', '2027-01-12'],
    ['Out of the office until Monday 7th with no access to email.', '2026-12-07'],
    // The 5th of December is a Saturday; the next 5th that is a Tuesday is in January.
    ['Out of the office until Tuesday 5th.', '2027-01-05'],
    // No Monday 5th within three months: the weekday is a slip, the nearest 5th wins.
    ['Out of the office until Monday 5th.', '2026-12-05'],
    ['Je suis absente et serai de retour le 4 janvier.', '2027-01-04'],
    ["Je suis en congé jusqu'au vendredi 27 novembre inclus.", '2026-11-27'],
    ['Back in the office on Monday, 30 November.', '2026-11-30'],
    ['I am on annual leave, returning 2026-12-14.', '2026-12-14'],
    ['I will be back Monday.', '2026-11-30'],
    ['Back tomorrow!', '2026-11-25'],
    ['Returning on the 7th of December', '2026-12-07'],
    ['I am away till Dec. 9', '2026-12-09'],
    ['Retour prévu le 02.12.2026.', '2026-12-02'],
    ['I am out until 12/25 visiting family.', '2026-12-25'],
  ])('reads %j', (text, expected) => {
    expect(parseReturnDate(text, written)).toEqual(day(expected));
  });

  it('prefers the return day over an "until" day in the same message', () => {
    const text = 'I am out of the office until Friday 4 December. I will be back on Monday 7 December.';
    expect(parseReturnDate(text, written)).toEqual(day('2026-12-07'));
  });

  it('rolls a month-and-day in the past of the year over to next year only when it is months ago', () => {
    const december = new Date('2026-12-20T10:00:00Z');
    expect(parseReturnDate('back on 4 January', december)).toEqual(day('2027-01-04'));
    // A week-old date is a stale auto-reply left on, not a date a year away.
    expect(parseReturnDate('back on 13 December', december)).toBeNull();
  });

  it('answers null when no date can be read or the date is impossible', () => {
    expect(parseReturnDate('I am out of the office with limited access to email.', written)).toBeNull();
    expect(parseReturnDate('I will be back on 31 February.', written)).toBeNull();
    expect(parseReturnDate('Back on 3 December 2031.', written)).toBeNull();
    expect(parseReturnDate('Back on 1 January 2020.', written)).toBeNull();
    // A time is not a day of the month.
    expect(parseReturnDate('I will get back to you at 10:30.', written)).toBeNull();
    expect(parseReturnDate('', written)).toBeNull();
  });

  it('does not hang on long hostile input', () => {
    const text = `back ${'1/'.repeat(50_000)} until ${'monday '.repeat(20_000)}`;
    expect(parseReturnDate(text, written)).not.toBeUndefined();
  });
});
