import type { ConnectionTestResult, SenderAccount } from '../../../shared/sending';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { HostLookup, SenderNetwork } from '../../lib/network-guard';
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
  type SenderConnectionSettings,
  testSenderConnection,
} from './sender-transport';

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
  options: ConnectionContext & { userId: string; input: SenderAccountFields; accountId?: string },
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
    imap = {
      host: imapHost,
      port: input.imapPort,
      security: input.imapSecurity ?? 'tls',
      user: input.imapUser || input.smtpUser,
      password: imapPassword ?? smtpPassword,
    };
  }

  return testSenderConnection({
    ...options,
    settings: {
      smtp: {
        host: smtpHost,
        port: input.smtpPort,
        security: input.smtpSecurity,
        user: input.smtpUser,
        password: smtpPassword,
      },
      imap,
      isDevMailbox: false,
      fromEmail: input.fromEmail,
    },
  });
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

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
