import { randomBytes } from 'node:crypto';
import type { Database } from '@server/db/client';
import { senderAccounts, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { encryptSecret } from '@server/lib/crypto';
import { isUniqueViolation } from '@server/lib/db-errors';
import { AppError, notFound } from '@server/lib/errors';
import type { SenderAccount } from '@shared/sending';
import { and, eq } from 'drizzle-orm';
import { devMailboxDomainCheck } from './domain-check.service';
import { toSenderAccountDto } from './sender-accounts.service';

/*
 * "Tambari test mailbox": a sender account on the built-in development mailbox, so a newcomer can run a real
 * campaign and read what was sent at /admin/dev-mailbox. It does not count against the plan's account limit
 * (it reaches nobody), and its connection is ours: the transport always uses the running mailbox's port.
 */

export const DEV_MAILBOX_ACCOUNT = {
  label: 'Tambari test mailbox',
  fromEmail: 'test-mailbox@tambari.test',
  postalAddress: 'Demo Ventures Ltd, 12 Marina Road, Lagos, Nigeria',
  dailyCap: 300,
} as const;

/** Any port is a valid one now; the stored port is only shown, the running one is used live. */
function storedPort(devMailboxPort: number): number {
  return devMailboxPort;
}

/**
 * The user's test-mailbox account, created when missing. Safe to run on every start: a second call finds
 * the first one (and refreshes its stored port).
 */
export async function ensureDevMailboxSenderAccount(options: {
  db: Database;
  encryptionKey: Buffer;
  userId: string;
  devMailboxPort: number | null;
}): Promise<{ account: SenderAccount; created: boolean }> {
  const { db, userId } = options;
  if (options.devMailboxPort === null)
    throw notFound('The Tambari test mailbox is not running on this server');
  const port = storedPort(options.devMailboxPort);
  const [existing] = await db
    .select()
    .from(senderAccounts)
    .where(and(eq(senderAccounts.userId, userId), eq(senderAccounts.isDevMailbox, true)))
    .limit(1);
  if (existing) {
    if (existing.smtpPort === port) return { account: toSenderAccountDto(existing), created: false };
    const [updated] = await db
      .update(senderAccounts)
      .set({ smtpPort: port, updatedAt: now() })
      .where(eq(senderAccounts.id, existing.id))
      .returning();
    return { account: toSenderAccountDto(updated ?? existing), created: false };
  }

  const [owner] = await db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!owner) throw notFound('User not found');
  // Addresses on the reserved .test domain reach no one; a user already on it sends as themselves.
  const fromEmail = owner.email.toLowerCase().endsWith('@tambari.test')
    ? owner.email.toLowerCase()
    : DEV_MAILBOX_ACCOUNT.fromEmail;
  const at = now();
  try {
    const [row] = await db
      .insert(senderAccounts)
      .values({
        userId,
        label: DEV_MAILBOX_ACCOUNT.label,
        fromName: owner.firstName || 'Tambari',
        fromEmail,
        postalAddress: DEV_MAILBOX_ACCOUNT.postalAddress,
        smtpHost: '127.0.0.1',
        smtpPort: port,
        smtpSecurity: 'none',
        smtpUser: 'tambari',
        // Never used (the mailbox takes mail without signing in), sealed like any password all the same.
        smtpPasswordEnc: encryptSecret(randomBytes(18).toString('base64url'), options.encryptionKey),
        dailyCap: DEV_MAILBOX_ACCOUNT.dailyCap,
        isDevMailbox: true,
        domainCheck: devMailboxDomainCheck(fromEmail),
        domainCheckedAt: at,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return { account: toSenderAccountDto(row!, at), created: true };
  } catch (error) {
    if (isUniqueViolation(error, 'sender_accounts_user_from_key')) {
      const message = `You already have a sender account for ${fromEmail}.`;
      throw new AppError('conflict', message);
    }
    throw error;
  }
}
