import { Resolver } from 'node:dns/promises';
import { createRequire } from 'node:module';
import { clipText } from '@server/lib/input-hygiene';
import { BUSINESS_CATEGORIES, type CategorySlug } from '@shared/categories';
import countriesAndTimezones from 'countries-and-timezones';
import isEmail from 'validator/lib/isEmail.js';
import { extractEmail } from './csv-inspect';

const require = createRequire(import.meta.url);
let disposable: { domains: Set<string>; wildcards: Set<string> } | undefined;
/**
 * The disposable-domain lists (~120,000 names, some 15 MB of heap once loaded), read on first use: the
 * web process starts without them, and only imports and sign-up checks need them.
 */
function disposableLists() {
  disposable ??= {
    domains: new Set<string>(require('disposable-email-domains/index.json') as string[]),
    wildcards: new Set<string>(require('disposable-email-domains/wildcard.json') as string[]),
  };
  return disposable;
}

export interface NormalisedEmail {
  /** As written, trimmed, with the domain lower-cased. */
  email: string;
  /** Fully lower-cased: the duplicate key. */
  normalized: string;
  domain: string;
  local: string;
}

const EMAIL_OPTIONS = {
  allow_utf8_local_part: true,
  require_tld: true,
  allow_ip_domain: false,
  // Lengths are checked below in bytes without validator's encodeURI round trip (the same limits).
  ignore_max_length: true,
} as const;

/**
 * A domain as the address rules see it: lower-cased, or null when no valid address can have it (longer
 * than 253 bytes, a label over 63 characters, not a fully qualified name to validator's isFQDN).
 */
interface DomainVerdict {
  lower: string | null;
  disposable: boolean;
}

/*
 * A file holds few distinct domains and many rows per domain, so each domain is judged once: validator's
 * isEmail judges the domain (isFQDN) and the local part independently, and the domain's half was a third
 * of the per-row cost of an import. The cap only guards against a file where every row has its own domain.
 */
const domainVerdicts = new Map<string, DomainVerdict>();
const DOMAIN_VERDICTS_MAX = 50_000;

function domainVerdict(domain: string): DomainVerdict {
  let verdict = domainVerdicts.get(domain);
  if (verdict === undefined) {
    const lower = domain.toLowerCase();
    const valid =
      utf8Length(lower) <= 253 &&
      !lower.split('.').some((label) => label.length > 63) &&
      // "a" is a valid local part, so this asks validator about the domain alone.
      isEmail(`a@${domain}`, EMAIL_OPTIONS);
    verdict = { lower: valid ? lower : null, disposable: valid && isDisposableDomain(lower) };
    if (domainVerdicts.size >= DOMAIN_VERDICTS_MAX) domainVerdicts.clear();
    domainVerdicts.set(domain, verdict);
  }
  return verdict;
}

/*
 * Dot-separated runs of the ASCII characters validator's isEmail accepts in an unquoted local part
 * (`emailUserPart`, a subset of its UTF-8 pattern). A local part that matches is valid to isEmail;
 * anything else (quoted, UTF-8, a stray dot) is left to isEmail itself.
 */
const PLAIN_LOCAL_PART = /^[a-z\d!#$%&'*+\-/=?^_`{|}~]+(?:\.[a-z\d!#$%&'*+\-/=?^_`{|}~]+)*$/i;

/** The address of a cell, or null when the cell does not hold a valid one (validator's isEmail). */
export function normaliseEmail(cell: string): NormalisedEmail | null {
  const value = extractEmail(cell);
  if (value.length === 0 || value.length > 254) return null;
  const at = value.lastIndexOf('@');
  if (at <= 0) return null;
  const domain = domainVerdict(value.slice(at + 1)).lower;
  if (domain === null) return null;
  const local = value.slice(0, at);
  if (utf8Length(value) > 254 || utf8Length(local) > 64) return null;
  // Lengths are checked above in bytes without validator's encodeURI round trip (the same limits).
  if (!PLAIN_LOCAL_PART.test(local) && !isEmail(value, EMAIL_OPTIONS)) return null;
  const email = `${local}@${domain}`;
  return { email, normalized: email.toLowerCase(), domain, local };
}

/** Whether a domain (lower-cased) is a disposable-mail service's; remembered per domain like its validity. */
export function isDisposableEmailDomain(domain: string): boolean {
  const verdict = domainVerdicts.get(domain);
  return verdict?.lower === domain ? verdict.disposable : isDisposableDomain(domain);
}

function utf8Length(value: string): number {
  for (let i = 0; i < value.length; i++)
    if (value.charCodeAt(i) > 127) return Buffer.byteLength(value, 'utf8');
  return value.length;
}

export function isDisposableDomain(domain: string): boolean {
  const { domains, wildcards } = disposableLists();
  if (domains.has(domain)) return true;
  // The wildcard list covers every subdomain of a domain (xyz.10mail.org).
  for (let dot = domain.indexOf('.'); dot !== -1; dot = domain.indexOf('.', dot + 1)) {
    const parent = domain.slice(dot + 1);
    if (wildcards.has(parent) || domains.has(parent)) return true;
  }
  return false;
}

/** "Ada Ngozi Obi" → first "Ada Ngozi", last "Obi"; one word is a first name. */
export function splitFullName(full: string): { first: string | null; last: string | null } {
  const words = full.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { first: null, last: null };
  if (words.length === 1) return { first: words[0]!, last: null };
  return { first: words.slice(0, -1).join(' '), last: words.at(-1)! };
}

const COUNTRY_BY_KEY = new Map<string, string>();
for (const country of Object.values(countriesAndTimezones.getAllCountries())) {
  COUNTRY_BY_KEY.set(country.id.toLowerCase(), country.id);
  COUNTRY_BY_KEY.set(foldKey(country.name), country.id);
}
const englishRegions = new Intl.DisplayNames(['en'], { type: 'region' });
for (const code of COUNTRY_BY_KEY.values()) {
  const name = englishRegions.of(code);
  if (name && name !== code) COUNTRY_BY_KEY.set(foldKey(name), code);
}
for (const [alias, code] of [
  ['uk', 'GB'],
  ['great britain', 'GB'],
  ['england', 'GB'],
  ['usa', 'US'],
  ['united states of america', 'US'],
  ['america', 'US'],
  ['cote d ivoire', 'CI'],
  ['ivory coast', 'CI'],
  ['drc', 'CD'],
  ['dr congo', 'CD'],
  ['uae', 'AE'],
  ['naija', 'NG'],
] as const) {
  COUNTRY_BY_KEY.set(alias, code);
}

function foldKey(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const countryCache = new Map<string, string | null>();

/** ISO 3166-1 alpha-2 code from a code or an English name; null when unknown. */
export function countryCodeOf(value: string): string | null {
  if (!value) return null;
  let code = countryCache.get(value);
  if (code === undefined) {
    code = COUNTRY_BY_KEY.get(foldKey(value)) ?? null;
    // A file has few distinct spellings; the cap only guards against a column of free text.
    if (countryCache.size < 10_000) countryCache.set(value, code);
  }
  return code;
}

const CATEGORY_BY_KEY = new Map<string, CategorySlug>();
for (const category of BUSINESS_CATEGORIES) {
  CATEGORY_BY_KEY.set(foldKey(category.slug), category.slug);
  CATEGORY_BY_KEY.set(foldKey(category.name), category.slug);
}
for (const category of BUSINESS_CATEGORIES) {
  for (const synonym of category.synonyms) {
    const key = foldKey(synonym);
    if (!CATEGORY_BY_KEY.has(key)) CATEGORY_BY_KEY.set(key, category.slug);
  }
}

/** A directory category slug from its slug, name or a synonym; null when unknown. */
export function categorySlugOf(value: string): CategorySlug | null {
  if (!value) return null;
  return CATEGORY_BY_KEY.get(foldKey(value)) ?? null;
}

/** Text for a stored cell: trimmed, without NUL (PostgreSQL text cannot hold it), at most `max` chars. */
export function cleanCell(value: string | undefined, max = 1000): string | null {
  if (value === undefined) return null;
  let v = value.trim();
  if (v.length === 0) return null;
  if (v.includes('\u0000')) v = v.replaceAll('\u0000', '');
  // A spreadsheet-safe export (ours too) writes '+234… for +234…: the apostrophe is not part of the value.
  if (v.charCodeAt(0) === 39 && /^'[=+\-@]/.test(v)) v = v.slice(1);
  // Cut between the halves of an emoji, jsonb would refuse the lone half.
  return clipText(v, max);
}

/**
 * Whether a domain can receive mail: MX records, or an address record (RFC 5321 implicit MX). A null MX
 * (RFC 7505) or a domain that does not exist cannot. DNS trouble on our side never rejects a row.
 * One lookup per domain for the life of the checker, 3 s timeout.
 */
export class MxChecker {
  private readonly cache = new Map<string, Promise<boolean>>();
  private readonly resolver: Resolver;

  constructor(options: { servers?: string[]; timeoutMs?: number } = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 3000, tries: 1 });
    if (options.servers?.length) this.resolver.setServers(options.servers);
  }

  receivesMail(domain: string): Promise<boolean> {
    let answer = this.cache.get(domain);
    if (!answer) {
      answer = this.lookup(domain);
      this.cache.set(domain, answer);
    }
    return answer;
  }

  /** Resolves many domains at once, at most `concurrency` lookups in flight. */
  async checkAll(domains: Iterable<string>, concurrency = 20): Promise<Map<string, boolean>> {
    const list = [...new Set(domains)];
    const result = new Map<string, boolean>();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, list.length) }, async () => {
        while (next < list.length) {
          const domain = list[next++]!;
          result.set(domain, await this.receivesMail(domain));
        }
      }),
    );
    return result;
  }

  private async lookup(domain: string): Promise<boolean> {
    try {
      const records = await this.resolver.resolveMx(domain);
      if (records.length === 0) return this.hasAddress(domain);
      // RFC 7505 null MX: "this domain accepts no mail".
      return !(records.length === 1 && records[0]!.exchange === '' && records[0]!.priority === 0);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND') return false;
      if (code === 'ENODATA') return this.hasAddress(domain);
      return true;
    }
  }

  private async hasAddress(domain: string): Promise<boolean> {
    try {
      return (await this.resolver.resolve4(domain)).length > 0;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND') return false;
      if (code === 'ENODATA') {
        try {
          return (await this.resolver.resolve6(domain)).length > 0;
        } catch {
          return false;
        }
      }
      return true;
    }
  }
}
