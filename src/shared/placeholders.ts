/*
 * Placeholders a template leaves for its user to fill: they must never reach a recipient. One detector
 * for the browser (the editors can point at them) and the server (the campaign pre-launch check, the
 * newsletter/bulk pre-send check, test sends):
 *
 * - the edit-me marker `[[edit: …]]`, which the template library puts around anything only the sender
 *   can say truthfully (a figure, a date, a venue, a link to their own page);
 * - bracketed placeholders left in the text: `[Date]`, `[Venue]`, `[Your company address]`;
 * - links to example domains: example.com/.org/.net, yourwebsite.com, linkedin.com/company/example,
 *   mailto:someone@example.com.
 *
 * Merge tags nobody fills (`{{ frstName }}`) need the Liquid parser and the audience's custom fields: the
 * server adds them (personalization/placeholders.ts).
 */

/** The edit-me marker, as the template library writes it. */
export function editMarker(what: string): string {
  return `[[edit: ${what}]]`;
}

const EDIT_MARKER = /\[\[\s*edit\s*:?\s*([^\]]*?)\s*\]\]/gi;

/**
 * A bracketed placeholder: a word in square brackets, not a footnote ("[1]"), not the label of a
 * Markdown link ("[label](https://…)"), not part of an edit-me marker.
 */
const BRACKETED = /(?<!\[)\[\s*([A-Za-z][^[\]\n]{0,80}?)\s*\](?![\](])/g;

export type PlaceholderKind = 'edit_marker' | 'bracketed' | 'example_link' | 'merge_tag';

export interface PlaceholderFinding {
  kind: PlaceholderKind;
  /** The placeholder as written: `[Date]`, `[[edit: 42% open rate]]`, `https://example.com/x`, `{{ frstName }}`. */
  text: string;
  /** What to do about it, in plain words (starts with the placeholder). */
  message: string;
}

function short(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}…` : value;
}

/** Placeholders in text as a reader would see it (visible text, or a block's raw text). */
export function findTextPlaceholders(text: string): PlaceholderFinding[] {
  const found: PlaceholderFinding[] = [];
  for (const match of text.matchAll(EDIT_MARKER)) {
    const what = match[1]?.trim() || 'this';
    found.push({
      kind: 'edit_marker',
      text: short(match[0]),
      message: `${short(match[0])} is marked to edit: replace it with your own ${what.length <= 60 ? `“${what}”` : 'facts'}`,
    });
  }
  const rest = text.replace(EDIT_MARKER, ' ');
  for (const match of rest.matchAll(BRACKETED)) {
    found.push({
      kind: 'bracketed',
      text: short(match[0]),
      message: `${short(match[0])} is a placeholder: replace it with the real text`,
    });
  }
  return found;
}

/** Hosts only templates and documentation use (RFC 2606 names and the usual "your website" stand-ins). */
const PLACEHOLDER_HOST =
  /(^|\.)(example(\.(com|org|net|edu))?|invalid|your-?(website|company|site|domain|link|business|page)\.\w+|(domain|website|company|mycompany|mywebsite)\.com)$/i;

/** Social networks whose page names a template fills with "example". */
const SOCIAL_HOST =
  /(^|\.)(linkedin\.com|facebook\.com|instagram\.com|x\.com|twitter\.com|youtube\.com|tiktok\.com|wa\.me)$/i;
const PLACEHOLDER_PAGE =
  /^(@?example|@?yourcompany|@?your-company|@?yourpage|@?yourname|@?username|@?yourhandle)$/i;

/** Whether a link is a placeholder: an edit-me marker, an example domain or an example social page. */
export function isPlaceholderLink(url: string): boolean {
  const value = url.trim();
  if (value === '') return false;
  if (/\[\[\s*edit\b/i.test(value)) return true;
  // A merge tag decides it per contact.
  if (value.includes('{{') || value.includes('{%')) return false;
  const mailto = /^mailto:([^?]*)/i.exec(value);
  if (mailto) {
    return (mailto[1] ?? '')
      .split(',')
      .some((address) => PLACEHOLDER_HOST.test(address.trim().split('@')[1]?.toLowerCase() ?? ''));
  }
  // "www.example.com" written as text is a web address; other links without a scheme (relative,
  // protocol-relative) are never sent at all (shared/mail-links.ts removes them).
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value) && !/^www\./i.test(value)) return false;
  let parsed: URL;
  try {
    parsed = new URL(/^www\./i.test(value) ? `https://${value}` : value);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const host = parsed.hostname.toLowerCase();
  if (PLACEHOLDER_HOST.test(host)) return true;
  if (SOCIAL_HOST.test(host)) {
    const segments = parsed.pathname.split('/').filter(Boolean);
    return segments.some((segment) => PLACEHOLDER_PAGE.test(decodeURIComponent(segment)));
  }
  return false;
}

/** Placeholder links among `urls`, each once. */
export function findLinkPlaceholders(urls: readonly string[]): PlaceholderFinding[] {
  const found: PlaceholderFinding[] = [];
  const seen = new Set<string>();
  for (const raw of urls) {
    const url = raw.trim();
    if (seen.has(url) || !isPlaceholderLink(url)) continue;
    seen.add(url);
    found.push({
      kind: 'example_link',
      text: short(url),
      message: /\[\[/.test(url)
        ? `The link ${short(url)} is marked to edit: link to your own page`
        : `The link ${short(url)} is a placeholder: link to your own page or remove it`,
    });
  }
  return found;
}

/** Bare web addresses written in the text (not as a link): "www.example.com/offer". */
export function textUrls(text: string): string[] {
  return [...text.matchAll(/\b(?:https?:\/\/|www\.)[^\s<>"')\]]+|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi)].map(
    (m) => (m[0].includes('@') && !/^https?:/i.test(m[0]) ? `mailto:${m[0]}` : m[0]),
  );
}

/** One line naming the placeholders of a place: `Step 1: [Date] is a placeholder …; …`. */
export function placeholderSummary(findings: readonly PlaceholderFinding[]): string {
  return findings.map((f) => f.message).join('; ');
}
