import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import type { senderAccounts } from '@server/db/schema/index';
import { decryptSecret } from '@server/lib/crypto';
import { AppError } from '@server/lib/errors';
import { type HostLookup, resolveMailHost, type SenderNetwork } from '@server/lib/network-guard';
import type {
  CertificateProblem,
  ConnectionTestResult,
  ServerTestResult,
  SmtpSecurity,
} from '@shared/sending';
import { ImapFlow } from 'imapflow';
import nodemailer, { type Transporter } from 'nodemailer';
import type { SMTPConnectionOptions } from 'nodemailer/lib/smtp-connection';
import type { SMTPTransportOptions } from 'nodemailer/lib/smtp-transport';
import { certificateProblemOf, classifySmtpError, type SMTP_ERROR_MESSAGES } from './smtp-errors';
import { asPinMismatch, describeCertificate, presentedCertificate, tlsOptionsFor } from './tls-trust';

/*
 * Connections to a sender account's own mail servers. Every connection goes through the SSRF guard and to
 * the address it returned (the TLS servername stays the host name, so certificates are still checked
 * against it). The development mailbox is ours, on loopback, at whatever port it runs on now.
 */

export type SenderAccountRow = typeof senderAccounts.$inferSelect;

export interface MailServerSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  user: string;
  password: string;
  /** The certificate the owner trusts for this server (PEM), or null for the public authorities. */
  tlsCert: string | null;
}

export interface SenderConnectionSettings {
  smtp: MailServerSettings;
  imap: MailServerSettings | null;
  isDevMailbox: boolean;
  /** The from address: its domain is our EHLO name unless the operator set SMTP_EHLO_NAME. */
  fromEmail: string;
}

/**
 * What we say in EHLO: the operator's SMTP_EHLO_NAME, else the sender's own domain. nodemailer's default
 * is the machine's name or `[127.0.0.1]`, which every receiving server then writes into `Received: from`
 * and spam filters read as a misconfigured or hijacked client.
 */
export function ehloNameFor(fromEmail: string, configured?: string | null): string | undefined {
  if (configured) return configured;
  const domain = domainToASCII(
    fromEmail
      .slice(fromEmail.lastIndexOf('@') + 1)
      .trim()
      .toLowerCase(),
  );
  return domain && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? domain : undefined;
}

const TIMEOUTS = { connection: 10_000, greeting: 10_000, socket: 30_000 } as const;
const TEST_TIMEOUT_MS = 15_000;

export const DEV_MAILBOX_NOT_RUNNING = 'The Tambari test mailbox is not running on this server';

/** The stored account's settings with its passwords unsealed. Keep the result in memory only. */
export function connectionSettingsOf(
  account: SenderAccountRow,
  encryptionKey: Buffer,
): SenderConnectionSettings {
  const smtpPassword = decryptSecret(account.smtpPasswordEnc, encryptionKey);
  return {
    smtp: {
      host: account.smtpHost,
      port: account.smtpPort,
      security: account.smtpSecurity,
      user: account.smtpUser,
      password: smtpPassword,
      tlsCert: account.smtpTlsCert,
    },
    imap:
      account.imapEnabled && account.imapHost && account.imapPort
        ? {
            host: account.imapHost,
            port: account.imapPort,
            security: account.imapSecurity ?? 'tls',
            user: account.imapUser || account.smtpUser,
            // No IMAP password of its own: the mailbox uses the same one as SMTP (the usual case).
            password: account.imapPasswordEnc
              ? decryptSecret(account.imapPasswordEnc, encryptionKey)
              : smtpPassword,
            tlsCert: account.imapTlsCert,
          }
        : null,
    isDevMailbox: account.isDevMailbox,
    fromEmail: account.fromEmail,
  };
}

interface TransportOptions {
  network: SenderNetwork;
  devMailboxPort?: number | null;
  lookup?: HostLookup;
  timeouts?: { connection: number; greeting: number; socket: number };
  /** SMTP_EHLO_NAME; unset: the sender's domain. */
  ehloName?: string | null;
}

/**
 * How to reach and sign in to an account's SMTP server: the one place both the nodemailer transports
 * (tests, one-off sends) and the dispatcher's own pool (smtp-pool.ts) take their connection options
 * from, so the two cannot drift apart.
 */
export interface SmtpConnectionSetup {
  options: SMTPConnectionOptions;
  auth: { user: string; pass: string } | null;
  /** A pinned certificate: every certificate failure reads "the certificate changed" (asPinMismatch). */
  pinned: boolean;
}

export async function smtpConnectionSetup(
  settings: SenderConnectionSettings,
  options: TransportOptions,
): Promise<SmtpConnectionSetup> {
  const timeouts = options.timeouts ?? TIMEOUTS;
  const common = {
    connectionTimeout: timeouts.connection,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.socket,
    dnsTimeout: timeouts.connection,
    logger: false,
    debug: false,
    name: ehloNameFor(settings.fromEmail, options.ehloName),
  } as const;
  if (settings.isDevMailbox) {
    if (!options.devMailboxPort) throw new AppError('unavailable', DEV_MAILBOX_NOT_RUNNING);
    return {
      options: {
        ...common,
        host: '127.0.0.1',
        port: options.devMailboxPort,
        secure: false,
        ignoreTLS: true,
      },
      // The development mailbox accepts any login; authenticating anyway runs the same code path (and
      // the same failure handling) as a real server.
      auth: settings.smtp.user ? { user: settings.smtp.user, pass: settings.smtp.password } : null,
      pinned: false,
    };
  }
  const { smtp } = settings;
  const resolved = await resolveMailHost({
    host: smtp.host,
    port: smtp.port,
    kind: 'smtp',
    network: options.network,
    lookup: options.lookup,
    plaintext: smtp.security === 'none',
  });
  return {
    options: {
      ...common,
      host: resolved.address,
      port: smtp.port,
      secure: smtp.security === 'tls',
      requireTLS: smtp.security === 'starttls',
      ignoreTLS: smtp.security === 'none',
      tls: tlsOptionsFor(smtp.host, smtp.tlsCert),
    },
    auth: { user: smtp.user, pass: smtp.password },
    pinned: Boolean(smtp.tlsCert),
  };
}

async function createSmtpTransport(
  settings: SenderConnectionSettings,
  options: TransportOptions,
): Promise<Transporter> {
  const setup = await smtpConnectionSetup(settings, options);
  const transport = nodemailer.createTransport({
    ...setup.options,
    ...(setup.auth ? { auth: setup.auth } : {}),
    // Message content never makes us read local files or fetch URLs (attachments, images by path).
    disableFileAccess: true,
    disableUrlAccess: true,
  } satisfies SMTPTransportOptions);
  if (setup.pinned) reportPinMismatches(transport);
  return transport;
}

/**
 * A pinned transport's certificate failures are "the certificate changed" (see tls-trust.ts), for the
 * dispatcher's last error and the connection test alike.
 */
function reportPinMismatches(transport: Transporter): void {
  const sendMail = transport.sendMail.bind(transport) as (mail: unknown) => Promise<unknown>;
  const verify = transport.verify.bind(transport) as () => Promise<true>;
  Object.assign(transport, {
    sendMail: (mail: unknown, callback?: (error: unknown, info?: unknown) => void) => {
      const sent = sendMail(mail).catch((error: unknown) => {
        throw asPinMismatch(error, true);
      });
      if (!callback) return sent;
      sent.then(
        (info) => callback(null, info),
        (error: unknown) => callback(error),
      );
      return undefined;
    },
    verify: () =>
      verify().catch((error: unknown) => {
        throw asPinMismatch(error, true);
      }),
  });
}

/** What opening an SMTP connection for a stored account needs, whether a transport or the pool. */
export interface StoredAccountSmtpOptions {
  account: SenderAccountRow;
  encryptionKey: Buffer;
  network: SenderNetwork;
  devMailboxPort?: number | null;
  lookup?: HostLookup;
  /** SMTP_EHLO_NAME; unset: the sender's domain. */
  ehloName?: string | null;
}

/** The connection options of a stored account (its passwords unsealed), for the dispatcher's pool. */
export async function smtpSetupForAccount(options: StoredAccountSmtpOptions): Promise<SmtpConnectionSetup> {
  return smtpConnectionSetup(connectionSettingsOf(options.account, options.encryptionKey), options);
}

/** A one-connection SMTP transport for a stored account (test and one-off sends). */
export async function openSmtpTransport(options: StoredAccountSmtpOptions): Promise<Transporter> {
  return createSmtpTransport(connectionSettingsOf(options.account, options.encryptionKey), options);
}

async function createImapClient(
  settings: MailServerSettings,
  options: { network: SenderNetwork; lookup?: HostLookup; verifyOnly?: boolean },
): Promise<ImapFlow> {
  const resolved = await resolveMailHost({
    host: settings.host,
    port: settings.port,
    kind: 'imap',
    network: options.network,
    lookup: options.lookup,
    plaintext: settings.security === 'none',
  });
  const client = new ImapFlow({
    host: resolved.address,
    port: settings.port,
    secure: settings.security === 'tls',
    doSTARTTLS: settings.security === 'starttls' ? true : settings.security === 'none' ? false : undefined,
    servername: isIP(settings.host) ? undefined : settings.host,
    tls: tlsOptionsFor(settings.host, settings.tlsCert),
    auth: { user: settings.user, pass: settings.password },
    logger: false,
    connectionTimeout: TIMEOUTS.connection,
    greetingTimeout: TIMEOUTS.greeting,
    socketTimeout: 60_000,
    // We poll on a schedule; an IDLE left open would hold a connection per account for nothing.
    disableAutoIdle: true,
    verifyOnly: options.verifyOnly,
  });
  // Failures reach the caller through the rejected command; an 'error' event nobody listens to would crash.
  client.on('error', () => {});
  if (settings.tlsCert) {
    const connect = client.connect.bind(client);
    client.connect = () =>
      connect().catch((error: unknown) => {
        throw asPinMismatch(error, true);
      });
  }
  return client;
}

/** An IMAP client (not yet connected) for a stored account with IMAP enabled. */
export async function openImapClient(options: {
  account: SenderAccountRow;
  encryptionKey: Buffer;
  network: SenderNetwork;
  lookup?: HostLookup;
}): Promise<ImapFlow> {
  const { imap } = connectionSettingsOf(options.account, options.encryptionKey);
  if (!imap) throw new AppError('bad_request', 'IMAP is not turned on for this sender account');
  return createImapClient(imap, options);
}

function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(Object.assign(new Error('Connection test timed out'), { code: 'ETIMEDOUT' }));
      }, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const CERTIFICATE_PROBLEM: Record<string, CertificateProblem> = {
  certSelfSigned: 'self_signed',
  certUnknownCa: 'unknown_ca',
  certExpired: 'expired',
  certNotYetValid: 'not_yet_valid',
  certNameMismatch: 'name_mismatch',
  certChanged: 'changed',
} satisfies Partial<Record<keyof typeof SMTP_ERROR_MESSAGES, CertificateProblem>>;

/**
 * A failed test: its fixed message and, when the certificate was the trouble, the certificate the server
 * presents (read again over a connection of its own that sends nothing), for the trust prompt.
 */
async function failedTest(
  error: unknown,
  server: MailServerSettings,
  kind: 'smtp' | 'imap',
  options: { network: SenderNetwork; lookup?: HostLookup; ehloName?: string },
): Promise<ServerTestResult> {
  const message = classifySmtpError(error).safeMessage;
  const problem = certificateProblemOf(error);
  if (!problem) return { ok: false, message };
  const resolved = await resolveMailHost({
    host: server.host,
    port: server.port,
    kind,
    network: options.network,
    lookup: options.lookup,
  }).catch(() => null);
  const pem = resolved
    ? await presentedCertificate({
        address: resolved.address,
        host: server.host,
        port: server.port,
        security: server.security,
        kind,
        ehloName: options.ehloName,
      })
    : null;
  if (!pem) return { ok: false, message };
  return {
    ok: false,
    message,
    certificate: { ...describeCertificate(pem), problem: CERTIFICATE_PROBLEM[problem] ?? 'other' },
  };
}

async function testSmtp(
  settings: SenderConnectionSettings,
  options: TransportOptions,
  timeoutMs: number,
): Promise<ServerTestResult> {
  let transport: Transporter | null = null;
  try {
    transport = await createSmtpTransport(settings, options);
    const opened = transport;
    // verify(): connect, EHLO, STARTTLS when set, AUTH; no mail is sent.
    await withDeadline(opened.verify(), timeoutMs, () => opened.close());
    return { ok: true, message: 'Connected and signed in to the SMTP server.' };
  } catch (error) {
    if (settings.isDevMailbox) return { ok: false, message: classifySmtpError(error).safeMessage };
    return failedTest(error, settings.smtp, 'smtp', {
      ...options,
      ehloName: ehloNameFor(settings.fromEmail, options.ehloName),
    });
  } finally {
    transport?.close();
  }
}

async function testImap(
  settings: MailServerSettings,
  options: { network: SenderNetwork; lookup?: HostLookup },
  timeoutMs: number,
): Promise<ServerTestResult> {
  let client: ImapFlow | null = null;
  try {
    client = await createImapClient(settings, { ...options, verifyOnly: true });
    const opened = client;
    // verifyOnly: connect, log in, log out.
    await withDeadline(opened.connect(), timeoutMs, () => opened.close());
    return { ok: true, message: 'Connected and signed in to the IMAP server.' };
  } catch (error) {
    return failedTest(error, settings, 'imap', options);
  } finally {
    client?.close();
  }
}

/**
 * Tries the settings live: SMTP connect + EHLO + AUTH and, with IMAP on, IMAP connect + login + logout,
 * each within 15 s. The messages are fixed texts (see smtp-errors.ts), never the server's words.
 */
export async function testSenderConnection(options: {
  settings: SenderConnectionSettings;
  network: SenderNetwork;
  devMailboxPort?: number | null;
  lookup?: HostLookup;
  timeoutMs?: number;
  ehloName?: string | null;
}): Promise<ConnectionTestResult> {
  const timeoutMs = options.timeoutMs ?? TEST_TIMEOUT_MS;
  const { settings } = options;
  const [smtp, imap] = await Promise.all([
    testSmtp(settings, options, timeoutMs),
    settings.imap && !settings.isDevMailbox
      ? testImap(settings.imap, options, timeoutMs)
      : Promise.resolve(null),
  ]);
  return { smtp, imap };
}
