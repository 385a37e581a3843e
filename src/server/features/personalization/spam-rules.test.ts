import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIBRARY_TEMPLATES } from '../../seed/templates/index';
import { htmlAsSent } from '../sending/sending.service';
import { renderTemplate } from './merge-tags';
import { mergeScope, type PersonalizeContact } from './personalize';
import { htmlImageOnly, scoreSpam } from './spam-rules';
import { flattenSpintax } from './spintax';

const sent = (html: string, trackOpens: boolean) =>
  htmlAsSent({
    html,
    trackOpens,
    trackClicks: true,
    trackingBaseUrl: 'https://app.tambari.ng',
    senderName: 'Tunde Bello',
    postalAddress: '12 Allen Avenue, Ikeja, Lagos',
    fromEmail: 'tunde@bellotrading.ng',
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

/*
 * Recorded by scripts/spamassassin-pixel.ts: every library email template composed by the real sending path
 * and scored by SpamAssassin's local rules, with the pixel and without. Our emulation of HTML_IMAGE_ONLY on
 * htmlAsSent's HTML must name the same rule for each — the pre-launch check's pixel cost is SpamAssassin's.
 */
interface Recorded {
  spamassassin: string;
  composedWith: {
    trackingBaseUrl: string;
    trackClicks: boolean;
    senderName: string;
    fromEmail: string;
    postalAddress: string;
    contact: PersonalizeContact;
  };
  summary: { on: { max: number; mean: number }; off: { max: number; mean: number } };
  templates: Record<string, Record<'on' | 'off', { score: number; tests: string[]; htmlChars: number }>>;
}

describe('HTML_IMAGE_ONLY against SpamAssassin on the library templates', () => {
  const recorded = JSON.parse(
    readFileSync(new URL('../../../../tests/fixtures/spamassassin-pixel.json', import.meta.url), 'utf8'),
  ) as Recorded;
  const w = recorded.composedWith;
  const scope = mergeScope(w.contact, { fromName: w.senderName, fromEmail: w.fromEmail });
  const htmlOf = (slug: string, trackOpens: boolean) => {
    const template = LIBRARY_TEMPLATES.find((t) => t.slug === slug)!;
    return htmlAsSent({
      html: renderTemplate(flattenSpintax(template.bodyHtml), scope, 'html').output,
      trackOpens,
      trackClicks: w.trackClicks,
      trackingBaseUrl: w.trackingBaseUrl,
      senderName: w.senderName,
      postalAddress: w.postalAddress,
      fromEmail: w.fromEmail,
    });
  };

  it('names the rule SpamAssassin fired for every template, with the pixel and without', () => {
    const slugs = Object.keys(recorded.templates);
    expect(slugs.length).toBeGreaterThanOrEqual(100);
    const wrong: string[] = [];
    let compared = 0;
    for (const slug of slugs) {
      if (!LIBRARY_TEMPLATES.some((t) => t.slug === slug)) continue; // removed since the recording
      for (const key of ['on', 'off'] as const) {
        const verdict = recorded.templates[slug]![key];
        const html = htmlOf(slug, key === 'on');
        // A template edited since the recording is another message: refresh the figures to compare it.
        if ([...html].length !== verdict.htmlChars) continue;
        compared++;
        const expected = verdict.tests.find((t) => t.startsWith('HTML_IMAGE_ONLY_')) ?? null;
        const ours = htmlImageOnly(html)?.rule ?? null;
        if (ours !== expected) wrong.push(`${slug} (${key}): SpamAssassin ${expected}, ours ${ours}`);
      }
    }
    expect(wrong).toEqual([]);
    // Most of the library still matches the recording; when it does not, run the script again.
    expect(compared).toBeGreaterThanOrEqual(slugs.length);
  });
});
