import {
  type ColumnBlock,
  isSafeLink,
  isUnfilledLink,
  type NewsletterBlock,
  SOCIAL_NETWORK_LABELS,
} from './newsletters';

/*
 * The block document → email-safe HTML and a plain-text part. Pure, so the browser's preview and the
 * server's send produce the same bytes. The rules of the main clients (Gmail, Outlook desktop, Apple
 * Mail, Yahoo): layout in tables, every style inline (Gmail drops <style> in some views, Outlook
 * ignores most CSS), no external CSS or fonts, a 600px container, images with width and alt,
 * explicit background and text colours that survive dark-mode inversion. The one <style> block only
 * adds what inline styles cannot express (stacking columns on phones, dark-mode tweaks); the mail
 * reads correctly without it.
 *
 * Merge tags ({{ firstName | default: "there" }}) and spintax are kept as written: they are rendered
 * per recipient when the mail is sent.
 */

const FONT = "Helvetica, Arial, 'Segoe UI', sans-serif";
const PAGE_BG = '#f3f4f6';
const CARD_BG = '#ffffff';
const LINK = '#1d4ed8';
const DEFAULT_TEXT = new Set(['#111827', '#374151']);
const CONTAINER = 600;
const SIDE_PADDING = 32;
const COLUMN_WIDTH = Math.floor((CONTAINER - SIDE_PADDING * 2) / 2) - 8;

const LIQUID = /(\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\})/;

function escapePlain(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Escapes text for HTML, leaving merge tags as written for the template engine (its quotes stay quotes,
 * so `default: "there"` works). The engine HTML-escapes every value it outputs, and drops a tag that
 * does not parse, so nothing inside a tag reaches a reader as markup.
 */
export function escapeHtml(value: string): string {
  return value
    .split(LIQUID)
    .map((part, i) => (i % 2 === 1 ? part : escapePlain(part)))
    .join('');
}

/** An attribute value (links, alt text): everything escaped. */
function escapeAttr(value: string): string {
  return escapePlain(value);
}

/**
 * ` href="…"` for a safe link; nothing for any other, so the text stays without a link (the send-time
 * check in shared/mail-links.ts removes such links from any HTML the same way).
 */
function hrefAttr(value: string): string {
  const v = value.trim();
  return isSafeLink(v) ? ` href="${escapeAttr(v)}"` : '';
}

/** A URL for the text part: shown only when it is a link a reader can follow. */
function plainUrl(value: string): string | null {
  const v = value.trim();
  return isSafeLink(v) ? v : null;
}

function safeImageSrc(value: string): string | null {
  const v = value.trim();
  return /^https?:\/\/[^\s"'<>]+$/i.test(v) ? escapeAttr(v) : null;
}

function textClass(color: string, muted = false): string {
  if (muted) return ' class="tb-muted"';
  return DEFAULT_TEXT.has(color.toLowerCase()) ? ' class="tb-text"' : '';
}

/** **bold**, *italic* and [label](https://…) inside one paragraph; everything else escaped. */
function inline(raw: string): string {
  const linkPattern = /\[([^\]\n]{1,300})\]\(([^)\s]{1,2000})\)/g;
  let out = '';
  let last = 0;
  for (const match of raw.matchAll(linkPattern)) {
    out += emphasis(raw.slice(last, match.index));
    out += `<a${hrefAttr(match[2]!)} target="_blank" style="color:${LINK};text-decoration:underline;">${emphasis(match[1]!)}</a>`;
    last = match.index + match[0].length;
  }
  out += emphasis(raw.slice(last));
  return out.replace(/\n/g, '<br>');
}

function emphasis(raw: string): string {
  return escapeHtml(raw)
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong style="font-weight:700;">$1</strong>')
    .replace(/\*([^*\s][^*\n]*)\*/g, '<em style="font-style:italic;">$1</em>');
}

function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

const HEADING_SIZE = { 1: 28, 2: 22, 3: 18 } as const;

function renderHeading(block: Extract<NewsletterBlock, { type: 'heading' }>): string {
  const size = HEADING_SIZE[block.level];
  return `<h${block.level}${textClass(block.color)} style="margin:0;font-family:${FONT};font-size:${size}px;line-height:1.3;font-weight:700;color:${block.color};text-align:${block.align};">${escapeHtml(block.text)}</h${block.level}>`;
}

function renderText(block: Extract<NewsletterBlock, { type: 'text' }>): string {
  return paragraphs(block.text)
    .map(
      (p, i, all) =>
        `<p${textClass(block.color)} style="margin:0 0 ${i === all.length - 1 ? 0 : 14}px;font-family:${FONT};font-size:16px;line-height:1.6;color:${block.color};text-align:${block.align};">${inline(p)}</p>`,
    )
    .join('');
}

function renderImage(block: Extract<NewsletterBlock, { type: 'image' }>, maxWidth: number): string {
  const src = safeImageSrc(block.src);
  if (!src) return '';
  const width = Math.min(block.width, maxWidth);
  const img = `<img src="${src}" alt="${escapeAttr(block.alt)}" width="${width}" class="tb-img" style="display:block;width:${width}px;max-width:100%;height:auto;border:0;outline:none;text-decoration:none;">`;
  const content = block.href.trim()
    ? `<a${hrefAttr(block.href)} target="_blank" style="text-decoration:none;">${img}</a>`
    : img;
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="${block.align}" style="border-collapse:collapse;"><tr><td align="${block.align}" style="padding:0;">${content}</td></tr></table>`;
}

/** A padding-based "bulletproof" button: the cell carries the colour, so it shows even without the link's styles. */
function renderButton(block: Extract<NewsletterBlock, { type: 'button' }>): string {
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" align="${block.align}" style="border-collapse:separate;"><tr><td align="center" bgcolor="${block.background}" style="border-radius:6px;background-color:${block.background};"><a${hrefAttr(block.href)} target="_blank" style="display:inline-block;padding:12px 24px;font-family:${FONT};font-size:16px;font-weight:600;line-height:1.2;color:${block.color};text-decoration:none;border-radius:6px;background-color:${block.background};">${escapeHtml(block.label)}</a></td></tr></table>`;
}

function renderDivider(block: Extract<NewsletterBlock, { type: 'divider' }>): string {
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;"><tr><td style="border-top:1px solid ${block.color};font-size:1px;line-height:1px;height:1px;">&nbsp;</td></tr></table>`;
}

function renderSocial(block: Extract<NewsletterBlock, { type: 'social' }>): string {
  if (block.links.length === 0) return '';
  const links = block.links
    .map(
      (l) =>
        `<a${hrefAttr(l.url)} target="_blank" style="display:inline-block;margin:0 4px 8px;padding:6px 12px;border-radius:14px;background-color:#e5e7eb;color:#111827;font-family:${FONT};font-size:13px;line-height:1.2;text-decoration:none;">${escapeHtml(SOCIAL_NETWORK_LABELS[l.network])}</a>`,
    )
    .join('');
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;"><tr><td align="${block.align}" style="text-align:${block.align};">${links}</td></tr></table>`;
}

function renderFooter(block: Extract<NewsletterBlock, { type: 'footer' }>): string {
  return paragraphs(block.text)
    .map(
      (p) =>
        `<p class="tb-muted" style="margin:0 0 8px;font-family:${FONT};font-size:12px;line-height:1.5;color:#6b7280;text-align:${block.align};">${inline(p)}</p>`,
    )
    .join('');
}

function renderColumnBlock(block: ColumnBlock): string {
  switch (block.type) {
    case 'heading':
      return renderHeading(block);
    case 'text':
      return renderText(block);
    case 'image':
      return renderImage(block, COLUMN_WIDTH);
    case 'button':
      return renderButton(block);
  }
}

function renderColumns(block: Extract<NewsletterBlock, { type: 'columns' }>): string {
  const column = (blocks: ColumnBlock[], side: 'left' | 'right') => {
    const inner = blocks
      .map((b) => renderColumnBlock(b))
      .filter((html) => html !== '')
      .map((html) => `<tr><td style="padding:0 0 12px;font-family:${FONT};">${html}</td></tr>`)
      .join('');
    const padding = side === 'left' ? '0 8px 0 0' : '0 0 0 8px';
    return `<td class="tb-col" width="50%" valign="top" style="width:50%;padding:${padding};vertical-align:top;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;">${inner || '<tr><td>&nbsp;</td></tr>'}</table></td>`;
  };
  return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;"><tr>${column(block.columns[0], 'left')}${column(block.columns[1], 'right')}</tr></table>`;
}

function renderBlock(block: NewsletterBlock): string {
  switch (block.type) {
    case 'heading':
      return renderHeading(block);
    case 'text':
      return renderText(block);
    case 'image':
      return renderImage(block, CONTAINER - SIDE_PADDING * 2);
    case 'button':
      return renderButton(block);
    case 'divider':
      return renderDivider(block);
    case 'columns':
      return renderColumns(block);
    case 'social':
      return renderSocial(block);
    case 'footer':
      return renderFooter(block);
  }
}

const HEAD_STYLE = `
@media only screen and (max-width:620px){
.tb-container{width:100% !important;max-width:100% !important;}
.tb-pad{padding-left:16px !important;padding-right:16px !important;}
.tb-col{display:block !important;width:100% !important;max-width:100% !important;padding:0 0 12px 0 !important;}
.tb-img{width:100% !important;height:auto !important;}
}
@media (prefers-color-scheme: dark){
.tb-page{background-color:#111827 !important;}
.tb-card{background-color:#1f2937 !important;}
.tb-text{color:#f3f4f6 !important;}
.tb-muted{color:#9ca3af !important;}
}
[data-ogsc] .tb-text{color:#f3f4f6 !important;}
[data-ogsc] .tb-muted{color:#9ca3af !important;}
`.trim();

/** The whole email: a document a client can show as it is. */
export function renderNewsletterHtml(input: {
  subject: string;
  preheader: string;
  blocks: readonly NewsletterBlock[];
}): string {
  const rows = input.blocks
    .map((block) => renderBlock(block))
    .filter((html) => html !== '')
    .map(
      (html, i, all) =>
        `<tr><td class="tb-pad" style="padding:${i === 0 ? 32 : 12}px ${SIDE_PADDING}px ${i === all.length - 1 ? 32 : 12}px;font-family:${FONT};">${html}</td></tr>`,
    )
    .join('\n');
  // Filler after the preview text stops clients pulling the body's first words into the inbox line.
  const preheader = input.preheader.trim()
    ? `<span style="display:none;font-size:1px;line-height:1px;color:${PAGE_BG};max-height:0;max-width:0;opacity:0;overflow:hidden;mso-hide:all;">${escapeHtml(input.preheader)}${'&#847;&zwnj;&nbsp;'.repeat(40)}</span>\n`
    : '';
  return `<!DOCTYPE html>
<html lang="en" xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="x-apple-disable-message-reformatting">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(input.subject)}</title>
<style>
${HEAD_STYLE}
</style>
</head>
<body class="tb-page" style="margin:0;padding:0;width:100%;background-color:${PAGE_BG};">
${preheader}<table role="presentation" class="tb-page" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="${PAGE_BG}" style="width:100%;border-collapse:collapse;background-color:${PAGE_BG};">
<tr><td align="center" style="padding:24px 8px;">
<table role="presentation" class="tb-container tb-card" width="${CONTAINER}" cellpadding="0" cellspacing="0" border="0" bgcolor="${CARD_BG}" style="width:${CONTAINER}px;max-width:${CONTAINER}px;border-collapse:collapse;background-color:${CARD_BG};border-radius:8px;">
${rows}
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function plainInline(raw: string): string {
  return raw
    .replace(/\[([^\]\n]{1,300})\]\(([^)\s]{1,2000})\)/g, (_m, label: string, url: string) => {
      const shown = plainUrl(url);
      if (shown === null) return label;
      return label.trim() === shown ? shown : `${label} (${shown})`;
    })
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    .replace(/\*([^*\s][^*\n]*)\*/g, '$1');
}

function blockText(block: NewsletterBlock | ColumnBlock): string {
  switch (block.type) {
    case 'heading':
      return block.text.trim();
    case 'text':
      return paragraphs(block.text).map(plainInline).join('\n\n');
    case 'image':
      return block.alt.trim() ? `[${block.alt.trim()}]` : '';
    case 'button':
      return plainUrl(block.href) === null ? block.label : `${block.label}: ${block.href.trim()}`;
    case 'divider':
      return '----------';
    case 'columns':
      return block.columns
        .flat()
        .map(blockText)
        .filter((t) => t !== '')
        .join('\n\n');
    case 'social':
      return block.links
        .filter((l) => plainUrl(l.url) !== null)
        .map((l) => `${SOCIAL_NETWORK_LABELS[l.network]}: ${l.url.trim()}`)
        .join('\n');
    case 'footer':
      return paragraphs(block.text).map(plainInline).join('\n');
  }
}

/** The text/plain part: the same content, readable without HTML. */
export function renderNewsletterText(input: { blocks: readonly NewsletterBlock[] }): string {
  return `${input.blocks
    .map(blockText)
    .filter((t) => t !== '')
    .join('\n\n')}\n`;
}

/** Every link URL a block holds: inline [label](url) links, buttons, linked images, social links. */
function blockLinks(block: NewsletterBlock | ColumnBlock): string[] {
  // The editor calls this on a draft while it is typed: a field may still be missing.
  const inlineLinks = (text: string | undefined) =>
    [...(text ?? '').matchAll(/\[([^\]\n]{1,300})\]\(([^)\s]{1,2000})\)/g)].map((m) => m[2]!);
  switch (block.type) {
    case 'text':
    case 'footer':
      return inlineLinks(block.text);
    case 'button':
      return [block.href ?? ''];
    case 'image':
      return block.href?.trim() ? [block.href] : [];
    case 'social':
      return (block.links ?? []).map((l) => l.url ?? '');
    case 'columns':
      return (block.columns ?? []).flat().flatMap(blockLinks);
    default:
      return [];
  }
}

/**
 * The links of a block document the renderer leaves out (their text stays): what the editor warns
 * about. Block fields refuse most of them already; links inside a text block's [label](url) are only
 * caught here.
 */
export function droppedNewsletterLinks(blocks: readonly NewsletterBlock[]): string[] {
  // An empty link, or a new one's bare https://, is an unfilled field (the block's own "Enter a link"), not repeated here.
  return [
    ...new Set(
      blocks
        .flatMap(blockLinks)
        .map((url) => url.trim())
        .filter((url) => !isUnfilledLink(url) && !isSafeLink(url)),
    ),
  ];
}

/** Links of a block document that are a merge tag only (`{{ website }}`): each contact's value decides. */
export function mergeTagNewsletterLinks(blocks: readonly NewsletterBlock[]): string[] {
  return [
    ...new Set(
      blocks
        .flatMap(blockLinks)
        .map((url) => url.trim())
        .filter((url) => /^\{\{[^{}]+\}\}$/.test(url)),
    ),
  ];
}

export function renderNewsletter(input: {
  subject: string;
  preheader: string;
  blocks: readonly NewsletterBlock[];
}): { html: string; text: string } {
  return { html: renderNewsletterHtml(input), text: renderNewsletterText(input) };
}
