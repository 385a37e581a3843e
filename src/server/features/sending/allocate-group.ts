import { accountLocalDate } from '../sender-accounts/sender-accounts.service';
import { releaseCampaignSlots, takeCampaignSlots } from './campaign-cap';
import type { DispatchedMessage } from './delivery-outcomes';
import type { DispatchContext, OutboxRow } from './dispatch';
import type { DispatchFault } from './dispatch-faults';
import { releaseDomainPace, takeDomainPace } from './domain-pace';
import { makeMessageId } from './message-envelope';
import { REDELIVERY_NOTE } from './retry-policy';
import { localDate, startOfLocalDay, startOfNextLocalDay } from './send-window';
import { allocateSenders, releaseSenderSlot, type SenderAccountRow } from './sender-allocation';
import type { SenderSwitch } from './sender-switch';

/*
 * Everything a message takes before it can leave, for one campaign's messages of a batch: a slot of
 * the campaign's own daily cap, a unit of the recipient domain's hourly pace, and an account by Least
 * Used rotation (the contact's own mailbox first). What a message takes and then does not use is
 * given back; what a dead worker held is given back by recovery (outbox-recovery.ts).
 */

type CampaignRow = DispatchedMessage['campaign'];

export interface Deferral {
  id: string;
  until: Date;
  reason: string | null;
  /** Held until its paused campaign resumes (schema/sending.ts, held). */
  hold?: boolean;
}

export const NO_ACTIVE_SENDER_NOTE =
  'Waiting: none of the campaign’s sender accounts can send (paused or failing). Looked at again every 15 minutes.';

/**
 * The campaign's own daily cap, the recipient domains' pace and Least Used rotation for one campaign's
 * messages of the batch. Never throws: if anything fails, what was taken is given back and the
 * campaign's messages are reported as faults, so other campaigns of the batch go on.
 */
export interface GroupAllocation {
  toSend: { dispatched: DispatchedMessage; paceHour: Date | null }[];
  deferrals: Deferral[];
  faults: DispatchFault[];
  switches: SenderSwitch[];
}

export async function allocateCampaignGroup(
  ctx: DispatchContext,
  campaign: CampaignRow,
  messages: OutboxRow[],
  at: Date,
): Promise<GroupAllocation> {
  const switches: SenderSwitch[] = [];
  const deferrals: Deferral[] = [];
  const toSend: { dispatched: DispatchedMessage; paceHour: Date | null }[] = [];
  const faults: DispatchFault[] = [];
  let campaignDay: string | null = null;
  // What this group holds of the campaign's cap and the domains' pace, given back for what does not go.
  let heldCampaignSlots = 0;
  const pacedHours = new Map<string, Date>();
  let allocated: DispatchedMessage[] = [];
  try {
    for (const m of messages) ctx.failpoint?.('allocate', m);
    let allowed = messages;
    if (campaign.dailyCap !== null) {
      campaignDay = localDate(at, campaign.timeZone);
      const granted = await takeCampaignSlots(ctx.db, {
        campaignId: campaign.id,
        day: campaignDay,
        dayStart: startOfLocalDay(at, campaign.timeZone),
        cap: campaign.dailyCap,
        count: allowed.length,
      });
      heldCampaignSlots = granted;
      const nextDay = startOfNextLocalDay(at, campaign.timeZone);
      for (const m of allowed.slice(granted)) deferrals.push({ id: m.id, until: nextDay, reason: null });
      allowed = allowed.slice(0, granted);
    }
    if (campaign.domainPacePerHour !== null && allowed.length > 0) {
      const paced: OutboxRow[] = [];
      for (const m of allowed) {
        const pace = await takeDomainPace(ctx.db, {
          userId: campaign.userId,
          perHour: campaign.domainPacePerHour,
          email: m.toEmail,
          at,
        });
        if ('nextHour' in pace) {
          deferrals.push({ id: m.id, until: pace.nextHour, reason: null });
        } else {
          paced.push(m);
          pacedHours.set(m.id, pace.hourStart);
        }
      }
      allowed = paced;
    }
    if (allowed.length > 0) {
      const allocation = await allocateSenders({
        db: ctx.db,
        campaignId: campaign.id,
        count: allowed.length,
        at,
        gapMinSeconds: campaign.gapMinSeconds,
        gapMaxSeconds: campaign.gapMaxSeconds,
        preferredAccountIds: allowed.map(boundAccountOf),
      });
      const retryAt = allocation.nextAvailableAt ?? new Date(at.getTime() + 15 * 60_000);
      // No account will ever free up (none active): say so on the message, where the campaign shows it.
      const waitReason = allocation.nextAvailableAt ? null : NO_ACTIVE_SENDER_NOTE;
      allowed.forEach((message, i) => {
        const account = allocation.accounts[i];
        if (!account) {
          const ownAccountFrees = allocation.waitUntil[i];
          deferrals.push(
            ownAccountFrees
              ? { id: message.id, until: ownAccountFrees, reason: null }
              : { id: message.id, until: retryAt, reason: waitReason },
          );
          return;
        }
        const dispatched: DispatchedMessage = {
          message: { ...message, messageId: messageIdFor(message, account) },
          account,
          campaign,
          day: accountLocalDate(at, account.timeZone),
          campaignDay,
        };
        allocated.push(dispatched);
        const bound = boundAccountOf(message);
        if (bound && bound !== account.id) switches.push({ dispatched, fromAccountId: bound });
      });
    }
    for (const dispatched of allocated) {
      toSend.push({ dispatched, paceHour: pacedHours.get(dispatched.message.id) ?? null });
    }
    allocated = [];
    // Messages that wait after all give back what they took of the campaign's cap and domain pace.
    const going = new Set(toSend.map((t) => t.dispatched.message.id));
    await releaseHeld(
      ctx,
      campaign,
      campaignDay,
      heldCampaignSlots - going.size,
      messages,
      pacedHours,
      going,
    );
    return { toSend, deferrals, faults, switches };
  } catch (error) {
    const going = new Set<string>();
    await releaseHeld(ctx, campaign, campaignDay, heldCampaignSlots, messages, pacedHours, going).catch(
      (releaseError: unknown) =>
        ctx.log.error(
          { err: releaseError, campaignId: campaign.id },
          'could not give back the campaign’s slots',
        ),
    );
    for (const d of allocated) {
      await releaseSenderSlot({ db: ctx.db, accountId: d.account.id, day: d.day }).catch(() => {});
    }
    return {
      toSend: [],
      deferrals: [],
      faults: messages.map((message) => ({ message, stage: 'allocate', error })),
      switches: [],
    };
  }
}

/** Gives back campaign-cap slots and domain pace held for messages not in `going`. */
async function releaseHeld(
  ctx: DispatchContext,
  campaign: CampaignRow,
  campaignDay: string | null,
  campaignSlots: number,
  messages: OutboxRow[],
  pacedHours: Map<string, Date>,
  going: Set<string>,
): Promise<void> {
  if (campaignDay && campaignSlots > 0) {
    await releaseCampaignSlots(ctx.db, { campaignId: campaign.id, day: campaignDay, count: campaignSlots });
  }
  for (const m of messages) {
    const hourStart = pacedHours.get(m.id);
    if (hourStart && !going.has(m.id)) {
      await releaseDomainPace(ctx.db, { userId: campaign.userId, email: m.toEmail, hourStart });
    }
  }
}

/** Everything an allocated message took, given back (it did not leave). */
export async function giveBackSlots(
  ctx: DispatchContext,
  d: DispatchedMessage,
  paceHour: Date | null,
): Promise<void> {
  await releaseSenderSlot({ db: ctx.db, accountId: d.account.id, day: d.day });
  if (d.campaignDay) {
    await releaseCampaignSlots(ctx.db, { campaignId: d.message.campaignId, day: d.campaignDay, count: 1 });
  }
  if (paceHour) {
    await releaseDomainPace(ctx.db, {
      userId: d.message.userId,
      email: d.message.toEmail,
      hourStart: paceHour,
    });
  }
}

/**
 * The account a message must go from while that account can: the one its contact's earlier mail came
 * from (one contact, one mailbox), or, for a message a dead worker may already have delivered, the
 * account that delivered it (its copy must not come from a second mailbox).
 */
function boundAccountOf(message: OutboxRow): string | null {
  if (mayHaveLeft(message) && message.senderAccountId) return message.senderAccountId;
  return message.boundSenderAccountId;
}

function mayHaveLeft(message: OutboxRow): boolean {
  return message.lastError?.startsWith(REDELIVERY_NOTE) ?? false;
}

/**
 * A Message-ID on the sending account's domain, kept across retries from the same account and always
 * for a message that may already have left (its copy must carry the same id so the two fold together).
 */
function messageIdFor(message: OutboxRow, account: SenderAccountRow): string {
  if (message.messageId && (mayHaveLeft(message) || message.senderAccountId === account.id)) {
    return message.messageId;
  }
  return makeMessageId(account.fromEmail);
}
