import { senderAccounts } from '@server/db/schema';
import { now } from '@server/lib/clock';
import { inArray } from 'drizzle-orm';
import type { DispatchedMessage } from './delivery-outcomes';
import { insertEvents } from './delivery-outcomes';
import type { DispatchContext } from './dispatch';

/*
 * One contact, one mailbox: every message of a contact goes from the account that sent their earlier
 * mail. Only when that account can no longer send for the campaign (paused, failing, taken off the
 * campaign or deleted) does Least Used pick another, and the contact's timeline says so. Later steps
 * then stay with the new account (they follow the last message sent).
 */

export interface SenderSwitch {
  dispatched: DispatchedMessage;
  /** The account the contact was bound to. */
  fromAccountId: string;
}

export async function recordSenderSwitches(ctx: DispatchContext, switches: SenderSwitch[]): Promise<void> {
  if (switches.length === 0) return;
  const ids = [...new Set(switches.map((s) => s.fromAccountId))];
  const previous = await ctx.db
    .select({ id: senderAccounts.id, fromEmail: senderAccounts.fromEmail, status: senderAccounts.status })
    .from(senderAccounts)
    .where(inArray(senderAccounts.id, ids));
  const byId = new Map(previous.map((a) => [a.id, a]));
  const at = now();
  await insertEvents(
    ctx,
    switches.map(({ dispatched, fromAccountId }) => {
      const before = byId.get(fromAccountId);
      const why = !before
        ? 'was deleted'
        : before.status !== 'active'
          ? `is ${before.status}`
          : 'is no longer one of the campaign’s accounts';
      return {
        userId: dispatched.message.userId,
        campaignId: dispatched.message.campaignId,
        stepId: dispatched.message.stepId,
        campaignContactId: dispatched.message.campaignContactId,
        outboxMessageId: dispatched.message.id,
        senderAccountId: dispatched.account.id,
        type: 'sender_changed' as const,
        detail: `${before?.fromEmail ?? 'The earlier mailbox'} ${why}: ${dispatched.account.fromEmail} writes to this contact from now on`,
        occurredAt: at,
      };
    }),
  );
}
