import type { Database } from '@server/db/client';
import { senderAccounts } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { escapeHtml } from '@server/lib/html';
import { type HostLookup, resolveMailHost, type SenderNetwork } from '@server/lib/network-guard';
import type {
  ConnectionTestResult,
  SenderAccount,
  SenderTrustCertificateInput,
  SmtpSecurity,
} from '@shared/sending';
import { and, eq } from 'drizzle-orm';
import type { DnsResolver } from './domain-check.service';
import { sendOneOffEmail } from './one-off-send';
import {
  getSenderAccountRow,
  refreshSenderDomainCheck,
  type SenderAccountFields,
  toSenderAccountDto,
} from './sender-accounts.service';
import {
  connectionSettingsOf,
  ehloNameFor,
  type SenderConnectionSettings,
  testSenderConnection,
} from './sender-transport';
import { fingerprintOf, presentedCertificate, sameFingerprint } from './tls-trust';

/*
 * What a user does with an account's connection: test settings before saving them, test a saved account,
 * send themselves a test email, re-run the domain check. A failed test changes nothing about the account:
 * the user is trying things out, not the dispatcher failing to send.
 */

interface ConnectionContext {
  db: Database;
  encryptionKey: Buffer;
  network: SenderNetwork;
  devMailboxPort: number | null;
  lookup?: HostLookup;
  /** SMTP_EHLO_NAME (unset: the sender's domain). */
  ehloName?: string | null;
}

function fieldError(path: string, message: string): AppError {
  return new AppError('validation', message, { errors: [{ path, message }] });
}

/**
 * Tests settings typed in the form. While editing (`accountId`), a password left blank is the stored one —
 * but only for the same host: pointing a saved password at another server would hand it to that server.
 */
export async function testSenderSettings(
  options: ConnectionContext & {
    userId: string;
    input: SenderAccountFields;
    accountId?: string;
    smtpTrustFingerprint?: string;
    imapTrustFingerprint?: string;
  },
): Promise<ConnectionTestResult> {
  const { input } = options;
  const stored = options.accountId ? await getSenderAccountRow({ ...options, id: options.accountId }) : null;
  const storedSettings =
    stored && !stored.isDevMailbox ? connectionSettingsOf(stored, options.encryptionKey) : null;
  const smtpHost = input.smtpHost.toLowerCase();

  let smtpPassword = input.smtpPassword;
  const smtpPasswordStored = !smtpPassword;
  if (!smtpPassword) {
    if (!storedSettings) throw fieldError('smtpPassword', 'Enter the password');
    if (storedSettings.smtp.host !== smtpHost) {
      throw fieldError('smtpPassword', 'Enter the password to test a different server');
    }
    smtpPassword = storedSettings.smtp.password;
  }

  let imap: SenderConnectionSettings['imap'] = null;
  if (input.imapEnabled && input.imapHost && input.imapPort !== undefined) {
    const imapHost = input.imapHost.toLowerCase();
    const sameImapHost = storedSettings?.imap?.host === imapHost;
    let imapPassword = input.imapPassword || null;
    if (!imapPassword && (stored?.imapPasswordEnc || smtpPasswordStored)) {
      // A stored password (IMAP's own, or SMTP's standing in for it) only goes to the stored IMAP host.
      if (!sameImapHost)
        throw fieldError('imapPassword', 'Enter the IMAP password to test a different server');
      imapPassword = storedSettings?.imap?.password ?? null;
    }
    const server = { host: imapHost, port: input.imapPort, security: input.imapSecurity ?? 'tls' } as const;
    imap = {
      ...server,
      user: input.imapUser || input.smtpUser,
      password: imapPassword ?? smtpPassword,
      tlsCert: await pinForTest(
        options,
        server,
        'imap',
        options.imapTrustFingerprint,
        stored?.imapHost === imapHost && stored?.imapPort === input.imapPort ? stored.imapTlsCert : null,
      ),
    };
  }

  const smtpServer = { host: smtpHost, port: input.smtpPort, security: input.smtpSecurity };
  return testSenderConnection({
    ...options,
    settings: {
      smtp: {
        ...smtpServer,
        user: input.smtpUser,
        password: smtpPassword,
        tlsCert: await pinForTest(
          options,
          smtpServer,
          'smtp',
          options.smtpTrustFingerprint,
          stored && !stored.isDevMailbox && stored.smtpHost === smtpHost && stored.smtpPort === input.smtpPort
            ? stored.smtpTlsCert
            : null,
        ),
      },
      imap,
      isDevMailbox: false,
      fromEmail: input.fromEmail,
    },
  });
}

interface ServerAddress {
  host: string;
  port: number;
  security: SmtpSecurity;
}

/**
 * The certificate a form test trusts: the one the user just chose to trust (only if the server presents
 * exactly it now), else the account's stored pin while host and port are unchanged, else none.
 */
async function pinForTest(
  ctx: ConnectionContext,
  server: ServerAddress,
  kind: 'smtp' | 'imap',
  trustFingerprint: string | undefined,
  storedPin: string | null,
): Promise<string | null> {
  if (trustFingerprint) {
    const pem = await readCertificate(ctx, server, kind, null);
    if (pem && sameFingerprint(fingerprintOf(pem), trustFingerprint)) return pem;
  }
  return storedPin;
}

async function readCertificate(
  ctx: ConnectionContext,
  server: ServerAddress,
  kind: 'smtp' | 'imap',
  fromEmail: string | null,
): Promise<string | null> {
  const resolved = await resolveMailHost({
    host: server.host,
    port: server.port,
    kind,
    network: ctx.network,
    lookup: ctx.lookup,
  }).catch(() => null);
  if (!resolved) return null;
  return presentedCertificate({
    address: resolved.address,
    host: server.host,
    port: server.port,
    security: server.security,
    kind,
    ehloName: fromEmail ? ehloNameFor(fromEmail, ctx.ehloName) : (ctx.ehloName ?? undefined),
  });
}

/**
 * "Trust this certificate" on a saved account: pins the certificate the server presents now, if it is the
 * one the user checked (its fingerprint), so nobody can slip another one in between the test and the
 * click. `fingerprint: null` forgets the pin. Either way the account's transports reopen (updatedAt).
 */
export async function trustSenderCertificate(
  options: ConnectionContext & { userId: string; id: string; input: SenderTrustCertificateInput },
): Promise<SenderAccount> {
  const row = await getSenderAccountRow(options);
  const { server, fingerprint } = options.input;
  const column = server === 'smtp' ? 'smtpTlsCert' : 'imapTlsCert';
  let pem: string | null = null;
  if (fingerprint !== null) {
    if (row.isDevMailbox) throw new AppError('bad_request', 'The test mailbox does not use TLS');
    const address =
      server === 'smtp'
        ? { host: row.smtpHost, port: row.smtpPort, security: row.smtpSecurity }
        : row.imapEnabled && row.imapHost && row.imapPort
          ? { host: row.imapHost, port: row.imapPort, security: row.imapSecurity ?? 'tls' }
          : null;
    if (!address) throw new AppError('bad_request', 'IMAP is not turned on for this sender account');
    if (address.security === 'none') {
      throw new AppError('bad_request', 'This server is set up without encryption: there is no certificate');
    }
    pem = await readCertificate(options, address, server, row.fromEmail);
    if (!pem) {
      throw new AppError(
        'bad_request',
        'We could not read the certificate of this server. Test the connection again.',
      );
    }
    if (!sameFingerprint(fingerprintOf(pem), fingerprint)) {
      throw new AppError(
        'conflict',
        'The server now presents a different certificate. Test the connection again and check the new one before you trust it.',
      );
    }
  }
  const [updated] = await options.db
    .update(senderAccounts)
    .set({ [column]: pem, updatedAt: now() })
    .where(and(eq(senderAccounts.id, row.id), eq(senderAccounts.userId, options.userId)))
    .returning();
  if (!updated) throw notFound('Sender account not found');
  return toSenderAccountDto(updated);
}

/** Tests a saved account as the dispatcher would connect to it. */
export async function testSenderAccount(
  options: ConnectionContext & { userId: string; id: string },
): Promise<ConnectionTestResult> {
  const row = await getSenderAccountRow(options);
  return testSenderConnection({ ...options, settings: connectionSettingsOf(row, options.encryptionKey) });
}

export async function checkSenderAccountDomain(options: {
  db: Database;
  userId: string;
  id: string;
  network: SenderNetwork;
  lookup?: HostLookup;
  dnsResolver?: DnsResolver;
}): Promise<SenderAccount> {
  const row = await getSenderAccountRow(options);
  return toSenderAccountDto(await refreshSenderDomainCheck({ ...options, row }));
}

/**
 * Sends a short email through the account (to the user by default). It counts towards today's sends and is
 * refused once the account has reached today's cap, like any other email.
 */
export async function sendSenderTestEmail(
  options: ConnectionContext & { userId: string; id: string; to: string },
): Promise<void> {
  const row = await getSenderAccountRow(options);
  await sendOneOffEmail({
    ...options,
    account: row,
    mail: {
      from: { name: row.fromName, address: row.fromEmail },
      replyTo: row.replyTo ?? undefined,
      to: options.to,
      subject: `Tambari test email from ${row.fromEmail}`,
      text: `This is a test email sent through your sender account ${row.fromEmail} (${row.smtpHost}).\n\nIf you can read it, the account can send. Campaigns will use it within its daily limit of ${row.dailyCap} emails.\n\nTambari`,
      html: `<p>This is a test email sent through your sender account <strong>${escapeHtml(row.fromEmail)}</strong> (${escapeHtml(row.smtpHost)}).</p><p>If you can read it, the account can send. Campaigns will use it within its daily limit of ${row.dailyCap} emails.</p><p>Tambari</p>`,
    },
  });
}
