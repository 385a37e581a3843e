import type { Database } from '@server/db/client';
import { senderAccounts } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import type { HostLookup, SenderNetwork } from '@server/lib/network-guard';
import { and, eq, sql } from 'drizzle-orm';
import type { SendMailOptions } from 'nodemailer';
import { accountLocalDate, effectiveDailyCap } from './sender-account-rules';
import { openSmtpTransport } from './sender-transport';
import { classifySmtpError } from './smtp-errors';

type SenderAccountRow = typeof senderAccounts.$inferSelect;

/**
 * One email outside any campaign (the test sends of accounts, steps and newsletters) through a user's
 * account. It takes one of the account's sends for today, atomically and never past its cap (warm-up
 * included), and gives it back when the email does not leave. SMTP errors become classifySmtpError's
 * fixed messages, never the server's own words.
 */
export async function sendOneOffEmail(options: {
  db: Database;
  account: SenderAccountRow;
  encryptionKey: Buffer;
  network: SenderNetwork;
  devMailboxPort: number | null;
  lookup?: HostLookup;
  /** SMTP_EHLO_NAME (unset: the sender's domain). */
  ehloName?: string | null;
  mail: SendMailOptions;
}): Promise<void> {
  const { db, account } = options;
  const day = await takeSendSlot(db, account);
  const transport = await openSmtpTransport(options).catch(async (error: unknown) => {
    await giveBackSendSlot(db, account.id, day);
    throw new AppError('bad_request', classifySmtpError(error).safeMessage);
  });
  try {
    await transport.sendMail(options.mail);
  } catch (error) {
    await giveBackSendSlot(db, account.id, day);
    throw new AppError('bad_request', classifySmtpError(error).safeMessage);
  } finally {
    transport.close();
  }
}

/** Counts one send today, or refuses at the cap; answers the account's local day it was counted on. */
async function takeSendSlot(db: Database, account: SenderAccountRow): Promise<string> {
  const at = now();
  const day = accountLocalDate(at, account.timeZone);
  const cap = effectiveDailyCap(account, day);
  const [counted] = await db
    .update(senderAccounts)
    .set({
      sendsToday: sql`CASE WHEN ${senderAccounts.sendsDay} = ${day}::date THEN ${senderAccounts.sendsToday} + 1 ELSE 1 END`,
      sendsDay: day,
      lastUsedAt: at,
    })
    .where(
      and(
        eq(senderAccounts.id, account.id),
        sql`(${senderAccounts.sendsDay} IS DISTINCT FROM ${day}::date OR ${senderAccounts.sendsToday} < ${cap})`,
      ),
    )
    .returning({ id: senderAccounts.id });
  if (!counted) {
    throw new AppError(
      'conflict',
      `This account has reached today's limit of ${cap} emails. Try again tomorrow.`,
    );
  }
  return day;
}

async function giveBackSendSlot(db: Database, accountId: string, day: string): Promise<void> {
  await db.execute(sql`
    UPDATE sender_accounts SET sends_today = greatest(sends_today - 1, 0)
    WHERE id = ${accountId} AND sends_day = ${day}::date`);
}
