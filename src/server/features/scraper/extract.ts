import { BUSINESS_CATEGORIES } from '@shared/categories';
import ct from 'countries-and-timezones';
import { Parser } from 'htmlparser2';
import { type CountryCode, findPhoneNumbersInText, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import isEmail from 'validator/lib/isEmail.js';

/*
 * What the crawler takes from one page: the links to follow, and the business it describes — name,
 * addresses, phones (E.164), postal address, city, country and a category guess. Pure functions, so
 * the extraction cases are tested without a network.
 *
 * The strongest evidence is schema.org JSON-LD (Organization / LocalBusiness), which most business
 * site builders emit; then mailto:/tel: links, Open Graph, the title, and the visible text.
 */

export interface ExtractedBusiness {
  companyName: string;
  emails: string[];
  phones: string[];
  address: string | null;
  city: string | null;
  countryCode: string | null;
  category: string | null;
}

export interface ExtractedPage {
  links: string[];
  /** Honour <meta name="robots" content="nofollow">: the page's links are not followed. */
  followLinks: boolean;
  /** Honour "noindex": nothing from the page is kept. */
  indexable: boolean;
  business: ExtractedBusiness | null;
}

const SKIPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg']);
const BINARY_EXTENSIONS =
  /\.(?:pdf|jpe?g|png|gif|webp|svg|ico|zip|rar|7z|gz|tar|docx?|xlsx?|pptx?|mp[34]|avi|mov|wmv|exe|dmg|apk|css|js|json|woff2?|ttf)$/i;
const PLACEHOLDER_DOMAINS =
  /(?:^|\.)(?:example\.(?:com|org|net)|domain\.com|email\.com|yourdomain\.com|yourcompany\.com|sentry\.io|wixpress\.com|test|invalid|localhost)$/i;

interface RawPage {
  title: string;
  metas: Map<string, string>;
  links: { href: string; rel: string }[];
  text: string[];
  headings: string[];
  addresses: string[];
  jsonLd: string[];
  baseHref: string | null;
}

function parseHtml(html: string): RawPage {
  const page: RawPage = {
    title: '',
    metas: new Map(),
    links: [],
    text: [],
    headings: [],
    addresses: [],
    jsonLd: [],
    baseHref: null,
  };
  const stack: string[] = [];
  let skipDepth = 0;
  let jsonLdBuffer: string | null = null;
  let inTitle = false;
  let headingBuffer: string | null = null;
  let addressBuffer: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        stack.push(name);
        if (name === 'script' && (attributes.type ?? '').toLowerCase() === 'application/ld+json') {
          jsonLdBuffer = '';
          return;
        }
        if (SKIPPED_TAGS.has(name)) skipDepth++;
        if (name === 'title') inTitle = true;
        if (name === 'h1' || name === 'h2') headingBuffer = '';
        if (name === 'address') addressBuffer = '';
        if (name === 'base' && attributes.href && !page.baseHref) page.baseHref = attributes.href;
        if (name === 'meta') {
          const key = (attributes.name ?? attributes.property ?? '').toLowerCase();
          if (key && attributes.content) page.metas.set(key, attributes.content);
        }
        if (name === 'a' && attributes.href)
          page.links.push({ href: attributes.href, rel: attributes.rel ?? '' });
        if (name === 'br' || name === 'p' || name === 'div' || name === 'li' || name === 'td')
          page.text.push('\n');
      },
      ontext(text) {
        if (jsonLdBuffer !== null) {
          jsonLdBuffer += text;
          return;
        }
        if (skipDepth > 0) return;
        if (inTitle) page.title += text;
        if (headingBuffer !== null) headingBuffer += text;
        if (addressBuffer !== null) addressBuffer += text;
        page.text.push(text);
      },
      onclosetag(name) {
        stack.pop();
        if (name === 'script' && jsonLdBuffer !== null) {
          page.jsonLd.push(jsonLdBuffer);
          jsonLdBuffer = null;
          return;
        }
        if (SKIPPED_TAGS.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        if (name === 'title') inTitle = false;
        if ((name === 'h1' || name === 'h2') && headingBuffer !== null) {
          page.headings.push(collapse(headingBuffer));
          headingBuffer = null;
        }
        if (name === 'address' && addressBuffer !== null) {
          page.addresses.push(collapse(addressBuffer));
          addressBuffer = null;
        }
        page.text.push(' ');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return page;
}

const collapse = (value: string) => value.replace(/\s+/g, ' ').trim();

/** Undoes the usual hiding of addresses from harvesters: "name [at] domain [dot] com" and friends. */
export function deobfuscateEmails(text: string): string {
  return text
    .replace(/\s*[[({<]\s*(?:at|@)\s*[\])}>]\s*/gi, '@')
    .replace(/\s*[[({<]\s*(?:dot|\.)\s*[\])}>]\s*/gi, '.')
    .replace(
      /\b([a-z0-9._%+-]+)\s+(?:at|AT)\s+([a-z0-9-]+(?:\s+(?:dot|DOT)\s+[a-z0-9-]+)+)\b/g,
      (_match, local: string, domain: string) => `${local}@${domain.replace(/\s+(?:dot|DOT)\s+/g, '.')}`,
    );
}

const EMAIL_PATTERN =
  /[a-z0-9][a-z0-9._%+-]{0,63}@[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9-]{1,63})+/gi;

/** A real mailbox, not an image name ("logo@2x.png"), a placeholder or a tracking id. */
export function isPlausibleEmail(candidate: string): boolean {
  const email = candidate.toLowerCase().replace(/\.+$/, '');
  const [local, domain] = email.split('@') as [string, string | undefined];
  if (!domain) return false;
  if (BINARY_EXTENSIONS.test(email)) return false;
  if (PLACEHOLDER_DOMAINS.test(domain)) return false;
  if (/^[0-9a-f]{20,}$/.test(local)) return false;
  return isEmail(email, { allow_utf8_local_part: false, require_tld: true, allow_ip_domain: false });
}

export function findEmails(text: string, mailtoHrefs: string[]): string[] {
  const found = new Set<string>();
  for (const href of mailtoHrefs) {
    const address = decodeURIComponentSafe(href.replace(/^mailto:/i, '').split('?')[0] ?? '');
    for (const part of address.split(',')) {
      const email = part.trim().toLowerCase();
      if (isPlausibleEmail(email)) found.add(email);
    }
  }
  for (const match of deobfuscateEmails(text).matchAll(EMAIL_PATTERN)) {
    const email = match[0].toLowerCase().replace(/\.+$/, '');
    if (isPlausibleEmail(email)) found.add(email);
  }
  return [...found];
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Phone numbers in E.164, valid for their country (libphonenumber's full metadata). */
export function findPhones(text: string, telHrefs: string[], defaultCountry: string | null): string[] {
  const country = (defaultCountry ?? undefined) as CountryCode | undefined;
  const found = new Set<string>();
  for (const href of telHrefs) {
    const parsed = parsePhoneNumberFromString(decodeURIComponentSafe(href.replace(/^tel:/i, '')), country);
    if (parsed?.isValid()) found.add(parsed.number);
  }
  for (const match of findPhoneNumbersInText(text, country)) {
    if (match.number.isValid()) found.add(match.number.number);
  }
  return [...found];
}

const COUNTRY_BY_NAME = new Map(
  Object.values(ct.getAllCountries()).map((country) => [country.name.toLowerCase(), country.id]),
);
const COUNTRY_IDS = new Set(Object.keys(ct.getAllCountries()));

export function countryFrom(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed) && COUNTRY_IDS.has(trimmed.toUpperCase())) return trimmed.toUpperCase();
  return COUNTRY_BY_NAME.get(trimmed.toLowerCase()) ?? null;
}

/** ".ng", ".com.ng", ".co.ke" → the country; generic TLDs say nothing. */
export function countryFromHost(host: string): string | null {
  const tld = host.toLowerCase().split('.').pop() ?? '';
  if (tld === 'uk') return 'GB';
  if (tld.length !== 2) return null;
  return COUNTRY_IDS.has(tld.toUpperCase()) ? tld.toUpperCase() : null;
}

interface JsonLdBusiness {
  name?: string;
  email?: string;
  telephone?: string;
  streetAddress?: string;
  locality?: string;
  country?: string;
}

const BUSINESS_TYPES =
  /organization|business|corporation|store|restaurant|hotel|company|office|agency|clinic|school|dentist|service/i;

function readJsonLd(blocks: string[]): JsonLdBusiness | null {
  const candidates: Record<string, unknown>[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      const type = ([] as unknown[]).concat(record['@type'] ?? []).join(' ');
      if (BUSINESS_TYPES.test(type)) candidates.push(record);
      if (record['@graph']) visit(record['@graph']);
    }
  };
  for (const block of blocks) {
    try {
      visit(JSON.parse(block));
    } catch {
      // A broken block is the site's problem; the rest of the page still counts.
    }
  }
  const best = candidates[0];
  if (!best) return null;
  const address = ([] as unknown[]).concat(best.address ?? [])[0];
  const addressRecord = address && typeof address === 'object' ? (address as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? collapse(value) : undefined);
  const country = addressRecord.addressCountry;
  return {
    name: text(best.name),
    email: text(best.email)?.replace(/^mailto:/i, ''),
    telephone: text(best.telephone),
    streetAddress: text(addressRecord.streetAddress) ?? text(address),
    locality: text(addressRecord.addressLocality),
    country:
      text(country) ??
      (country && typeof country === 'object' ? text((country as Record<string, unknown>).name) : undefined),
  };
}

const GENERIC_TITLE_PARTS =
  /^(?:home|homepage|home page|welcome|about|about us|contact|contact us|our services|services|products|official site|official website|index)$/i;

/** "Contact Us | Adebayo Logistics Ltd" → "Adebayo Logistics Ltd". */
export function businessNameFrom(page: { title: string; siteName?: string; host: string }): string {
  if (page.siteName?.trim()) return collapse(page.siteName);
  const parts = page.title
    .split(/\s+[|\-–—:·•]\s+/)
    .map(collapse)
    .filter((part) => part && !GENERIC_TITLE_PARTS.test(part));
  if (parts[0] && parts[0].length <= 120) return parts[0];
  const label = page.host.replace(/^www\./, '').split('.')[0] ?? page.host;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CATEGORY_PATTERNS = BUSINESS_CATEGORIES.map((category) => ({
  slug: category.slug,
  patterns: [category.name.toLowerCase().replace(/ & /g, ' and '), ...category.synonyms].map(
    (word) => new RegExp(`\\b${escapeRegExp(word.toLowerCase())}s?\\b`, 'g'),
  ),
}));

/**
 * The category whose name and synonyms the business's own words use most; its name counts three times
 * as much as the page's description and headings. Null when nothing matches: a guess is never forced.
 */
export function guessCategory(name: string, description: string): string | null {
  let best: { slug: string; score: number } | null = null;
  const nameText = name.toLowerCase().replace(/&/g, 'and');
  const bodyText = description.toLowerCase().replace(/&/g, 'and');
  for (const { slug, patterns } of CATEGORY_PATTERNS) {
    let score = 0;
    for (const pattern of patterns) {
      score += (nameText.match(pattern)?.length ?? 0) * 3 + (bodyText.match(pattern)?.length ?? 0);
    }
    if (score > 0 && (!best || score > best.score)) best = { slug, score };
  }
  return best?.slug ?? null;
}

function resolveLinks(raw: RawPage, pageUrl: URL): string[] {
  let base = pageUrl;
  if (raw.baseHref) {
    try {
      base = new URL(raw.baseHref, pageUrl);
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  const links = new Set<string>();
  for (const { href, rel } of raw.links) {
    if (/\bnofollow\b/i.test(rel)) continue;
    let url: URL;
    try {
      url = new URL(href.trim(), base);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (BINARY_EXTENSIONS.test(url.pathname)) continue;
    url.hash = '';
    links.add(url.toString());
  }
  return [...links];
}

export function extractPage(html: string, pageUrl: URL, defaultCountry: string | null): ExtractedPage {
  const raw = parseHtml(html);
  const robots = (raw.metas.get('robots') ?? '').toLowerCase();
  const followLinks = !/\b(?:nofollow|none)\b/.test(robots);
  const indexable = !/\b(?:noindex|none)\b/.test(robots);
  const links = followLinks ? resolveLinks(raw, pageUrl) : [];
  if (!indexable) return { links, followLinks, indexable, business: null };

  const text = collapse(raw.text.join(''));
  const jsonLd = readJsonLd(raw.jsonLd);
  const mailto = raw.links.filter((l) => /^mailto:/i.test(l.href)).map((l) => l.href);
  const tel = raw.links.filter((l) => /^tel:/i.test(l.href)).map((l) => l.href);
  const emails = findEmails(`${text} ${jsonLd?.email ?? ''}`, mailto);
  if (emails.length === 0) return { links, followLinks, indexable, business: null };

  const countryHint = countryFrom(jsonLd?.country) ?? countryFromHost(pageUrl.hostname) ?? defaultCountry;
  const phones = findPhones(`${text} ${jsonLd?.telephone ?? ''}`, tel, countryHint);
  const phoneCountry = phones.length ? (parsePhoneNumberFromString(phones[0]!)?.country ?? null) : null;
  const companyName =
    jsonLd?.name ??
    businessNameFrom({ title: raw.title, siteName: raw.metas.get('og:site_name'), host: pageUrl.hostname });
  const description = [
    raw.metas.get('description'),
    raw.metas.get('og:description'),
    raw.metas.get('keywords'),
    ...raw.headings,
  ]
    .filter(Boolean)
    .join(' . ');
  return {
    links,
    followLinks,
    indexable,
    business: {
      companyName: companyName.slice(0, 200),
      emails,
      phones,
      address: (jsonLd?.streetAddress ?? raw.addresses[0] ?? null)?.slice(0, 300) ?? null,
      city: jsonLd?.locality?.slice(0, 120) ?? null,
      countryCode:
        countryFrom(jsonLd?.country) ?? countryFromHost(pageUrl.hostname) ?? phoneCountry ?? defaultCountry,
      category: guessCategory(companyName, description),
    },
  };
}

/** The page addresses in a sitemap or sitemap index (`<loc>`), and whether they are sitemaps themselves. */
export function extractSitemap(xml: string, sitemapUrl: URL): { urls: string[]; nested: boolean } {
  const nested = /<sitemapindex[\s>]/i.test(xml);
  const urls: string[] = [];
  for (const match of xml.matchAll(/<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]]+?)\s*(?:\]\]>)?\s*<\/loc>/gi)) {
    try {
      const url = new URL(match[1]!.replace(/&amp;/g, '&'), sitemapUrl);
      if (url.protocol === 'http:' || url.protocol === 'https:') urls.push(url.toString());
    } catch {
      // Skip an entry that is not an address.
    }
  }
  return { urls, nested };
}
