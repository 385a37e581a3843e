import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { isRoleAddress } from '@shared/contacts';
import type { EmailVerificationReason, EmailVerificationStatus } from '@shared/verification';
import isEmail from 'validator/lib/isEmail.js';
import { isDisposableDomain } from '../imports/imports.service';
import { probeRecipients, type SmtpReply } from './smtp-probe';

/*
 * Verifies addresses without sending anything: syntax (with international domains in their ASCII form),
 * disposable and role checks, MX (falling back to the domain's own address, as senders do), then one SMTP
 * conversation per domain asking about each address and about a random one (a catch-all domain accepts
 * both, so its "yes" proves nothing). Conversations per mail server are limited, so a verifier run never
 * looks like an attack to a big provider.
 */

export interface Verdict {
  email: string;
  domain: string;
  status: EmailVerificationStatus;
  reason: EmailVerificationReason;
  smtpCode: number | null;
  mxHost: string | null;
  /** Greylisted: ask again after this. */
  retryAt: Date | null;
}

export interface MailHost {
  host: string;
  port: number;
}

export interface VerifierOptions {
  /** The receiving mail servers of a domain, best first; [] when it receives no mail; throws on a DNS failure. */
  mailHostsOf: (domain: string) => Promise<MailHost[]>;
  heloName: string;
  mailFrom: string;
  timeoutMs?: number;
  /** Conversations open at once with one mail server. */
  perHostConcurrency?: number;
  /** Domains worked on at once. */
  concurrency?: number;
  now?: () => Date;
}

const RCPTS_PER_CONNECTION = 50;
const GREYLIST_RETRY_MS = 15 * 60 * 1000;

/** The domain's mail servers from DNS on port 25: MX by priority, else the domain itself (RFC 5321 §5.1). */
export function dnsMailHosts(options: { servers?: string[]; port?: number; timeoutMs?: number } = {}) {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 5000, tries: 2 });
  if (options.servers?.length) resolver.setServers(options.servers);
  const port = options.port ?? 25;
  return async (domain: string): Promise<MailHost[]> => {
    try {
      const records = await resolver.resolveMx(domain);
      // RFC 7505 null MX: the domain says it accepts no mail.
      if (records.length === 1 && records[0]!.exchange === '') return [];
      if (records.length > 0) {
        return records.sort((a, b) => a.priority - b.priority).map((r) => ({ host: r.exchange, port }));
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND') return [];
      if (code !== 'ENODATA') throw error;
    }
    try {
      const addresses = await resolver.resolve4(domain);
      return addresses.length ? [{ host: domain, port }] : [];
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      throw error;
    }
  };
}

/** `Ada@Bücher.de` → `ada@xn--bcher-kva.de`, or null when it is not an address. */
export function normaliseForVerification(raw: string): { email: string; domain: string } | null {
  const value = raw.trim();
  const at = value.lastIndexOf('@');
  if (at <= 0 || value.length > 254) return null;
  const local = value.slice(0, at).toLowerCase();
  const domain = domainToASCII(value.slice(at + 1).toLowerCase());
  if (!domain) return null;
  const email = `${local}@${domain}`;
  if (!isEmail(email, { allow_utf8_local_part: true, require_tld: true, allow_ip_domain: false }))
    return null;
  return { email, domain };
}

/** Limits concurrent work per key (a mail server). */
function keyedLimiter(limit: number) {
  const active = new Map<string, number>();
  const queues = new Map<string, (() => void)[]>();
  return async <T>(key: string, task: () => Promise<T>): Promise<T> => {
    if ((active.get(key) ?? 0) >= limit) {
      await new Promise<void>((resolve) => {
        const queue = queues.get(key) ?? [];
        queue.push(resolve);
        queues.set(key, queue);
      });
    }
    active.set(key, (active.get(key) ?? 0) + 1);
    try {
      return await task();
    } finally {
      active.set(key, (active.get(key) ?? 1) - 1);
      queues.get(key)?.shift()?.();
    }
  };
}

function judgeReply(reply: SmtpReply | undefined): {
  status: EmailVerificationStatus;
  reason: EmailVerificationReason;
} {
  if (!reply) return { status: 'unknown', reason: 'unreachable' };
  const { code, text } = reply;
  if (code === 250 || code === 251) return { status: 'valid', reason: 'accepted' };
  if (code === 452 || code === 552 || /\b[45]\.2\.2\b/.test(text))
    return { status: 'risky', reason: 'mailbox_full' };
  if (code === 450 || code === 451) return { status: 'risky', reason: 'greylisted' };
  if (code === 550 || code === 551 || code === 553 || /\b5\.1\.[0-9]\b/.test(text)) {
    return { status: 'invalid', reason: 'rejected' };
  }
  if (code === 421) return { status: 'unknown', reason: 'unreachable' };
  if (code >= 500) return { status: 'unknown', reason: 'blocked' };
  return { status: 'unknown', reason: 'unreachable' };
}

async function verifyDomain(
  domain: string,
  emails: string[],
  options: VerifierOptions,
  limit: ReturnType<typeof keyedLimiter>,
): Promise<Verdict[]> {
  const now = options.now?.() ?? new Date();
  const verdict = (
    email: string,
    status: EmailVerificationStatus,
    reason: EmailVerificationReason,
    extra: Partial<Verdict> = {},
  ): Verdict => ({ email, domain, status, reason, smtpCode: null, mxHost: null, retryAt: null, ...extra });

  let hosts: MailHost[];
  try {
    hosts = await options.mailHostsOf(domain);
  } catch {
    return emails.map((email) => verdict(email, 'unknown', 'dns_error'));
  }
  if (hosts.length === 0) return emails.map((email) => verdict(email, 'invalid', 'no_mx'));

  const probe = `${randomBytes(8).toString('hex')}-verify@${domain}`;
  const results: Verdict[] = [];
  for (let start = 0; start < emails.length; start += RCPTS_PER_CONNECTION) {
    const batch = emails.slice(start, start + RCPTS_PER_CONNECTION);
    let settled = false;
    for (const host of hosts.slice(0, 2)) {
      const outcome = await limit(host.host, () =>
        probeRecipients({
          host: host.host,
          port: host.port,
          heloName: options.heloName,
          mailFrom: options.mailFrom,
          recipients: [probe, ...batch],
          timeoutMs: options.timeoutMs ?? 15_000,
        }),
      );
      // An unreachable first server: the next one by priority may answer.
      if (outcome.kind === 'failed' && outcome.reason === 'unreachable') continue;
      settled = true;
      if (outcome.kind === 'failed') {
        for (const email of batch) {
          results.push(
            verdict(email, 'unknown', 'blocked', {
              smtpCode: outcome.reply?.code ?? null,
              mxHost: host.host,
            }),
          );
        }
        break;
      }
      const catchAll = outcome.replies.get(probe)?.code === 250;
      for (const email of batch) {
        const reply = outcome.replies.get(email);
        const judged = judgeReply(reply);
        const extra = { smtpCode: reply?.code ?? null, mxHost: host.host };
        if (judged.status === 'valid' && catchAll) results.push(verdict(email, 'risky', 'catch_all', extra));
        else if (judged.status === 'valid' && isRoleAddress(email))
          results.push(verdict(email, 'risky', 'role', extra));
        else if (judged.reason === 'greylisted') {
          results.push(
            verdict(email, 'risky', 'greylisted', {
              ...extra,
              retryAt: new Date(now.getTime() + GREYLIST_RETRY_MS),
            }),
          );
        } else results.push(verdict(email, judged.status, judged.reason, extra));
      }
      break;
    }
    if (!settled) for (const email of batch) results.push(verdict(email, 'unknown', 'unreachable'));
  }
  return results;
}

/** Verdicts for the given addresses (each once), in no particular order. */
export async function verifyAddresses(
  rawEmails: readonly string[],
  options: VerifierOptions,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  const byDomain = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const raw of rawEmails) {
    const normal = normaliseForVerification(raw);
    if (!normal) {
      const email = raw.trim().toLowerCase();
      if (!seen.has(email)) {
        seen.add(email);
        verdicts.push({
          email,
          domain: email.split('@')[1] ?? '',
          status: 'invalid',
          reason: 'syntax',
          smtpCode: null,
          mxHost: null,
          retryAt: null,
        });
      }
      continue;
    }
    if (seen.has(normal.email)) continue;
    seen.add(normal.email);
    if (isDisposableDomain(normal.domain)) {
      verdicts.push({
        ...normal,
        status: 'invalid',
        reason: 'disposable',
        smtpCode: null,
        mxHost: null,
        retryAt: null,
      });
      continue;
    }
    byDomain.set(normal.domain, [...(byDomain.get(normal.domain) ?? []), normal.email]);
  }
  const limit = keyedLimiter(options.perHostConcurrency ?? 2);
  const domains = [...byDomain.entries()];
  const workers = Array.from({ length: Math.min(options.concurrency ?? 20, domains.length) }, async () => {
    for (let next = domains.shift(); next; next = domains.shift()) {
      verdicts.push(...(await verifyDomain(next[0], next[1], options, limit)));
    }
  });
  await Promise.all(workers);
  return verdicts;
}
