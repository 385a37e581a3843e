import { outboxMessages } from '@server/db/schema';
import { now } from '@server/lib/clock';
import { and, eq } from 'drizzle-orm';
import { insertEvents } from './delivery-outcomes';
import type { DispatchContext, OutboxRow } from './dispatch';
import { MAX_SEND_ATTEMPTS, retryBackoffMs } from './retry-policy';

/*
 * Failure isolation: whatever one message does while it is being judged, allocated or composed (a time
 * zone the runtime does not know, a template that throws, an address that does not parse), only that
 * message waits or fails; the rest of its batch — other campaigns, other tenants — goes on. A message
 * that keeps failing is retried with the same backoff as a temporary SMTP error and, after
 * MAX_SEND_ATTEMPTS, failed with the reason, which the campaign page and the admin monitors show.
 */

export type DispatchStage = 'schedule' | 'suppression' | 'allocate' | 'compose' | 'send' | 'record';

const STAGE_LABELS: Record<DispatchStage, string> = {
  schedule: 'Could not work out when to send it',
  suppression: 'Could not check the suppression list',
  allocate: 'Could not choose a sender account',
  compose: 'Could not build the message',
  send: 'Could not send it',
  record: 'Could not record the outcome',
};

export interface DispatchFault {
  message: OutboxRow;
  stage: DispatchStage;
  error: unknown;
}

/** What the user reads on the campaign: the stage in plain words and the cause, one line. */
export function faultReason(fault: Pick<DispatchFault, 'stage' | 'error'>): string {
  const cause = fault.error instanceof Error ? fault.error.message : String(fault.error);
  const oneLine = cause.replace(/\s+/g, ' ').trim().slice(0, 240);
  return oneLine ? `${STAGE_LABELS[fault.stage]}: ${oneLine}` : STAGE_LABELS[fault.stage];
}

/**
 * Retries each faulted message later (its claim counted an attempt) or, past the limit, fails it with
 * its reason. Only rows this worker still holds. Answers how many were failed for good.
 */
export async function recordFaults(ctx: DispatchContext, faults: DispatchFault[]): Promise<number> {
  let failed = 0;
  const at = now();
  for (const fault of faults) {
    const { message } = fault;
    const reason = faultReason(fault);
    ctx.log.warn(
      {
        err: fault.error,
        stage: fault.stage,
        outboxMessageId: message.id,
        campaignId: message.campaignId,
        userId: message.userId,
        attempts: message.attempts,
      },
      'message could not be dispatched; the rest of its batch goes on',
    );
    const held = and(
      eq(outboxMessages.id, message.id),
      eq(outboxMessages.state, 'sending'),
      eq(outboxMessages.leaseOwner, ctx.workerId),
    );
    const clear = { phase: null, leaseOwner: null, leaseUntil: null, updatedAt: at } as const;
    if (message.attempts >= MAX_SEND_ATTEMPTS) {
      const final = `${reason}; gave up after ${message.attempts} attempts`;
      const rows = await ctx.db
        .update(outboxMessages)
        .set({ state: 'failed', lastError: final, ...clear })
        .where(held)
        .returning({ id: outboxMessages.id });
      if (rows.length > 0) {
        await insertEvents(ctx, [
          {
            userId: message.userId,
            campaignId: message.campaignId,
            stepId: message.stepId,
            campaignContactId: message.campaignContactId,
            outboxMessageId: message.id,
            senderAccountId: message.senderAccountId,
            type: 'failed',
            detail: final,
            occurredAt: at,
          },
        ]);
        failed++;
      }
      continue;
    }
    const backoff = retryBackoffMs(message.attempts);
    await ctx.db
      .update(outboxMessages)
      .set({ state: 'queued', sendAfter: new Date(at.getTime() + backoff), lastError: reason, ...clear })
      .where(held);
  }
  return failed;
}
