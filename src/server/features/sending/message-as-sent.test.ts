import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { composeMessageAsSent } from './html-as-sent';
import { IMAGE_ONLY_MAX_CHARS, minimalHtmlFromText, prepareQueuedBody } from './message-content';

const SHORT =
  '<p>Hi Amaka,</p><p>We cut cold-chain losses. See <a href="https://bello.ng/case">the case</a>.</p><p>Tunde</p>';
const LONG = `${SHORT}${'<p>Some more words about what we do and why it matters to your team in Lagos.</p>'.repeat(45)}`;
const base = {
  subject: 'Cold storage in Kano',
  trackClicks: true,
  trackingBaseUrl: 'https://app.tambari.ng',
  account: {
    fromName: 'Tunde Bello',
    fromEmail: 'tunde@bellotrading.ng',
    postalAddress: '12 Allen Avenue, Ikeja',
  },
  to: { name: 'Amaka Okonkwo', email: 'amaka@kanofoods.ng' },
};

describe('composeMessageAsSent: the raw message the pre-launch check scores', () => {
  it('is the dispatcher’s message: headers, text and HTML parts, tracked links, footer, List-Unsubscribe', async () => {
    const sent = composeMessageAsSent({ ...base, html: LONG, trackOpens: true });
    const parsed = await simpleParser(sent.raw);
    expect(parsed.subject).toBe('Cold storage in Kano');
    expect(parsed.from?.text).toContain('tunde@bellotrading.ng');
    // mailparser gathers the List-* headers under `list`.
    expect(parsed.headers.get('list')).toMatchObject({
      unsubscribe: { url: expect.stringContaining('/u/') },
    });
    expect(sent.raw.toString('utf8')).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(parsed.html).toContain('https://app.tambari.ng/t/c/');
    expect(parsed.html).toContain('/t/o/');
    expect(parsed.html).toContain('Unsubscribe');
    expect(parsed.text).toContain('https://bello.ng/case'); // the text part's links are the author's
    expect(parsed.text).toContain('12 Allen Avenue, Ikeja');
    expect(sent.pixel).toBe(true);
  });

  it('leaves the pixel out of a short email without images, where it would make it "image only"', async () => {
    const sent = composeMessageAsSent({ ...base, html: SHORT, trackOpens: true });
    expect(sent.pixel).toBe(false);
    expect(sent.html).not.toMatch(/<img/i);
    expect([...sent.html].length).toBeLessThanOrEqual(IMAGE_ONLY_MAX_CHARS);
    // The placement before: always appended.
    const before = composeMessageAsSent({ ...base, html: SHORT, trackOpens: true, pixel: 'always' });
    expect(before.pixel).toBe(true);
    expect(before.html).toMatch(/<img src="https:\/\/app\.tambari\.ng\/t\/o\//);
  });

  it('keeps the pixel in a short email that already carries the author’s image (it adds no "image only")', () => {
    const html = `${SHORT}<img src="https://bello.ng/logo.png" alt="Bello">`;
    const body = prepareQueuedBody({
      html,
      token: 'tok',
      trackingBaseUrl: base.trackingBaseUrl,
      trackOpens: true,
      trackClicks: false,
    });
    expect(body.pixel).toBe(true);
    expect(body.html.match(/<img/g)).toHaveLength(2);
  });
});

describe('plain-text-first body formats', () => {
  it('text: one text/plain part, no HTML, no pixel, no tracked links, the footer in the text', async () => {
    const sent = composeMessageAsSent({ ...base, html: LONG, trackOpens: true, bodyFormat: 'text' });
    const parsed = await simpleParser(sent.raw);
    expect(parsed.html).toBe(false);
    expect(parsed.headers.get('content-type')).toMatchObject({ value: 'text/plain' });
    expect(sent.raw.toString('utf8')).not.toMatch(/multipart/i);
    expect(parsed.text).toContain('Hi Amaka,');
    expect(parsed.text).toContain('https://bello.ng/case');
    expect(parsed.text).not.toContain('/t/c/');
    expect(parsed.text).toContain('Unsubscribe: https://app.tambari.ng/u/');
    expect(sent.pixel).toBe(false);
  });

  it('text_html: text first, then a minimal HTML copy of that text with its links tracked', async () => {
    const sent = composeMessageAsSent({ ...base, html: SHORT, trackOpens: true, bodyFormat: 'text_html' });
    const parsed = await simpleParser(sent.raw);
    expect(parsed.text).toContain('Hi Amaka,');
    expect(parsed.html).toBeTruthy();
    const html = parsed.html as string;
    expect(html).toContain('<p>Hi Amaka,</p>');
    expect(html).toMatch(/<a href="https:\/\/app\.tambari\.ng\/t\/c\/[^"]+">https:\/\/bello\.ng\/case<\/a>/);
    expect(html).not.toMatch(/<img/i); // short: no pixel
    // text/plain is the first alternative: mail programs that read text see it as written.
    const raw = sent.raw.toString('utf8');
    expect(raw.indexOf('text/plain')).toBeLessThan(raw.indexOf('text/html'));
  });

  it('minimal HTML: paragraphs, line breaks and escaped text only', () => {
    expect(minimalHtmlFromText('Hi <Ada> & co,\nline two\n\nSee https://x.ng/a.')).toBe(
      '<p>Hi &lt;Ada&gt; &amp; co,<br>line two</p>\n<p>See <a href="https://x.ng/a">https://x.ng/a</a>.</p>',
    );
  });
});
