import type { Database } from '@server/db/client';
import { senderAccounts, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { encryptSecret } from '@server/lib/crypto';
import { isUniqueViolation } from '@server/lib/db-errors';
import { AppError, notFound } from '@server/lib/errors';
import { type HostLookup, resolveMailHost, type SenderNetwork } from '@server/lib/network-guard';
import type { SenderAccount, senderAccountInputSchema } from '@shared/sending';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { assertWithinLimit } from '../plans/plan-limits.service';
import { checkSenderDomain, type DnsResolver, devMailboxDomainCheck } from './domain-check.service';
import {
  accountLocalDate,
  assertValidTimeZone,
  effectiveDailyCap,
  sentTodayOf,
} from './sender-account-rules';
import type { SenderAccountRow } from './sender-transport';
import { describeCertificate } from './tls-trust';

// What other features may use of this folder's modules (the rest of it is its own).
export { sendOneOffEmail } from './one-off-send';
export { accountLocalDate, effectiveDailyCap, sentTodayOf } from './sender-account-rules';
export { recordAuthFailure, recordSendSuccess, setSenderFailing } from './sender-status.service';
export { openImapClient, openSmtpTransport, type SenderAccountRow } from './sender-transport';
export { isVouchedCrlfOnly, vouchCrlfOnly } from './smtp-dot-stuffing';
export { certificateProblemOf, classifySmtpError, SMTP_ERROR_MESSAGES } from './smtp-errors';
export { openSmtpPool, type SmtpEnvelope, type SmtpPool, type SmtpSendInfo } from './smtp-pool';

/*
 * Sender accounts: a user's own mailboxes campaigns send through. Passwords are sealed (AES-256-GCM) and
 * never leave the server; hosts pass the SSRF guard before they are stored; every lookup is by owner.
 */

export type SenderAccountFields = z.output<typeof senderAccountInputSchema>;

/** Where a user's accounts go through the SSRF guard and the domain check. */
export interface SenderContext {
  db: Database;
  encryptionKey: Buffer;
  network: SenderNetwork;
  lookup?: HostLookup;
  /** DNS for the domain check; false skips it (it runs again later). */
  dnsResolver?: DnsResolver | false;
}

/** The format encryptSecret writes (lib/crypto.ts). */
const KEY_VERSION = 2;
const FROM_KEY = 'sender_accounts_user_from_key';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function toSenderAccountDto(row: SenderAccountRow, at: Date = now()): SenderAccount {
  return {
    id: row.id,
    label: row.label,
    fromName: row.fromName,
    fromEmail: row.fromEmail,
    replyTo: row.replyTo,
    company: row.company,
    signature: row.signature,
    postalAddress: row.postalAddress,
    smtpHost: row.smtpHost,
    smtpPort: row.smtpPort,
    smtpSecurity: row.smtpSecurity,
    smtpUser: row.smtpUser,
    imapEnabled: row.imapEnabled,
    imapHost: row.imapHost,
    imapPort: row.imapPort,
    imapSecurity: row.imapSecurity,
    imapUser: row.imapUser,
    dailyCap: row.dailyCap,
    effectiveCap: effectiveDailyCap(row, at),
    warmupEnabled: row.warmupEnabled,
    warmupStart: row.warmupStart,
    warmupIncrement: row.warmupIncrement,
    timeZone: row.timeZone,
    dkimSelector: row.dkimSelector,
    status: row.status,
    statusReason: row.statusReason,
    statusChangedAt: iso(row.statusChangedAt),
    sentToday: sentTodayOf(row, at),
    lastUsedAt: iso(row.lastUsedAt),
    imapCheckedAt: iso(row.imapCheckedAt),
    imapError: row.imapError,
    domainCheck: row.domainCheck ?? null,
    isDevMailbox: row.isDevMailbox,
    smtpTrustedCertificate: row.smtpTlsCert ? describeCertificate(row.smtpTlsCert) : null,
    imapTrustedCertificate: row.imapTlsCert ? describeCertificate(row.imapTlsCert) : null,
    sentFolderEnabled: row.sentFolderEnabled,
    sentFolderError: row.sentFolderError,
    sentFolderAppendedAt: iso(row.sentFolderAppendedAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listSenderAccounts(options: {
  db: Database;
  userId: string;
}): Promise<SenderAccount[]> {
  const rows = await options.db
    .select()
    .from(senderAccounts)
    .where(eq(senderAccounts.userId, options.userId))
    .orderBy(asc(senderAccounts.createdAt), asc(senderAccounts.id));
  const at = now();
  return rows.map((row) => toSenderAccountDto(row, at));
}

/** The stored row, the owner's only: another user's id is "not found". */
export async function getSenderAccountRow(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<SenderAccountRow> {
  const [row] = await options.db
    .select()
    .from(senderAccounts)
    .where(and(eq(senderAccounts.id, options.id), eq(senderAccounts.userId, options.userId)))
    .limit(1);
  if (!row) throw notFound('Sender account not found');
  return row;
}

/** Sender account ids in a request body must all be this user's: another account's id answers 404. */
export async function assertOwnSenderAccounts(options: {
  db: Database;
  userId: string;
  ids: readonly string[];
  path: string;
  message?: string;
}): Promise<void> {
  const unique = [...new Set(options.ids)];
  if (unique.length === 0) return;
  const rows = await options.db
    .select({ id: senderAccounts.id })
    .from(senderAccounts)
    .where(and(eq(senderAccounts.userId, options.userId), inArray(senderAccounts.id, unique)));
  if (rows.length !== unique.length) {
    const message = options.message ?? 'Sender account not found';
    throw new AppError('not_found', message, { errors: [{ path: options.path, message }] });
  }
}

export async function getSenderAccount(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<SenderAccount> {
  return toSenderAccountDto(await getSenderAccountRow(options));
}

function fieldError(path: string, message: string): AppError {
  return new AppError('validation', message, { errors: [{ path, message }] });
}

function duplicateFrom(fromEmail: string): AppError {
  const message = `You already have a sender account for ${fromEmail}.`;
  return new AppError('conflict', message, { errors: [{ path: 'fromEmail', message }] });
}

/** Columns shared by create and update (everything but passwords, status and counters). */
function plainColumns(input: SenderAccountFields) {
  return {
    label: input.label?.trim() || input.fromEmail,
    replyTo: input.replyTo || null,
    company: input.company?.trim() || null,
    signature: input.signature?.trim() || null,
    dkimSelector: input.dkimSelector || null,
    fromName: input.fromName,
    fromEmail: input.fromEmail,
    postalAddress: input.postalAddress,
    dailyCap: input.dailyCap,
    warmupEnabled: input.warmupEnabled,
    warmupStart: input.warmupStart,
    warmupIncrement: input.warmupIncrement,
    timeZone: input.timeZone,
    sentFolderEnabled: input.sentFolderEnabled,
  };
}

function connectionColumns(input: SenderAccountFields) {
  return {
    smtpHost: input.smtpHost.toLowerCase(),
    smtpPort: input.smtpPort,
    smtpSecurity: input.smtpSecurity,
    smtpUser: input.smtpUser,
    imapEnabled: input.imapEnabled,
    imapHost: input.imapHost?.toLowerCase() || null,
    imapPort: input.imapPort ?? null,
    imapSecurity: input.imapEnabled ? (input.imapSecurity ?? 'tls') : (input.imapSecurity ?? null),
    imapUser: input.imapUser || null,
  };
}

/** The SSRF guard on the hosts as typed (IMAP only when it is on). */
async function guardHosts(
  ctx: SenderContext,
  input: Pick<SenderAccountFields, 'smtpHost' | 'smtpPort' | 'imapEnabled' | 'imapHost' | 'imapPort'>,
  which: { smtp: boolean; imap: boolean } = { smtp: true, imap: true },
): Promise<void> {
  if (which.smtp) {
    await resolveMailHost({
      host: input.smtpHost,
      port: input.smtpPort,
      kind: 'smtp',
      network: ctx.network,
      lookup: ctx.lookup,
    });
  }
  if (which.imap && input.imapEnabled && input.imapHost && input.imapPort !== undefined) {
    await resolveMailHost({
      host: input.imapHost,
      port: input.imapPort,
      kind: 'imap',
      network: ctx.network,
      lookup: ctx.lookup,
    });
  }
}

export async function createSenderAccount(
  options: SenderContext & { userId: string; input: SenderAccountFields },
): Promise<SenderAccount> {
  const { db, input, userId } = options;
  assertValidTimeZone(input.timeZone);
  if (!input.smtpPassword) throw fieldError('smtpPassword', 'Enter the password');
  await guardHosts(options, input);
  const at = now();
  let row: SenderAccountRow;
  try {
    row = await db.transaction(async (tx) => {
      // One create at a time per user, so two at once cannot both pass the plan limit.
      await tx.execute(sql`SELECT id FROM ${users} WHERE id = ${userId} FOR UPDATE`);
      const [counted] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(senderAccounts)
        .where(and(eq(senderAccounts.userId, userId), eq(senderAccounts.isDevMailbox, false)));
      await assertWithinLimit({ db: tx, userId, limit: 'senderAccounts', used: Number(counted?.count ?? 0) });
      const [inserted] = await tx
        .insert(senderAccounts)
        .values({
          userId,
          ...plainColumns(input),
          ...connectionColumns(input),
          smtpPasswordEnc: encryptSecret(input.smtpPassword!, options.encryptionKey),
          imapPasswordEnc: input.imapPassword
            ? encryptSecret(input.imapPassword, options.encryptionKey)
            : null,
          keyVersion: KEY_VERSION,
          warmupStartedOn: input.warmupEnabled ? accountLocalDate(at, input.timeZone) : null,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      return inserted!;
    });
  } catch (error) {
    if (isUniqueViolation(error, FROM_KEY)) throw duplicateFrom(input.fromEmail);
    throw error;
  }
  return toSenderAccountDto(await refreshDomainCheckBestEffort(options, row), at);
}

export async function updateSenderAccount(
  options: SenderContext & { userId: string; id: string; input: SenderAccountFields },
): Promise<SenderAccount> {
  const { db, input } = options;
  const current = await getSenderAccountRow(options);
  assertValidTimeZone(input.timeZone);
  const at = now();
  const changes: Partial<typeof senderAccounts.$inferInsert> = { ...plainColumns(input), updatedAt: at };
  // An optional identity field the update does not mention keeps its stored value (empty clears it).
  for (const field of ['label', 'replyTo', 'company', 'signature', 'dkimSelector'] as const) {
    if (input[field] === undefined) delete changes[field];
  }
  if (input.warmupEnabled && !current.warmupEnabled)
    changes.warmupStartedOn = accountLocalDate(at, input.timeZone);
  if (!input.warmupEnabled) changes.warmupStartedOn = null;
  // The test mailbox's connection is ours and fixed; only its identity and limits are the user's.
  if (!current.isDevMailbox) {
    const connection = connectionColumns(input);
    const smtpMoved = connection.smtpHost !== current.smtpHost || connection.smtpPort !== current.smtpPort;
    const imapMoved =
      connection.imapEnabled &&
      (!current.imapEnabled ||
        connection.imapHost !== current.imapHost ||
        connection.imapPort !== current.imapPort);
    // Only a changed host is looked up again: renaming an account must not depend on DNS answering.
    await guardHosts(options, input, { smtp: smtpMoved, imap: imapMoved });
    Object.assign(changes, connection);
    // A trusted certificate belongs to one server: another host or port starts untrusted again.
    if (smtpMoved) changes.smtpTlsCert = null;
    if (connection.imapHost !== current.imapHost || connection.imapPort !== current.imapPort)
      changes.imapTlsCert = null;
    if (input.smtpPassword)
      changes.smtpPasswordEnc = encryptSecret(input.smtpPassword, options.encryptionKey);
    if (input.imapPassword)
      changes.imapPasswordEnc = encryptSecret(input.imapPassword, options.encryptionKey);
    if (input.smtpPassword || input.imapPassword) changes.keyVersion = KEY_VERSION;
  }
  let row: SenderAccountRow;
  try {
    const [updated] = await db
      .update(senderAccounts)
      .set(changes)
      .where(and(eq(senderAccounts.id, current.id), eq(senderAccounts.userId, options.userId)))
      .returning();
    if (!updated) throw notFound('Sender account not found');
    row = updated;
  } catch (error) {
    if (isUniqueViolation(error, FROM_KEY)) throw duplicateFrom(input.fromEmail);
    throw error;
  }
  const domainInputsChanged =
    row.fromEmail !== current.fromEmail ||
    row.dkimSelector !== current.dkimSelector ||
    row.smtpHost !== current.smtpHost ||
    !row.domainCheck;
  if (domainInputsChanged) row = await refreshDomainCheckBestEffort(options, row);
  return toSenderAccountDto(row, at);
}

export async function deleteSenderAccount(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<void> {
  const deleted = await options.db
    .delete(senderAccounts)
    .where(and(eq(senderAccounts.id, options.id), eq(senderAccounts.userId, options.userId)))
    .returning({ id: senderAccounts.id });
  if (deleted.length === 0) throw notFound('Sender account not found');
}

/** The user stops an account; campaigns send through their other accounts meanwhile. */
export async function pauseSenderAccount(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<SenderAccount> {
  const current = await getSenderAccountRow(options);
  if (current.status === 'paused') return toSenderAccountDto(current);
  const at = now();
  const [row] = await options.db
    .update(senderAccounts)
    .set({ status: 'paused', statusReason: null, statusChangedAt: at })
    .where(and(eq(senderAccounts.id, options.id), eq(senderAccounts.userId, options.userId)))
    .returning();
  if (!row) throw notFound('Sender account not found');
  return toSenderAccountDto(row, at);
}

/** Back to active; a failing account also forgets its reason, its failure run and any cool-down. */
export async function resumeSenderAccount(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<SenderAccount> {
  const current = await getSenderAccountRow(options);
  if (current.status === 'active' && current.authFailures === 0) return toSenderAccountDto(current);
  const at = now();
  const [row] = await options.db
    .update(senderAccounts)
    .set({ status: 'active', statusReason: null, statusChangedAt: at, authFailures: 0, cooldownUntil: null })
    .where(and(eq(senderAccounts.id, options.id), eq(senderAccounts.userId, options.userId)))
    .returning();
  if (!row) throw notFound('Sender account not found');
  return toSenderAccountDto(row, at);
}

/** Runs the domain check now and stores it. DNS trouble becomes 'warn' items, never an error. */
export async function refreshSenderDomainCheck(options: {
  db: Database;
  row: SenderAccountRow;
  network: SenderNetwork;
  lookup?: HostLookup;
  dnsResolver?: DnsResolver;
}): Promise<SenderAccountRow> {
  const { row } = options;
  let check: NonNullable<SenderAccountRow['domainCheck']>;
  if (row.isDevMailbox) {
    check = devMailboxDomainCheck(row.fromEmail);
  } else {
    // SPF is judged for the address we would really connect to; a host the guard refuses has none.
    const address = await resolveMailHost({
      host: row.smtpHost,
      port: row.smtpPort,
      kind: 'smtp',
      network: options.network,
      lookup: options.lookup,
    }).then(
      (resolved) => resolved.address,
      () => null,
    );
    check = await checkSenderDomain({
      fromEmail: row.fromEmail,
      dkimSelector: row.dkimSelector,
      smtpHost: row.smtpHost,
      smtpHostAddress: address,
      resolver: options.dnsResolver,
    });
  }
  const [updated] = await options.db
    .update(senderAccounts)
    .set({ domainCheck: check, domainCheckedAt: new Date(check.checkedAt) })
    .where(eq(senderAccounts.id, row.id))
    .returning();
  return updated ?? row;
}

async function refreshDomainCheckBestEffort(
  ctx: SenderContext,
  row: SenderAccountRow,
): Promise<SenderAccountRow> {
  if (ctx.dnsResolver === false) return row;
  try {
    return await refreshSenderDomainCheck({ ...ctx, row, dnsResolver: ctx.dnsResolver });
  } catch {
    // The daily re-check tries again; saving the account must not depend on DNS.
    return row;
  }
}
