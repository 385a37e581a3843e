import { describe, expect, it } from 'vitest';
import { scoreSpam } from '../personalization/personalization.service';
import { addSendingDays, checkLinks, dailyCapacity, estimateFinish, windowSeconds } from './prelaunch-checks';

const weekdays = [1, 2, 3, 4, 5];
const lagos = {
  sendDays: weekdays,
  windowStartMinute: 8 * 60,
  windowEndMinute: 17 * 60,
  timeZone: 'Africa/Lagos',
};
const step = { delayDays: 0, delayHours: 0, businessDays: false };

describe('spam score', () => {
  it('scores a spammy email above the threshold and a clean one far below', () => {
    const spammy = scoreSpam({
      subject: 'URGENT!!! YOU HAVE WON $$$ CASH PRIZE',
      html: '<p>Dear beneficiary, act now to claim your funds. 100% guaranteed, no risk, this is not spam!!!</p><p>Wire transfer the processing fee via Western Union. <a href="http://192.168.4.4/claim">click here</a></p>',
    });
    expect(spammy.spammy).toBe(true);
    expect(spammy.score).toBeGreaterThan(10);
    const rules = spammy.hits.map((h) => h.rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        'subject_caps',
        'subject_exclaim',
        'dollar_signs',
        'body_exclaim_run',
        'ip_link',
        'phrase:shady',
      ]),
    );

    const clean = scoreSpam({
      subject: 'Cold-chain storage for Kano Foods',
      html: '<p>Hi {{ firstName | default: "there" }},</p><p>We run refrigerated warehouses in Kano and Lagos and help food processors cut spoilage. Would a short call next week be useful to compare notes on your distribution?</p><p>Best regards,<br>Tunde</p>',
    });
    expect(clean.spammy).toBe(false);
    expect(clean.score).toBeLessThan(1);
  });

  it('flags an image-only email, hidden text and a disguised link', () => {
    const report = scoreSpam({
      subject: 'Our offer',
      html: '<div style="display:none">hidden</div><a href="https://evil.test/x">https://mybank.com/login</a><img src="https://cdn.test/offer.png">',
    });
    const rules = report.hits.map((h) => h.rule);
    expect(rules).toEqual(expect.arrayContaining(['image_only', 'hidden_text', 'link_text_mismatch']));
  });

  it('counts a phrase once and caps each category', () => {
    const once = scoreSpam({ subject: 'x', html: '<p>act now</p>' }).score;
    const many = scoreSpam({ subject: 'x', html: `<p>${'act now. '.repeat(50)}</p>` }).score;
    expect(many).toBe(once);
    const urgency = scoreSpam({
      subject: 'x',
      html: '<p>act now, act immediately, buy now, call now, final notice, last chance, order now, respond now, urgent response, top urgent</p>',
    });
    const total = urgency.hits
      .filter((h) => h.rule === 'phrase:urgency')
      .reduce((sum, h) => sum + h.score, 0);
    expect(total).toBeCloseTo(2.5);
  });
});

describe('links', () => {
  it('finds shorteners, broken-looking and insecure links, skipping merge tags and placeholders', () => {
    const problems = checkLinks(
      [
        '<a href="https://bit.ly/3xYz">a</a>',
        '<a href="https://www.tinyurl.com/abc">b</a>',
        '<a href="http://kanofoods.ng/about">c</a>',
        '<a href="www.kanofoods.ng">d</a>',
        '<a href="#">e</a>',
        '<a href="https://localhost:3000/x">f</a>',
        '<a href="https://example.com/demo">g</a>',
        '<a href="javascript:alert(1)">h</a>',
        '<a href="mailto:hello">i</a>',
        '<a href="{{ website }}">j</a>',
        '<a href="https://kanofoods.ng/ok">k</a>',
        '<a href="mailto:hello@kanofoods.ng">l</a>',
        '<p>Visit https://cutt.ly/zz today</p>',
      ].join(''),
    );
    expect(problems.shortened).toEqual([
      'https://bit.ly/3xYz',
      'https://www.tinyurl.com/abc',
      'https://cutt.ly/zz',
    ]);
    expect(problems.insecure).toEqual(['http://kanofoods.ng/about']);
    expect(problems.broken.map((b) => b.url)).toEqual([
      'www.kanofoods.ng',
      '#',
      'https://localhost:3000/x',
      'javascript:alert(1)',
      'mailto:hello',
    ]);
    expect(problems.broken[0]!.reason).toBe('it needs https:// in front');
  });
});

describe('capacity and estimated finish', () => {
  it('bounds each account by its cap and by its gaps in the window, then by the campaign cap', () => {
    expect(windowSeconds(8 * 60, 17 * 60)).toBe(9 * 3600);
    expect(windowSeconds(22 * 60, 6 * 60)).toBe(8 * 3600);
    expect(windowSeconds(0, 0)).toBe(86_400);
    const base = { windowStartMinute: 480, windowEndMinute: 1020, dailyCap: null };
    const accounts = [{ cap: 50 }, { cap: 30 }];
    expect(dailyCapacity({ ...base, accounts, gapMinSeconds: 60, gapMaxSeconds: 180 })).toBe(80);
    expect(dailyCapacity({ ...base, accounts, gapMinSeconds: 60, gapMaxSeconds: 180, dailyCap: 60 })).toBe(
      60,
    );
    // 9 hours at one message per 20 minutes: 27 each.
    expect(dailyCapacity({ ...base, accounts, gapMinSeconds: 1200, gapMaxSeconds: 1200 })).toBe(54);
    expect(dailyCapacity({ ...base, accounts: [], gapMinSeconds: 0, gapMaxSeconds: 0 })).toBe(0);
  });

  it('counts sending days in the campaign zone, skipping weekends and a closed window', () => {
    // Monday 2 March 2026, 09:00 in Lagos (UTC+1).
    const monday = new Date('2026-03-02T08:00:00Z');
    expect(addSendingDays({ ...lagos, from: monday, count: 1 }).toISOString()).toBe(
      '2026-03-02T16:00:00.000Z',
    );
    expect(addSendingDays({ ...lagos, from: monday, count: 2 }).toISOString()).toBe(
      '2026-03-03T16:00:00.000Z',
    );
    // Friday 09:00: Friday, Monday, Tuesday.
    const friday = new Date('2026-03-06T08:00:00Z');
    expect(addSendingDays({ ...lagos, from: friday, count: 3 }).toISOString()).toBe(
      '2026-03-10T16:00:00.000Z',
    );
    // Monday 18:00, after the window: Monday no longer counts.
    const evening = new Date('2026-03-02T17:00:00Z');
    expect(addSendingDays({ ...lagos, from: evening, count: 1 }).toISOString()).toBe(
      '2026-03-03T16:00:00.000Z',
    );
  });

  it('estimates from volume, or from the last step’s delay when that is later', () => {
    const start = new Date('2026-03-02T08:00:00Z');
    // 100 contacts × 1 step at 50 a day: two sending days.
    expect(
      estimateFinish({ ...lagos, start, audienceSize: 100, steps: [step], dailyCapacity: 50 })?.toISOString(),
    ).toBe('2026-03-03T16:00:00.000Z');
    // Two steps, 3 days apart, 100 a day: volume says Tuesday, the delay says Thursday.
    expect(
      estimateFinish({
        ...lagos,
        start,
        audienceSize: 100,
        steps: [step, { ...step, delayDays: 3 }],
        dailyCapacity: 100,
      })?.toISOString(),
    ).toBe('2026-03-05T16:00:00.000Z');
    // Two steps at 50 a day: 4 sending days of volume beat the delay.
    expect(
      estimateFinish({
        ...lagos,
        start,
        audienceSize: 100,
        steps: [step, { ...step, delayDays: 1 }],
        dailyCapacity: 50,
      })?.toISOString(),
    ).toBe('2026-03-05T16:00:00.000Z');
    expect(
      estimateFinish({ ...lagos, start, audienceSize: 100, steps: [step], dailyCapacity: 0 }),
    ).toBeNull();
    expect(estimateFinish({ ...lagos, start, audienceSize: 0, steps: [step], dailyCapacity: 10 })).toBeNull();
  });
});
