import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { now } from '@server/lib/clock';
import type { DomainCheck, DomainCheckItem } from '@shared/sending';
import { spf } from 'mailauth/lib/spf/index.js';
import { providerHintsFor } from './sender-presets';

/*
 * SPF, DKIM, DMARC and MX of a sender account's from domain, each as pass / warn / fail with the DNS record
 * to add. SPF is also evaluated (mailauth) for the address of the account's SMTP server: a from address on
 * a domain that server may not send for comes out 'fail' with the record that would allow it.
 */

const QUERY_TIMEOUT_MS = 5_000;
const SPF_EVALUATION_TIMEOUT_MS = 10_000;

/** Selectors mail providers and control panels commonly use, tried in this order when none is given. */
export const COMMON_DKIM_SELECTORS = [
  'google',
  'selector1',
  'selector2',
  'default',
  's1',
  's2',
  'k1',
  'dkim',
  'mail',
  'zoho',
  'zmail',
] as const;

export const DEV_MAILBOX_CHECK_DETAIL = 'Development mailbox: no DNS needed';

/** The lookups the check makes; node's Resolver fits, tests point one at tests/fakes/dns.ts. */
export interface DnsResolver {
  resolveTxt(name: string): Promise<string[][]>;
  resolveMx(name: string): Promise<{ priority: number; exchange: string }[]>;
  resolve(name: string, type: string): Promise<unknown>;
}

export function createDnsResolver(options: { servers?: string[] } = {}): DnsResolver {
  // Two tries of 2.5 s keep one query inside the 5 s bound even when the first packet is lost.
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS / 2, tries: 2 });
  if (options.servers?.length) resolver.setServers(options.servers);
  return resolver as unknown as DnsResolver;
}

/** The resolver the operator configured (SENDER_DNS_SERVERS), else the system's. */
export function dnsResolverFromEnv(env: { SENDER_DNS_SERVERS?: string }): DnsResolver {
  const servers = (env.SENDER_DNS_SERVERS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return createDnsResolver({ servers });
}

type Lookup<T> = { ok: true; value: T } | { ok: false; missing: boolean; nxdomain: boolean };

async function lookup<T>(query: () => Promise<T>): Promise<Lookup<T>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      query(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })),
          QUERY_TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true, value };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, missing: code === 'ENODATA' || code === 'ENOTFOUND', nxdomain: code === 'ENOTFOUND' };
  } finally {
    clearTimeout(timer);
  }
}

async function txtRecords(resolver: DnsResolver, name: string): Promise<Lookup<string[]>> {
  const answer = await lookup(() => resolver.resolveTxt(name));
  if (!answer.ok) return answer;
  return { ok: true, value: answer.value.map((chunks) => chunks.join('')) };
}

const item = (
  status: DomainCheckItem['status'],
  detail: string,
  found: string | null = null,
  fix: DomainCheckItem['fix'] = null,
): DomainCheckItem => ({ status, detail, found, fix });

const unreachable = (what: string) =>
  item('warn', `We could not look up ${what}: DNS did not answer in time. We will check again.`);

/** `v=spf1 a mx ~all` → `v=spf1 a mx <term> ~all` (before the `all`, or before a redirect). */
export function addSpfTerm(record: string, term: string): string {
  const parts = record.trim().split(/\s+/);
  if (parts.some((p) => p.toLowerCase() === term.toLowerCase())) return parts.join(' ');
  const at = parts.findIndex((p) => /^[+\-~?]?all$/i.test(p) || /^redirect=/i.test(p));
  if (at === -1) return [...parts, term, '~all'].join(' ');
  parts.splice(at, 0, term);
  return parts.join(' ');
}

function spfAllowTerm(options: { smtpHost?: string | null; smtpHostAddress?: string | null }): string | null {
  const include = providerHintsFor(options.smtpHost)?.spfInclude;
  if (include) return `include:${include}`;
  if (!options.smtpHostAddress) return null;
  return `${options.smtpHostAddress.includes(':') ? 'ip6' : 'ip4'}:${options.smtpHostAddress}`;
}

async function checkSpf(options: {
  resolver: DnsResolver;
  domain: string;
  fromEmail: string;
  smtpHost?: string | null;
  smtpHostAddress?: string | null;
}): Promise<DomainCheckItem> {
  const { domain, resolver } = options;
  const include = providerHintsFor(options.smtpHost)?.spfInclude;
  const suggested = include ? `v=spf1 include:${include} ~all` : 'v=spf1 a mx ~all';
  const fixWith = (value: string) => ({ type: 'TXT', host: domain, value });
  const txt = await txtRecords(resolver, domain);
  if (!txt.ok && !txt.missing) return unreachable(`the SPF record of ${domain}`);
  const records = txt.ok ? txt.value.filter((r) => /^v=spf1(\s|$)/i.test(r.trim())) : [];
  if (records.length === 0) {
    return item(
      'fail',
      `${domain} has no SPF record: receivers cannot tell which servers may send its mail, so yours may go to spam.`,
      null,
      fixWith(suggested),
    );
  }
  if (records.length > 1) {
    const terms = new Set<string>();
    for (const r of records) {
      for (const t of r.trim().split(/\s+/).slice(1)) if (!/^[+\-~?]?all$/i.test(t)) terms.add(t);
    }
    return item(
      'fail',
      `${domain} has ${records.length} SPF records; receivers ignore all of them. Replace them with one record.`,
      records.join('\n'),
      fixWith(['v=spf1', ...terms, '~all'].join(' ')),
    );
  }
  const record = records[0]!.trim();
  const allTerm = record.split(/\s+/).find((t) => /^[+\-~?]?all$/i.test(t));
  const qualifier = allTerm ? (allTerm.length === 4 ? allTerm[0]! : '+') : null;
  let result: DomainCheckItem;
  if (qualifier === '-' || qualifier === '~' || (!allTerm && /(^|\s)redirect=/i.test(record))) {
    result = item('pass', `SPF record found for ${domain}.`, record);
  } else if (!allTerm) {
    result = item(
      'warn',
      'Your SPF record does not end with ~all or -all, so it does not say what to do with other servers.',
      record,
      fixWith(`${record} ~all`),
    );
  } else {
    result = item(
      'warn',
      `Your SPF record ends with ${allTerm}: it lets any server send as ${domain}. Use ~all instead.`,
      record,
      fixWith(record.replace(/(^|\s)[+?]?all(?=\s|$)/i, '$1~all')),
    );
  }

  if (!options.smtpHostAddress) return result;
  const evaluation = await spf({
    sender: options.fromEmail,
    ip: options.smtpHostAddress,
    resolver: (name: string, type: string) => resolver.resolve(name, type),
    maxElapsedTime: SPF_EVALUATION_TIMEOUT_MS,
  } as Parameters<typeof spf>[0]).catch(() => null);
  const verdict = evaluation?.status.result;
  const allowTerm = spfAllowTerm(options);
  const allowFix = allowTerm ? fixWith(addSpfTerm(result.fix?.value ?? record, allowTerm)) : result.fix;
  switch (verdict) {
    case 'fail':
    case 'softfail':
      return item(
        'fail',
        `Your SPF record does not allow your mail server (${options.smtpHostAddress}) to send for ${domain}: receivers may reject your mail or put it in spam.`,
        record,
        allowFix,
      );
    case 'neutral':
      return result.status === 'pass'
        ? item(
            'warn',
            `Your SPF record does not list your mail server (${options.smtpHostAddress}).`,
            record,
            allowFix,
          )
        : result;
    case 'permerror':
      return item(
        'fail',
        'Your SPF record has an error (a typo, or more than 10 DNS lookups), so receivers ignore it.',
        record,
        fixWith(allowTerm ? addSpfTerm(suggested, allowTerm) : suggested),
      );
    default:
      return result;
  }
}

function dkimFixFor(domain: string, selector: string): DomainCheckItem['fix'] {
  return {
    type: 'TXT',
    host: `${selector}._domainkey.${domain}`,
    value: 'v=DKIM1; k=rsa; p=<the public key your mail provider gives you>',
  };
}

async function dkimAt(resolver: DnsResolver, domain: string, selector: string) {
  const txt = await txtRecords(resolver, `${selector}._domainkey.${domain}`);
  if (!txt.ok) return { state: txt.missing ? ('missing' as const) : ('unreachable' as const), record: null };
  const record = txt.value.find((r) => /(^|;)\s*p\s*=/i.test(r)) ?? null;
  if (!record) return { state: 'missing' as const, record: null };
  const key = /(?:^|;)\s*p\s*=\s*([^;]*)/i.exec(record)?.[1]?.trim() ?? '';
  return { state: key ? ('found' as const) : ('revoked' as const), record };
}

async function checkDkim(options: {
  resolver: DnsResolver;
  domain: string;
  dkimSelector?: string | null;
  smtpHost?: string | null;
}): Promise<DomainCheck['dkim']> {
  const { resolver, domain } = options;
  const given = options.dkimSelector?.trim();
  if (given) {
    const found = await dkimAt(resolver, domain, given);
    if (found.state === 'found') {
      return { ...item('pass', `DKIM key found at selector "${given}".`, found.record), selector: given };
    }
    if (found.state === 'unreachable')
      return { ...unreachable(`the DKIM key of ${domain}`), selector: given };
    const detail =
      found.state === 'revoked'
        ? `The DKIM key at ${given}._domainkey.${domain} is empty (revoked). Publish the current key from your mail provider.`
        : `No DKIM key at ${given}._domainkey.${domain}. Turn on DKIM signing at your mail provider and publish the TXT record it gives you.`;
    return { ...item('fail', detail, found.record, dkimFixFor(domain, given)), selector: given };
  }
  const hinted = providerHintsFor(options.smtpHost)?.dkimSelector;
  const selectors = [...new Set([...(hinted ? [hinted] : []), ...COMMON_DKIM_SELECTORS])];
  const answers = await Promise.all(selectors.map((s) => dkimAt(resolver, domain, s)));
  const index = answers.findIndex((a) => a.state === 'found');
  if (index !== -1) {
    const selector = selectors[index]!;
    return {
      ...item('pass', `DKIM key found at selector "${selector}".`, answers[index]!.record),
      selector,
    };
  }
  if (answers.every((a) => a.state === 'unreachable')) {
    return { ...unreachable(`the DKIM keys of ${domain}`), selector: null };
  }
  return {
    ...item(
      'fail',
      `We found no DKIM key for ${domain} at the usual selectors (${selectors.join(', ')}). Turn on DKIM signing at your mail provider and publish the TXT record it gives you; if it uses another selector, enter it in the account settings.`,
      null,
      dkimFixFor(domain, hinted ?? 'default'),
    ),
    selector: null,
  };
}

function dmarcTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) tags.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  return tags;
}

async function checkDmarc(options: { resolver: DnsResolver; domain: string }): Promise<DomainCheckItem> {
  const { resolver, domain } = options;
  const suggested = {
    type: 'TXT',
    host: `_dmarc.${domain}`,
    value: `v=DMARC1; p=none; rua=mailto:dmarc@${domain}`,
  };
  // The domain's own record, else its parents' (a subdomain inherits the organisation's policy, via sp=).
  const labels = domain.split('.');
  let records: string[] = [];
  let owner = domain;
  for (let i = 0; i <= labels.length - 2; i++) {
    owner = labels.slice(i).join('.');
    const txt = await txtRecords(resolver, `_dmarc.${owner}`);
    if (!txt.ok && !txt.missing) return unreachable(`the DMARC record of ${domain}`);
    records = txt.ok ? txt.value.filter((r) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(r.trim())) : [];
    if (records.length > 0) break;
  }
  if (records.length === 0) {
    return item(
      'fail',
      `${domain} has no DMARC record. Start with p=none to receive reports without changing delivery.`,
      null,
      suggested,
    );
  }
  if (records.length > 1) {
    return item(
      'fail',
      `_dmarc.${owner} has ${records.length} DMARC records; receivers ignore all of them. Keep one.`,
      records.join('\n'),
      suggested,
    );
  }
  const record = records[0]!.trim();
  const tags = dmarcTags(record);
  const policy = ((owner !== domain ? tags.get('sp') : undefined) ?? tags.get('p') ?? '').toLowerCase();
  const where = owner === domain ? '' : ` (inherited from ${owner})`;
  if (policy === 'quarantine' || policy === 'reject') {
    return item('pass', `DMARC policy p=${policy}${where}.`, record);
  }
  if (policy === 'none') {
    return item(
      'warn',
      `DMARC policy is p=none${where}: reports only, nothing stops someone sending as ${domain}. Once the reports look right, move to p=quarantine.`,
      record,
      owner === domain
        ? {
            type: 'TXT',
            host: `_dmarc.${domain}`,
            value: record.replace(/(^|;)(\s*)p\s*=\s*none/i, '$1$2p=quarantine'),
          }
        : null,
    );
  }
  return item(
    'fail',
    'Your DMARC record has no valid policy (p=none, p=quarantine or p=reject), so receivers ignore it.',
    record,
    owner === domain ? suggested : null,
  );
}

async function checkMx(options: {
  resolver: DnsResolver;
  domain: string;
  smtpHost?: string | null;
}): Promise<DomainCheckItem> {
  const { resolver, domain } = options;
  const hint = providerHintsFor(options.smtpHost)?.mx;
  const fix = { type: 'MX', host: domain, value: hint ? hint(domain) : `10 mail.${domain}` };
  const answer = await lookup(() => resolver.resolveMx(domain));
  if (!answer.ok && !answer.missing) return unreachable(`the MX records of ${domain}`);
  const records = answer.ok ? [...answer.value].sort((a, b) => a.priority - b.priority) : [];
  if (records.length === 0) {
    const detail =
      !answer.ok && answer.nxdomain ? `${domain} does not exist in DNS` : `${domain} has no MX record`;
    return item('fail', `${detail}: replies and bounces to your address will not arrive.`, null, fix);
  }
  const found = records.map((r) => `${r.priority} ${r.exchange}`).join(', ');
  if (records.length === 1 && records[0]!.exchange === '') {
    return item('fail', `${domain} says it accepts no mail (null MX): replies will not arrive.`, found, fix);
  }
  return item('pass', `${domain} receives mail (${records.map((r) => r.exchange).join(', ')}).`, found);
}

/** The from domain, in the ASCII form DNS uses. */
export function fromDomainOf(fromEmail: string): string {
  const raw = fromEmail
    .slice(fromEmail.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  return domainToASCII(raw) || raw;
}

/** Checks the from domain of a sender account. DNS trouble becomes 'warn' items; it never throws. */
export async function checkSenderDomain(options: {
  fromEmail: string;
  dkimSelector?: string | null;
  /** The account's SMTP host name, to recognise the provider for the suggested records. */
  smtpHost?: string | null;
  /** The address the SMTP host resolves to: SPF is evaluated for it. */
  smtpHostAddress?: string | null;
  resolver?: DnsResolver;
}): Promise<DomainCheck> {
  const resolver = options.resolver ?? createDnsResolver();
  const domain = fromDomainOf(options.fromEmail);
  const [spfItem, dkim, dmarc, mx] = await Promise.all([
    checkSpf({ ...options, resolver, domain }),
    checkDkim({ ...options, resolver, domain }),
    checkDmarc({ resolver, domain }),
    checkMx({ ...options, resolver, domain }),
  ]);
  return { domain, checkedAt: now().toISOString(), spf: spfItem, dkim, dmarc, mx };
}

/** The development mailbox's domain needs no DNS: every item passes. */
export function devMailboxDomainCheck(fromEmail: string): DomainCheck {
  const pass = item('pass', DEV_MAILBOX_CHECK_DETAIL);
  return {
    domain: fromDomainOf(fromEmail),
    checkedAt: now().toISOString(),
    spf: pass,
    dkim: { ...pass, selector: null },
    dmarc: pass,
    mx: pass,
  };
}
