import { describe, expect, it } from 'vitest';
import { htmlAsSent } from '../sending/sending.service';
import { htmlImageOnly, scoreSpam } from './spam-rules';

const sent = (html: string, trackOpens: boolean) =>
  htmlAsSent({
    html,
    trackOpens,
    trackClicks: true,
    trackingBaseUrl: 'https://app.tambari.ng',
    senderName: 'Tunde Bello',
    postalAddress: '12 Allen Avenue, Ikeja, Lagos',
    fromEmail: 'tunde@bellotrading.ng',
    // The placement before (always appended): what HTML_IMAGE_ONLY costs when the pixel is in.
    pixel: 'always',
  });

const SHORT =
  '<p>Hi Amaka,</p><p>We run refrigerated warehouses in Kano and Lagos. Would a short call next week help? Details: <a href="https://coldchain.ng/kano">our Kano site</a>.</p><p>Best regards,<br>Tunde</p>';
const LONG = `${SHORT}${'<p>Our trucks reach Abuja, Ibadan and Port Harcourt within a day, with temperature logs you can read on your phone at every stop along the way.</p>'.repeat(25)}`;

describe('HTML_IMAGE_ONLY, as SpamAssassin counts it', () => {
  it('fires on any <img> in an HTML part of at most 3,200 characters, banded by raw length', () => {
    const img = '<img src="https://x.test/p.gif" width="1" height="1" alt="">';
    expect(htmlImageOnly(`<p>hi</p>${img}`)).toMatchObject({ rule: 'HTML_IMAGE_ONLY_04', score: 1.68 });
    expect(htmlImageOnly(`${'a'.repeat(1000)}${img}`)).toMatchObject({ rule: 'HTML_IMAGE_ONLY_12' });
    expect(htmlImageOnly(`${img}${'a'.repeat(1500)}`)).toMatchObject({
      rule: 'HTML_IMAGE_ONLY_16',
      score: 1.969,
    });
    expect(htmlImageOnly(`${'a'.repeat(3200)}${img}`)).toBeNull();
    expect(htmlImageOnly('<p>no image here</p>')).toBeNull();
    expect(htmlImageOnly('<!-- <img src="x"> --><p>a comment is no tag</p>')).toBeNull();
    // Characters, not bytes: 1,199 characters of which 4 take 3 bytes each is still band 12.
    const curly = `${'’'.repeat(4)}${'a'.repeat(1199 - 4 - img.length)}${img}`;
    expect(Buffer.byteLength(curly)).toBeGreaterThan(1200);
    expect(htmlImageOnly(curly)).toMatchObject({ rule: 'HTML_IMAGE_ONLY_12', length: 1199 });
  });
});

describe('spam score of the message as sent', () => {
  it('adds the pixel’s HTML_IMAGE_ONLY points to a short email and nothing to a long one', () => {
    const subject = 'Cold-chain storage for Kano Foods';
    const shortOff = scoreSpam({ subject, html: SHORT, sentHtml: sent(SHORT, false) });
    const shortOn = scoreSpam({ subject, html: SHORT, sentHtml: sent(SHORT, true) });
    const cost = htmlImageOnly(sent(SHORT, true));
    expect(cost).not.toBeNull();
    expect(htmlImageOnly(sent(SHORT, false))).toBeNull();
    expect(shortOn.score - shortOff.score).toBeCloseTo(cost!.score, 0);
    expect(shortOn.score).toBeGreaterThanOrEqual(shortOff.score + 1.3);
    const hit = shortOn.hits.find((h) => h.rule === 'image_only');
    expect(hit?.description).toMatch(/open-tracking pixel/);
    expect(hit?.score).toBe(cost!.score);

    expect(sent(LONG, true).length).toBeGreaterThan(3200);
    const longOff = scoreSpam({ subject, html: LONG, sentHtml: sent(LONG, false) });
    const longOn = scoreSpam({ subject, html: LONG, sentHtml: sent(LONG, true) });
    expect(longOn.score).toBe(longOff.score);
    expect(longOn.hits.map((h) => h.rule)).not.toContain('image_only');
  });

  it('places the pixel where the sender puts it: last in the body, before the footer', () => {
    const html = sent(SHORT, true);
    expect(html).toMatch(/<img src="https:\/\/app\.tambari\.ng\/t\/o\/[A-Za-z0-9_-]+\.gif"/);
    expect(html.indexOf('/t/o/')).toBeLessThan(html.indexOf('Unsubscribe'));
  });
});
