import { AppError } from '@server/lib/errors';
import { describe, expect, it } from 'vitest';
import { asEmailDocument, MAX_BODY_BYTES, prepareMessageContent } from './message-content';

const TOKEN = 'q1W2e3R4t5Y6u7I8o9P0aA';
const BASE = 'https://track.example.com';
const PIXEL = `<img src="${BASE}/t/o/${TOKEN}.gif" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`;

function prepare(html: string, overrides: Partial<Parameters<typeof prepareMessageContent>[0]> = {}) {
  return prepareMessageContent({
    html,
    token: TOKEN,
    trackingBaseUrl: BASE,
    trackOpens: true,
    trackClicks: true,
    // The pixel's mechanics; where it is left out is pixel placement's (message-as-sent.test.ts).
    pixel: 'always',
    ...overrides,
  });
}

describe('click tracking', () => {
  it('rewrites every http(s) link to an opaque click link and keeps the originals by index', () => {
    const { html, links } = prepare(
      '<p><a href="https://shop.example.com/a?x=1&amp;y=2">Shop</a> <a href="http://blog.example.com/">Blog</a> ' +
        '<a href="https://shop.example.com/a?x=1&amp;y=2">Shop again</a></p>',
      { trackOpens: false },
    );
    expect(links).toEqual(['https://shop.example.com/a?x=1&y=2', 'http://blog.example.com/']);
    expect(html).toBe(
      `<p><a href="${BASE}/t/c/${TOKEN}/0">Shop</a> <a href="${BASE}/t/c/${TOKEN}/1">Blog</a> ` +
        `<a href="${BASE}/t/c/${TOKEN}/0">Shop again</a></p>`,
    );
  });

  it('leaves mailto:, tel:, anchors, relative links and marked links alone', () => {
    const { html, links } = prepare(
      '<a href="mailto:ada@sender.ng">Mail</a><a href="tel:+2348012345678">Call</a><a href="#offer">Offer</a>' +
        '<a href="/relative">Rel</a><a href="{{ link }}">Tag</a><a>No href</a>' +
        '<a data-tambari-notrack href="https://private.example.com/doc">Private</a>',
      { trackOpens: false },
    );
    expect(links).toEqual([]);
    expect(html).toBe(
      '<a href="mailto:ada@sender.ng">Mail</a><a href="tel:+2348012345678">Call</a><a href="#offer">Offer</a>' +
        '<a href="/relative">Rel</a><a href="{{ link }}">Tag</a><a>No href</a>' +
        '<a href="https://private.example.com/doc">Private</a>',
    );
  });

  it('never wraps an unsubscribe link or one of our own tracking links', () => {
    const unsubscribe = `${BASE}/u/${TOKEN}`;
    const { html, links } = prepare(
      `<a href="${unsubscribe}">Unsubscribe</a><a href="${BASE}/t/c/other/3">x</a>`,
      {
        trackOpens: false,
      },
    );
    expect(links).toEqual([]);
    expect(html).toContain(`href="${unsubscribe}"`);
  });

  it('drops the no-track marker even when nothing is tracked', () => {
    const { html } = prepare('<a data-tambari-notrack="" href="https://x.example/">x</a>', {
      trackOpens: false,
      trackClicks: false,
    });
    expect(html).toBe('<a href="https://x.example/">x</a>');
  });

  it('tracks nothing when click tracking is off', () => {
    const source = '<p><a href="https://shop.example.com/">Shop</a></p>';
    const { html, links } = prepare(source, { trackClicks: false, trackOpens: false });
    expect(links).toEqual([]);
    expect(html).toBe(source);
  });

  it('keeps the markup it did not touch: doctype, head styles, conditional comments, entities, UTF-8', () => {
    const source =
      '<!DOCTYPE html><html><head><style>p > a { color: #f00 }</style>' +
      '<!--[if mso]><xml><o:PixelsPerInch>96</o:PixelsPerInch></xml><![endif]--></head>' +
      '<body><p>Ẹ kú àárọ̀ &amp; welcome&nbsp;<a href="https://example.com">x</a></p></body></html>';
    const { html } = prepare(source, { trackOpens: false });
    expect(html).toBe(source.replace('https://example.com', `${BASE}/t/c/${TOKEN}/0`));
  });
});

describe('open pixel', () => {
  it('appends a 1×1 pixel at the end of the body', () => {
    const { html } = prepare('<html><body><p>Hi</p></body></html>', { trackClicks: false });
    expect(html).toBe(`<html><body><p>Hi</p>${PIXEL}</body></html>`);
  });

  it('appends it at the end of a fragment without a body', () => {
    expect(prepare('<p>Hi</p>', { trackClicks: false }).html).toBe(`<p>Hi</p>${PIXEL}`);
  });

  it('adds no pixel when open tracking is off', () => {
    const { html } = prepare('<html><body><p>Hi</p></body></html>', {
      trackOpens: false,
      trackClicks: false,
    });
    expect(html).toBe('<html><body><p>Hi</p></body></html>');
  });

  it('accepts a tracking base URL with a trailing slash', () => {
    const { html } = prepare('<p><a href="https://a.example/">a</a></p>', { trackingBaseUrl: `${BASE}/` });
    expect(html).toBe(`<p><a href="${BASE}/t/c/${TOKEN}/0">a</a></p>${PIXEL}`);
  });
});

describe('plain-text part', () => {
  it('is made from the original HTML with the original URLs, not the tracked ones', () => {
    const { text } = prepare(
      '<html><head><title>Offer</title><style>p{}</style></head><body><h1>Hello Tunde</h1>' +
        '<p>See <a href="https://shop.example.com/offer">our offer</a> or <a href="mailto:ada@sender.ng">write</a>.</p>' +
        '<p><a href="https://shop.example.com">https://shop.example.com</a></p><img src="https://img.example/logo.png" alt="Logo"></body></html>',
    );
    expect(text).toContain('Hello Tunde');
    expect(text).not.toContain('HELLO');
    expect(text).toContain('See our offer [https://shop.example.com/offer] or write [ada@sender.ng].');
    expect(text).toContain('https://shop.example.com');
    expect(text).not.toContain('[https://shop.example.com]');
    expect(text).not.toContain('/t/');
    expect(text).not.toContain('logo.png');
    expect(text).not.toContain('p{}');
  });

  it('uses the given text as it is, and generates one when it is blank', () => {
    expect(prepare('<p>Hi</p>', { text: 'Hand-written text' }).text).toBe('Hand-written text');
    expect(prepare('<p>Hi</p>', { text: '   ' }).text).toBe('Hi');
    expect(prepare('<p>Hi</p>', { text: null }).text).toBe('Hi');
  });
});

describe('bad input', () => {
  it('rejects a 10 MB body with a clear error, before parsing it', () => {
    const html = `<p>${'x'.repeat(10 * 1024 * 1024)}</p>`;
    expect(() => prepare(html)).toThrow(new AppError('validation', 'The email body is too large (max 2 MB)'));
  });

  it('counts the limit in UTF-8 bytes', () => {
    // One million "ẹ" are 1 M characters but 3 MB of UTF-8.
    expect(() => prepare('ẹ'.repeat(1_000_000))).toThrow('The email body is too large (max 2 MB)');
    // Exactly at the limit is fine.
    const atLimit = 'x'.repeat(MAX_BODY_BYTES);
    expect(prepare(atLimit, { trackOpens: false, trackClicks: false, text: 'short' }).html).toBe(atLimit);
  });

  it('rejects an oversized text part too', () => {
    expect(() => prepare('<p>Hi</p>', { text: 'x'.repeat(MAX_BODY_BYTES + 1) })).toThrow(
      'The plain-text body is too large (max 2 MB)',
    );
  });

  it('refuses a token that could break out of a URL or a header', () => {
    expect(() => prepare('<p>Hi</p>', { token: 'abc/../x' })).toThrow('Invalid message token');
    expect(() => prepare('<p>Hi</p>', { token: 'abc\r\nBcc: x@y' })).toThrow(AppError);
    expect(() => prepare('<p>Hi</p>', { token: '' })).toThrow(AppError);
  });

  it('refuses a tracking base URL that could break out of an attribute', () => {
    expect(() => prepare('<p>Hi</p>', { trackingBaseUrl: 'https://x.example/"><script>' })).toThrow(
      'Invalid tracking URL',
    );
    expect(() => prepare('<p>Hi</p>', { trackingBaseUrl: 'javascript:alert(1)' })).toThrow(
      'Invalid tracking URL',
    );
  });
});

describe('asEmailDocument', () => {
  it('gives an editor fragment a document with a readable sans-serif font', () => {
    const html = asEmailDocument('<p>Hi Ada,</p><p>Quick question.</p>');
    expect(html).toMatch(/^<!DOCTYPE html><html><head><meta charset="utf-8">/);
    expect(html).toContain(
      '<div style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;color:#222222"><p>Hi Ada,</p><p>Quick question.</p></div></body></html>',
    );
  });

  it('leaves a body that is already a document exactly as it is', () => {
    for (const document of [
      '<html><body><p>Hi</p></body></html>',
      '<!DOCTYPE html>\n<HTML lang="en"><BODY style="x"><p>Hi</p></BODY></HTML>',
      '<body><p>Hi</p></body>',
      '<!DOCTYPE html><head><style>p{margin:0}</style></head><p>Hi</p>',
    ]) {
      expect(asEmailDocument(document)).toBe(document);
    }
  });
});
