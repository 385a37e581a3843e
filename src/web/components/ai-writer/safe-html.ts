import { judgeMailUrl, schemeOf } from '@shared/mail-links';

/*
 * Model output is untrusted: a brief (or a pasted selection) could talk the model into writing script tags
 * or event handlers. What the writer shows and inserts is rebuilt from an allowlist: the tags a written
 * email uses, with no attributes except a checked href. Everything else becomes text. Pure, so it runs
 * the same on every partial chunk while the draft streams in.
 */

const ALLOWED = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'hr',
]);
const VOID = new Set(['br', 'hr']);
/** Tags whose content is never text a reader should see. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'head',
  'title',
  'iframe',
  'object',
  'template',
  'svg',
]);

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b([^<>]*)>|<!--[\s\S]*?(?:-->|$)/g;

function escapeText(text: string): string {
  return text
    .replace(/&(?![a-zA-Z][a-zA-Z0-9]{1,31};|#\d{1,7};|#x[0-9a-fA-F]{1,6};)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return escapeText(value).replace(/"/g, '&quot;');
}

function safeHref(attributes: string): string | null {
  const match = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(attributes);
  const raw = (match?.[1] ?? match?.[2] ?? match?.[3] ?? '').trim();
  if (!raw) return null;
  // A merge tag as the whole link ({{ website }}) is resolved (and checked again) at send time; otherwise the
  // links an email keeps (web, mail, phone), judged on the literal text: an encoded scheme is refused.
  if (/^\{\{[^{}]+\}\}$/.test(raw)) return raw;
  return schemeOf(raw) !== null && judgeMailUrl(raw, 'link').ok ? raw : null;
}

/** The allowlisted HTML of a (possibly partial) model answer. */
export function toSafeHtml(html: string): string {
  // A tag still arriving at the end of a partial chunk ("<p cla") is not shown yet.
  const input = html.replace(/<[^<>]*$/, '');
  let out = '';
  let last = 0;
  let dropping: string | null = null;
  for (const match of input.matchAll(TAG)) {
    const index = match.index ?? 0;
    if (!dropping) out += escapeText(input.slice(last, index));
    last = index + match[0].length;
    const [, closing, rawName] = match;
    if (!rawName) continue; // a comment
    const name = rawName.toLowerCase();
    if (dropping) {
      if (closing && name === dropping) dropping = null;
      continue;
    }
    if (DROP_WITH_CONTENT.has(name)) {
      if (!closing) dropping = name;
      continue;
    }
    if (!ALLOWED.has(name)) continue;
    if (closing) {
      if (!VOID.has(name)) out += `</${name}>`;
      continue;
    }
    if (name === 'a') {
      const href = safeHref(match[3] ?? '');
      out += href ? `<a href="${escapeAttribute(href)}">` : '<a>';
      continue;
    }
    out += `<${name}>`;
  }
  if (!dropping) out += escapeText(input.slice(last));
  return out;
}
