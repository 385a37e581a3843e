/**
 * What the visual editor can hold. Its schema keeps paragraphs, headings, lists, quotes, bold/italic/
 * underline/strike, links and line breaks; anything else (tables, images, inline styles, classes) is
 * dropped when HTML passes through it. The source view keeps the HTML exactly as written.
 */
const UNSUPPORTED_MARKUP =
  /<\s*(table|thead|tbody|tr|td|th|img|div|span|font|center|style|center|section|article|header|footer|button|video|iframe|svg|picture|source|map|area)\b|\sstyle\s*=|\sclass\s*=|\sbgcolor\s*=|\salign\s*=/i;

/** True when switching this HTML to the visual editor would lose parts of it (layout, images, styles). */
export function hasUnsupportedMarkup(html: string): boolean {
  return UNSUPPORTED_MARKUP.test(html);
}

/** True when the HTML has no visible text (the editor answers `<p></p>` when it is empty). */
export function isEmptyHtml(html: string): boolean {
  const text = html
    .replace(/<br\s*\/?>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/gi, ' ')
    .trim();
  return text.length === 0 && !/<img\b/i.test(html);
}

/** The editor's value for an empty document is the empty string, so an untouched body stays "unwritten". */
export function normalizeEditorHtml(html: string): string {
  return isEmptyHtml(html) ? '' : html;
}

/**
 * A link typed by the user: a merge tag (`{{ website }}`) or mailto/tel stay as written, a bare domain
 * gets https://, and anything with a script-capable scheme is refused (null).
 */
export function normalizeLinkHref(input: string): string | null {
  const href = input.trim();
  if (!href) return null;
  if (/^\{\{.*\}\}/.test(href)) return href;
  if (/^(mailto:|tel:)/i.test(href)) return href;
  if (/^https?:\/\//i.test(href)) return href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return null;
  if (/^[^\s/]+\.[^\s]{2,}/.test(href)) return `https://${href}`;
  return null;
}
