import { AppError } from '@server/lib/errors';
import { EMAIL_BODY_MAX_BYTES } from '@shared/email-body';
import { type BodyFormat, type CampaignKind, TRACKING_PATHS } from '@shared/sending';
import { compile } from 'html-to-text';
import { DomUtils, parseDocument } from 'htmlparser2';
import { hasSenderPlaceholders } from './sender-placeholders';

/*
 * The per-message body, prepared once when a message is queued: tracked links, the open pixel and the
 * plain-text part. The compliance footer and headers come later, at send time (message-envelope.ts), so
 * the unsubscribe link is never wrapped in click tracking.
 */

/** The largest body we accept, HTML or text, in UTF-8 bytes. Bigger mail is clipped by Gmail (102 KB) anyway. */
export const MAX_BODY_BYTES = EMAIL_BODY_MAX_BYTES;

type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

/** The outbox token goes into URLs and headers: only characters that need no escaping anywhere. */
/** Marks a link the sender does not want tracked (a private document, a calendar link). */
const NO_TRACK_ATTRIBUTE = 'data-tambari-notrack';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export function assertTrackingToken(token: string): void {
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) {
    throw new AppError('validation', 'Invalid message token');
  }
}

// Scheme, host, port and path only: nothing that could close an HTML attribute or a header's <…>.
const TRACKING_BASE_PATTERN = /^https?:\/\/[A-Za-z0-9.\-:/_~%@]+$/;

/** The tracking base URL without its trailing slash, or a validation error. */
export function checkedTrackingBase(trackingBaseUrl: string): string {
  const base = typeof trackingBaseUrl === 'string' ? trackingBaseUrl.trim().replace(/\/+$/, '') : '';
  if (!TRACKING_BASE_PATTERN.test(base)) throw new AppError('validation', 'Invalid tracking URL');
  return base;
}

export function assertBodySize(body: string, label: 'email body' | 'plain-text body'): void {
  // UTF-8 never takes fewer bytes than UTF-16 code units, so the length check rejects a 10 MB body
  // without encoding it.
  if (body.length > MAX_BODY_BYTES || Buffer.byteLength(body, 'utf8') > MAX_BODY_BYTES) {
    throw new AppError('validation', `The ${label} is too large (max 2 MB)`);
  }
}

// Built once: compiling the converter's selectors is the expensive part of html-to-text.
const htmlToText = compile({
  wordwrap: 80,
  selectors: [
    // "text [url]" with the original URL; a link whose text is its URL prints once.
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    // Image URLs in a text part are noise (and tracking pixels, if a template carries its own).
    { selector: 'img', format: 'skip' },
    // Headings as written: html-to-text shouts them in capitals by default.
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

function isTrackableUrl(href: string, ownPrefixes: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false; // relative links, "{{merge tags}}", garbage: left as they are
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false; // mailto:, tel:, sms:…
  // A link with the sender's name or address in it is filled when the account is known, at sending.
  if (hasSenderPlaceholders(href)) return false;
  // Our own unsubscribe and tracking links (a template's unsubscribe merge tag): never wrapped.
  return !ownPrefixes.some((prefix) => href.startsWith(prefix));
}

/*
 * SpamAssassin's HTML_IMAGE_ONLY_04…32 fire on an HTML part that holds any <img> and is at most 3,200
 * characters long, markup included (docs/sending.md): a 1×1 open pixel in a short cold email costs it
 * 0.6–2.8 points, wherever in the body it sits. `when_free` (the default) therefore puts the pixel only
 * where it cannot be what makes the part "image only": a document already longer than that (our footer
 * only adds to it) or one that already carries the author's own images. A short, image-free email goes
 * without a pixel — its opens are not tracked, and the pre-launch check says so. `always` is the old
 * placement: newsletters and bulk email keep it (a mailing, read and reported as one), and
 * bench/template-spam.bench.ts measures the old cold-email figures with it.
 */
export const IMAGE_ONLY_MAX_CHARS = 3_200;
export type PixelPlacement = 'when_free' | 'always';

function pixelIsFree(documentHtml: string): boolean {
  // Code points never outnumber UTF-16 units, and a code point is at most two of them.
  if (documentHtml.length > 2 * IMAGE_ONLY_MAX_CHARS) return true;
  if (documentHtml.length > IMAGE_ONLY_MAX_CHARS && [...documentHtml].length > IMAGE_ONLY_MAX_CHARS)
    return true;
  return /<img[\s/>]/i.test(documentHtml.replace(/<!--[\s\S]*?-->/g, ''));
}

export function prepareMessageContent(input: {
  html: string;
  text?: string | null;
  token: string;
  trackingBaseUrl: string;
  trackOpens: boolean;
  trackClicks: boolean;
  /** Where the open pixel may go (see IMAGE_ONLY_MAX_CHARS); `when_free` unless said. */
  pixel?: PixelPlacement;
}): { html: string; text: string; links: string[]; pixel: boolean } {
  const { html, token, trackClicks } = input;
  if (typeof html !== 'string') throw new AppError('validation', 'The email body is missing');
  assertBodySize(html, 'email body');
  const givenText = typeof input.text === 'string' && input.text.trim() !== '' ? input.text : null;
  if (givenText !== null) assertBodySize(givenText, 'plain-text body');
  assertTrackingToken(token);
  const base = checkedTrackingBase(input.trackingBaseUrl);

  // The text part comes from the original HTML: tracking plain-text links is spammy and unreadable.
  const text = givenText ?? htmlToText(html);
  const links: string[] = [];
  const trackOpens = input.trackOpens && (input.pixel === 'always' || pixelIsFree(asEmailDocument(html)));
  if (!trackOpens && !trackClicks && !html.includes(NO_TRACK_ATTRIBUTE)) {
    return { html, text, links, pixel: false };
  }

  const document = parseDocument(html);
  let changed = false;

  const ownPrefixes = [`${base}${TRACKING_PATHS.unsubscribe('')}`, `${base}/t/`];
  const indexByUrl = new Map<string, number>();
  for (const anchor of DomUtils.getElementsByTagName('a', document, true)) {
    if (NO_TRACK_ATTRIBUTE in anchor.attribs) {
      // The marker is ours; it has no business in the recipient's copy.
      delete anchor.attribs[NO_TRACK_ATTRIBUTE];
      changed = true;
      continue;
    }
    if (trackClicks) {
      const href = anchor.attribs.href?.trim();
      if (!href || !isTrackableUrl(href, ownPrefixes)) continue;
      let index = indexByUrl.get(href);
      if (index === undefined) {
        index = links.length;
        links.push(href);
        indexByUrl.set(href, index);
      }
      anchor.attribs.href = `${base}${TRACKING_PATHS.click(token, index)}`;
      changed = true;
    }
  }

  if (trackOpens) {
    const pixel = parseDocument(
      `<img src="${base}${TRACKING_PATHS.open(token)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px">`,
    ).children[0]!;
    const isNamed = (name: string) => (element: Element) => element.name === name;
    const parent =
      DomUtils.findOne(isNamed('body'), document.children, true) ??
      DomUtils.findOne(isNamed('html'), document.children, true) ??
      document;
    DomUtils.appendChild(parent, pixel);
    changed = true;
  }

  // Unchanged HTML goes out byte for byte: a parse/serialize round trip normalizes markup for nothing.
  return {
    html: changed ? DomUtils.getOuterHTML(document, { encodeEntities: 'utf8', emptyAttrs: true }) : html,
    text,
    links,
    pixel: trackOpens,
  };
}

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * The minimal HTML copy of a plain-text body (body format `text_html`): its paragraphs and line breaks,
 * and its web addresses as links — nothing else, so it reads as the typed email it stands for.
 */
export function minimalHtmlFromText(text: string): string {
  const linked = (line: string) =>
    escapeHtml(line).replace(
      /https?:\/\/[^\s<>"\][]+[^\s<>"\][.,;:!?)]/g,
      (url) => `<a href="${url}">${url}</a>`,
    );
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.split('\n').map(linked).join('<br>')}</p>`)
    .join('\n');
}

/**
 * The body as the outbox stores it, in the campaign's body format (shared/sending.ts BODY_FORMATS): the
 * HTML document with tracking applied and the plain-text part — or, for `text`, no HTML at all (an empty
 * string: the message goes out as a single text/plain part). queueMessages and the pre-launch check's
 * composeMessageAsSent both call this, so what is scored is what is queued.
 */
export function prepareQueuedBody(input: {
  html: string;
  text?: string | null;
  token: string;
  trackingBaseUrl: string;
  trackOpens: boolean;
  trackClicks: boolean;
  bodyFormat?: BodyFormat;
  /** Cold outreach (`campaign`, the default) places the pixel `when_free`; newsletters and bulk `always`. */
  kind?: CampaignKind;
  pixel?: PixelPlacement;
}): { html: string; text: string; links: string[]; pixel: boolean } {
  const format = input.bodyFormat ?? 'html';
  // A newsletter is a mailing and is read as one; its opens are its report. Cold email is one-to-one.
  input = {
    ...input,
    pixel: input.pixel ?? ((input.kind ?? 'campaign') === 'campaign' ? 'when_free' : 'always'),
  };
  if (format === 'text') {
    // Still through prepareMessageContent: the same size limits and the same text conversion.
    const content = prepareMessageContent({ ...input, trackOpens: false, trackClicks: false });
    return { html: '', text: content.text, links: [], pixel: false };
  }
  if (format === 'text_html') {
    const text = prepareMessageContent({ ...input, trackOpens: false, trackClicks: false }).text;
    const content = prepareMessageContent({ ...input, html: minimalHtmlFromText(text), text });
    return { ...content, html: asEmailDocument(content.html) };
  }
  const content = prepareMessageContent(input);
  return { ...content, html: asEmailDocument(content.html) };
}

// A doctype, <html>, <head> or <body>: HTML5 lets a document leave out the tags it does not need.
const HAS_DOCUMENT = /<(?:!doctype|html|head|body)[\s>]/i;

/**
 * A body the editor gave as a fragment (`<p>Hi Ada,</p>…`) as a whole email document with a readable
 * default font. Mail programs show an unstyled fragment in their own default font, which for Outlook on
 * Windows is Times New Roman; a cold email should look typed in a mail program: sans-serif at a reading
 * size, no background, no padding. A body that is already a document (a bulk email, a pasted template)
 * is left exactly as it is. Applied after prepareMessageContent, so the body's size limit and its links
 * are the author's.
 */
export function asEmailDocument(html: string): string {
  if (HAS_DOCUMENT.test(html)) return html;
  return (
    '<!DOCTYPE html><html><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
    '<body style="margin:0;padding:0">' +
    `<div style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;color:#222222">${html}</div>` +
    '</body></html>'
  );
}
