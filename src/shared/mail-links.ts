/*
 * Which URLs an email may carry, judged the same way in the browser (the editors' warnings) and on the
 * server (the send-time sanitiser, the pre-launch check). Links a reader follows may be web, mail or
 * phone links; things a mail client loads (images, backgrounds) only web addresses and inline parts
 * (cid:). Everything else is removed from the email: script schemes (javascript:, vbscript:), data:,
 * and links without a scheme — a relative or protocol-relative link has no page to be relative to in
 * an inbox, and `//evil.com` takes whatever scheme the client's viewer has.
 *
 * The judgement is made on the attribute's value as an HTML parser decodes it (entities already turned
 * into characters) and follows the URL standard's reading of a scheme: leading and trailing C0 controls
 * and spaces are ignored and tabs and newlines anywhere are dropped, so `  java\tscript:` is javascript:.
 * It is an allowlist: a value is kept only when it plainly starts with an allowed scheme.
 */

export type UrlRole = 'link' | 'resource';

export const LINK_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];
export const RESOURCE_SCHEMES: readonly string[] = ['http', 'https', 'cid'];

/** Attributes that hold a URL, by what a client does with it. `href` depends on the element (below). */
const URL_ATTRIBUTES: Readonly<Record<string, UrlRole>> = {
  href: 'link',
  'xlink:href': 'link',
  action: 'link',
  formaction: 'link',
  cite: 'link',
  ping: 'link',
  longdesc: 'link',
  src: 'resource',
  srcset: 'resource',
  lowsrc: 'resource',
  dynsrc: 'resource',
  background: 'resource',
  poster: 'resource',
  codebase: 'resource',
  archive: 'resource',
  classid: 'resource',
  manifest: 'resource',
  icon: 'resource',
  profile: 'resource',
  'xml:base': 'resource',
};

/** Elements whose `href` is loaded, not followed (stylesheets, SVG images and references). */
const RESOURCE_HREF_ELEMENTS = new Set(['link', 'image', 'use', 'feimage', 'script']);

/** How an element's attribute uses a URL, or null when it holds none. Names are compared in lower case. */
export function urlRoleOf(element: string, attribute: string): UrlRole | null {
  const tag = element.toLowerCase();
  const name = attribute.toLowerCase();
  if (name === 'data') return tag === 'object' ? 'resource' : null;
  const role = URL_ATTRIBUTES[name];
  if (!role) return null;
  if ((name === 'href' || name === 'xlink:href') && RESOURCE_HREF_ELEMENTS.has(tag)) return 'resource';
  return role;
}

// C0 controls and space around a URL, and tabs/newlines inside it, are ignored by URL parsers.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the URL standard strips exactly these (C0 and space).
const EDGE = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** The URL as a browser reads its scheme: trimmed of controls and spaces, tabs and newlines removed. */
export function normalizeUrlForScheme(value: string): string {
  return value.replace(EDGE, '').replace(TAB_OR_NEWLINE, '');
}

/** The scheme in lower case ("javascript"), or null for a link without one (relative, `//host`, `#top`). */
export function schemeOf(value: string): string | null {
  const match = SCHEME.exec(normalizeUrlForScheme(value));
  return match ? match[1]!.toLowerCase() : null;
}

export type UrlVerdict = { ok: true } | { ok: false; reason: string };

const OK: UrlVerdict = { ok: true };

/** Whether a URL may stay in an email, and in plain words why not. */
export function judgeMailUrl(value: string, role: UrlRole): UrlVerdict {
  const scheme = schemeOf(value);
  const allowed = role === 'link' ? LINK_SCHEMES : RESOURCE_SCHEMES;
  if (scheme !== null && allowed.includes(scheme)) return OK;
  if (role === 'resource') {
    return { ok: false, reason: 'images and backgrounds load only from https:// addresses' };
  }
  if (scheme === null) {
    return {
      ok: false,
      reason:
        normalizeUrlForScheme(value) === ''
          ? 'the link is empty'
          : 'the link has no https:// (a relative link goes nowhere in an inbox)',
    };
  }
  return { ok: false, reason: `${scheme}: links are not allowed in email (only https://, mailto: and tel:)` };
}

/** The URLs of a srcset ("a.png 1x, b.png 2x"). */
function srcsetUrls(value: string): string[] {
  return value
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '');
}

/** The URLs an attribute value holds: one, the candidates of a srcset, the url= of a meta refresh. */
function urlsOf(element: string, attribute: string, value: string): string[] {
  if (attribute === 'srcset') return srcsetUrls(value);
  if (attribute === 'content' && element === 'meta') {
    const match = /url\s*=\s*['"]?([^'"]*)/i.exec(value);
    return match ? [match[1]!] : [];
  }
  return [value];
}

const LIQUID_START = /\{\{|\{%/;

/**
 * A URL written in a template: 'ok' or 'unsafe' when its scheme is fixed by the text before the first
 * merge tag (`https://x.com/?c={{ company }}`, `javascript:{{ x }}`), 'per-contact' when a merge tag or
 * spintax comes first and each contact's value decides (`{{ website }}`).
 */
export function judgeTemplateUrl(
  value: string,
  role: UrlRole,
): { kind: 'ok' } | { kind: 'unsafe'; reason: string } | { kind: 'per-contact' } {
  const normalized = normalizeUrlForScheme(value);
  const liquid = normalized.search(LIQUID_START);
  const spin = normalized.indexOf('{');
  if (liquid === -1 && spin === -1) {
    const verdict = judgeMailUrl(normalized, role);
    return verdict.ok ? { kind: 'ok' } : { kind: 'unsafe', reason: verdict.reason };
  }
  const firstDynamic = Math.min(...[liquid, spin].filter((i) => i !== -1));
  const fixed = normalized.slice(0, firstDynamic);
  const scheme = SCHEME.exec(fixed);
  if (!scheme) return { kind: 'per-contact' };
  const verdict = judgeMailUrl(fixed, role);
  return verdict.ok ? { kind: 'ok' } : { kind: 'unsafe', reason: verdict.reason };
}

export interface UnsafeUrl {
  element: string;
  attribute: string;
  /** The value as the parser decoded it. */
  value: string;
  reason: string;
}

/** SVG animation elements that can set a link's href (`<set attributeName="href" to="javascript:…">`). */
const ANIMATION_ELEMENTS = new Set(['set', 'animate']);
const ANIMATION_VALUES = ['to', 'from', 'by', 'values'];

function linkAnimation(element: string, attributes: Readonly<Record<string, string>>): boolean {
  if (!ANIMATION_ELEMENTS.has(element)) return false;
  const target = Object.entries(attributes).find(([name]) => name.toLowerCase() === 'attributename')?.[1];
  return target !== undefined && urlRoleOf('a', target.trim()) !== null;
}

/**
 * The attributes of one element that must go, each with the reason. `attributes` as a parser gives
 * them (decoded values). With `template`, values decided by merge tags are left to the send-time check
 * (see judgeTemplateUrl) and returned in `perContact` instead.
 */
export function unsafeUrlAttributes(
  element: string,
  attributes: Readonly<Record<string, string>>,
  options: { template?: boolean } = {},
): { unsafe: UnsafeUrl[]; perContact: UnsafeUrl[] } {
  const tag = element.toLowerCase();
  const unsafe: UnsafeUrl[] = [];
  const perContact: UnsafeUrl[] = [];
  const animation = linkAnimation(tag, attributes);
  const refresh =
    tag === 'meta' &&
    Object.entries(attributes).some(
      ([name, value]) => name.toLowerCase() === 'http-equiv' && value.trim().toLowerCase() === 'refresh',
    );
  for (const [rawName, value] of Object.entries(attributes)) {
    const name = rawName.toLowerCase();
    let role: UrlRole | null = urlRoleOf(tag, name);
    if (!role && animation && ANIMATION_VALUES.includes(name)) role = 'link';
    if (!role && refresh && name === 'content') role = 'link';
    if (!role) continue;
    const urls =
      animation && name === 'values' ? value.split(';').map((v) => v.trim()) : urlsOf(tag, name, value);
    if (name === 'srcset' && urls.length === 0) continue;
    for (const url of urls) {
      if (options.template) {
        const verdict = judgeTemplateUrl(url, role);
        if (verdict.kind === 'ok') continue;
        const entry = {
          element: tag,
          attribute: rawName,
          value,
          reason: verdict.kind === 'unsafe' ? verdict.reason : '',
        };
        if (verdict.kind === 'unsafe') unsafe.push(entry);
        else perContact.push(entry);
        break;
      }
      const verdict = judgeMailUrl(url, role);
      if (!verdict.ok) {
        unsafe.push({ element: tag, attribute: rawName, value, reason: verdict.reason });
        break;
      }
    }
  }
  return { unsafe, perContact };
}

/** "javascript:alert(1)" shortened for a message line. */
export function shownUrl(value: string): string {
  const oneLine = value.replace(/\p{Cc}+/gu, ' ').trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}…` : oneLine || '(empty)';
}
