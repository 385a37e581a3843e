import type { Database } from '@server/db/client';
import { senderAccounts } from '@server/db/schema/index';
import { decryptSecret, encryptSecret, isSealedWith, keyId } from '@server/lib/crypto';
import type { Secrets } from '@server/lib/secrets';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';

/*
 * Key rotation, the server's half (docs/deploy.md, "Rotating ENCRYPTION_KEY"): at start-up every sender
 * account password not yet sealed with the current key is opened with whichever known key sealed it and
 * sealed again with the current one. Safe to run on every start and in several processes at once: a row
 * is written only if its sealed values are still the ones read, so a password changed meanwhile or a row
 * another process moved first is left alone. A row no known key
 * opens stays as it is and is reported: that account cannot send until its password is entered again.
 */

export interface ResealSummary {
  resealed: number;
  /** Accounts whose passwords none of the configured keys opens. */
  unreadable: string[];
}

export async function resealSenderSecrets(options: {
  db: Database;
  secrets: Secrets;
  log?: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** Only this user's accounts (tests sharing one database). */
  onlyUserId?: string;
}): Promise<ResealSummary> {
  const { db, secrets } = options;
  const current = secrets.encryptionKey;
  const previous = secrets.previousEncryptionKeys ?? [];
  const prefix = `v2.${keyId(current)}.%`;
  // Candidates only: rows whose SMTP or IMAP password is not sealed with the current key.
  const stale = await db
    .select({
      id: senderAccounts.id,
      smtp: senderAccounts.smtpPasswordEnc,
      imap: senderAccounts.imapPasswordEnc,
    })
    .from(senderAccounts)
    .where(
      and(
        sql`(${senderAccounts.smtpPasswordEnc} NOT LIKE ${prefix}
          OR (${senderAccounts.imapPasswordEnc} IS NOT NULL AND ${senderAccounts.imapPasswordEnc} NOT LIKE ${prefix}))`,
        options.onlyUserId ? eq(senderAccounts.userId, options.onlyUserId) : undefined,
      ),
    );
  const reseal = (sealed: string) =>
    isSealedWith(sealed, current) ? sealed : encryptSecret(decryptSecret(sealed, current, previous), current);
  const summary: ResealSummary = { resealed: 0, unreadable: [] };
  for (const row of stale) {
    let smtp: string;
    let imap: string | null;
    try {
      smtp = reseal(row.smtp);
      imap = row.imap === null ? null : reseal(row.imap);
    } catch {
      summary.unreadable.push(row.id);
      continue;
    }
    // Written only if nobody changed the passwords meanwhile (a new password, another process's reseal).
    const [updated] = await db
      .update(senderAccounts)
      .set({ smtpPasswordEnc: smtp, imapPasswordEnc: imap, keyVersion: 2 })
      .where(
        and(
          eq(senderAccounts.id, row.id),
          eq(senderAccounts.smtpPasswordEnc, row.smtp),
          row.imap === null
            ? isNull(senderAccounts.imapPasswordEnc)
            : eq(senderAccounts.imapPasswordEnc, row.imap),
        ),
      )
      .returning({ id: senderAccounts.id });
    if (updated) summary.resealed++;
  }
  if (summary.resealed > 0) {
    options.log?.info(
      { resealed: summary.resealed },
      'sender account passwords resealed with the current key',
    );
  }
  if (summary.unreadable.length > 0) {
    options.log?.error(
      { accounts: summary.unreadable.length },
      'sender account passwords sealed with a key this server does not have: add it to ENCRYPTION_KEYS_PREVIOUS, or ask the owners to enter the passwords again',
    );
  }
  return summary;
}
