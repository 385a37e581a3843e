import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { isValidPort, PORT_MESSAGE } from '@shared/sending';
import ipaddr from 'ipaddr.js';
import type { Env } from '../env';
import { AppError } from './errors';

/*
 * The SSRF guard for user-supplied mail servers. A user's SMTP/IMAP host must resolve to addresses the
 * operator allows (SENDER_NETWORK); otherwise the connection test would let anyone probe our internal
 * network or the cloud metadata service. Any port is allowed (servers run on 10025, 1587…): what protects
 * the inside is the address, and a failed connection reads the same whatever answered on the port
 * (smtp-errors.ts; docs/decisions/mail-servers-customers-have.md). Callers connect to the address returned here (TLS servername = the
 * original host name), so a DNS answer that changes between this check and the connection is useless.
 */

export type SenderNetwork = Env['SENDER_NETWORK'];
export type MailServerKind = 'smtp' | 'imap';

export interface ResolvedMailHost {
  address: string;
  family: 4 | 6;
}

export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

export const NETWORK_GUARD_MESSAGES = {
  notAllowed: 'This mail server address is not allowed',
  port: PORT_MESSAGE,
  notFound: (host: string) => `We could not find the mail server ${host}`,
  plaintext:
    'Choose SSL/TLS or STARTTLS: without encryption the password would cross the internet readable by anyone on the way',
} as const;

const LOOKUP_TIMEOUT_MS = 10_000;

/** AWS's IPv6 instance metadata endpoint sits inside fc00::/7, which 'private' otherwise allows. */
const METADATA_V6 = [ipaddr.parse('fd00:ec2::254')];

const ALLOWED_RANGES: Record<SenderNetwork, ReadonlySet<string>> = {
  public: new Set(['unicast']),
  loopback: new Set(['unicast', 'loopback']),
  private: new Set(['unicast', 'loopback', 'private', 'uniqueLocal']),
};

/** Whether a connection to this literal address is allowed on this network setting. */
export function isAllowedAddress(address: string, network: SenderNetwork): boolean {
  if (!ipaddr.isValid(address) || isIP(address) === 0) return false;
  let parsed = ipaddr.parse(address);
  // ::ffff:169.254.169.254 reaches the same host as 169.254.169.254: judge it as the IPv4 it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv6' && METADATA_V6.some((m) => m.toString() === parsed.toString())) return false;
  return ALLOWED_RANGES[network].has(parsed.range());
}

const systemLookup: HostLookup = (host) => dns.lookup(host, { all: true, verbatim: true });

function portError(kind: MailServerKind): AppError {
  return fieldError(kind === 'smtp' ? 'smtpPort' : 'imapPort', NETWORK_GUARD_MESSAGES.port);
}

function fieldError(path: string, message: string): AppError {
  return new AppError('validation', message, { errors: [{ path, message }] });
}

/**
 * Resolves a user's mail server to one address we may connect to, or throws AppError('validation') with a
 * fixed message. Every address the name resolves to must be allowed, not just the first: otherwise a name
 * answering both a public and an internal address could still steer the connection inside.
 */
export async function resolveMailHost(options: {
  host: string;
  port: number;
  kind: MailServerKind;
  network: SenderNetwork;
  lookup?: HostLookup;
  /**
   * The connection would not be encrypted (security 'none'). Allowed only to a loopback or private
   * address, a relay on the operator's own network; never across the internet.
   */
  plaintext?: boolean;
}): Promise<ResolvedMailHost> {
  const { kind, network } = options;
  if (!isValidPort(options.port)) throw portError(kind);
  const hostField = kind === 'smtp' ? 'smtpHost' : 'imapHost';
  const host = options.host.trim().replace(/\.$/, '').toLowerCase();
  const literal = host.replace(/^\[(.*)\]$/, '$1');

  let addresses: { address: string; family: number }[];
  if (isIP(literal) !== 0) {
    addresses = [{ address: literal, family: isIP(literal) }];
  } else {
    if (!host || !/^[a-z0-9.-]+$/.test(host))
      throw fieldError(hostField, NETWORK_GUARD_MESSAGES.notFound(host));
    try {
      addresses = await withTimeout((options.lookup ?? systemLookup)(host), LOOKUP_TIMEOUT_MS);
    } catch {
      throw fieldError(hostField, NETWORK_GUARD_MESSAGES.notFound(host));
    }
    if (addresses.length === 0) throw fieldError(hostField, NETWORK_GUARD_MESSAGES.notFound(host));
  }

  if (!addresses.every((a) => isAllowedAddress(a.address, network))) {
    throw fieldError(hostField, NETWORK_GUARD_MESSAGES.notAllowed);
  }
  if (options.plaintext && addresses.some((a) => isAllowedAddress(a.address, 'public'))) {
    throw fieldError(kind === 'smtp' ? 'smtpSecurity' : 'imapSecurity', NETWORK_GUARD_MESSAGES.plaintext);
  }
  const chosen = addresses[0]!;
  let address = chosen.address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (parsed as ipaddr.IPv6).toIPv4Address().toString();
  }
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
