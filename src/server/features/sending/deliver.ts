import { sql } from 'drizzle-orm';
import { composeOutgoing } from './compose-outgoing';
import type { DeliveryFailure, DispatchedMessage } from './delivery-outcomes';
import type { DispatchContext } from './dispatch';
import { resolveTrackingBaseUrl } from './message-envelope';
import { composeFromSharedBody } from './shared-body-parts';

/*
 * The last leg of dispatch: a message with its account becomes the exact bytes that leave, is recorded
 * as allocated (what it took of the caps, so recovery can give it back), and is handed to the account's
 * pooled SMTP connections.
 *
 * A message is marked 'delivering' only just before a connection takes it (one message ahead per
 * connection, in small group commits), not the whole batch at once: when a worker dies, only the
 * messages that were on or next to a connection can have left, and only those are sent again with the
 * "sent again" note. The rest go back to the queue as if never tried.
 */

export interface ReadyMessage {
  dispatched: DispatchedMessage;
  raw: Buffer;
  from: string;
  to: string;
  /** The hour of the recipient domain's pace this message took, if the campaign has one. */
  paceHour: Date | null;
}

/** The message as it leaves: the sending account's name and address, envelope, footer and headers. */
export function composeForAccount(
  ctx: DispatchContext,
  d: DispatchedMessage,
  paceHour: Date | null,
  /** The platform's tracking domain (Admin → Settings), for campaigns that name none. */
  defaultTrackingDomain: string | null = null,
): ReadyMessage {
  const { message, account, campaign } = d;
  const envelope = {
    account,
    messageId: message.messageId!,
    token: message.token,
    trackingBaseUrl: resolveTrackingBaseUrl({
      appUrl: ctx.env.APP_URL,
      trackingDomain: campaign.trackingDomain || defaultTrackingDomain,
    }),
    to: { name: message.toName, email: message.toEmail },
    kind: campaign.kind,
    inReplyTo: message.inReplyTo,
    references: message.threadReferences,
  };
  // A newsletter's copy: its parts are its body's, encoded once per sending account (its HTML is built
  // only if they cannot be).
  if (message.sharedBody) {
    const { from, to, raw } = composeFromSharedBody({
      ...envelope,
      content: { subject: message.subject, text: message.text ?? '' },
      body: message.sharedBody,
    });
    return { dispatched: d, raw, from, to, paceHour };
  }
  // Never null here: the claim fails a row without a body (dispatch.ts).
  if (message.html === null) throw new Error(`the message ${message.id} has no body`);
  const content = { subject: message.subject, html: message.html, text: message.text ?? '' };
  const { mail, raw } = composeOutgoing({ ...envelope, content });
  return {
    dispatched: d,
    raw,
    from: mail.from.address,
    to: mail.to.address,
    paceHour,
  };
}

export type SendOutcome = { ok: true; response: string } | { ok: false; failure: DeliveryFailure };

/**
 * Sends every ready message through its account's pooled connections, `connectionsPerAccount` at a
 * time per account, and reports each outcome as it comes. A message this worker no longer holds (its
 * lease ran out and another worker recovered it) is not sent; `onLost` hears of it.
 */
export async function deliverAll(
  ctx: DispatchContext,
  ready: ReadyMessage[],
  options: {
    connectionsPerAccount: number;
    /** Ids already recorded as delivering with the batch's claim (claim-batch.ts). */
    delivering: Set<string>;
    onOutcome: (message: ReadyMessage, outcome: SendOutcome) => void;
    onLost: (message: ReadyMessage, error: unknown) => void;
  },
): Promise<void> {
  const marker = deliveringMarker(ctx);
  const byAccount = new Map<string, ReadyMessage[]>();
  for (const message of ready) {
    const list = byAccount.get(message.dispatched.account.id);
    if (list) list.push(message);
    else byAccount.set(message.dispatched.account.id, [message]);
  }
  const markedAlready: Promise<Mark> = Promise.resolve({ held: true });
  const markAhead = (message: ReadyMessage): Promise<Mark> =>
    options.delivering.has(message.dispatched.message.id)
      ? markedAlready
      : marker.mark(message.dispatched.message.id);
  const lanes: Promise<void>[] = [];
  for (const queue of byAccount.values()) {
    const width = Math.max(1, Math.min(options.connectionsPerAccount, queue.length));
    for (let i = 0; i < width; i++) lanes.push(runLane(queue));
  }
  await Promise.all(lanes);

  async function runLane(queue: ReadyMessage[]): Promise<void> {
    let next = queue.shift();
    let nextMarked = next ? markAhead(next) : null;
    while (next) {
      const current = next;
      const marked = nextMarked!;
      // The next message is marked while this one is on the wire: one ahead per connection.
      next = queue.shift();
      nextMarked = next ? markAhead(next) : null;
      const mark = await marked;
      if (!mark.held) {
        options.onLost(current, mark.error ?? new Error('the lease was taken over by another worker'));
        continue;
      }
      options.onOutcome(current, await sendOne(ctx, current));
    }
  }
}

async function sendOne(ctx: DispatchContext, ready: ReadyMessage): Promise<SendOutcome> {
  try {
    ctx.failpoint?.('send', { ...ready.dispatched.message, senderAccountId: ready.dispatched.account.id });
    const pool = await ctx.transports.get(ready.dispatched.account);
    const info = await pool.send({ from: ready.from, to: [ready.to] }, ready.raw);
    return { ok: true, response: String(info.response ?? '').slice(0, 200) };
  } catch (error) {
    return { ok: false, failure: { error } };
  }
}

type Mark = { held: boolean; error?: unknown };

/**
 * Marks messages 'delivering' in group commits: ids asked for while a write runs go in the next one.
 * Each mark answers whether this worker still held the row; it never rejects (a mark made ahead is
 * awaited later, and a rejection nobody listens to yet would end the process).
 */
function deliveringMarker(ctx: DispatchContext) {
  let pending: { id: string; resolve: (mark: Mark) => void }[] = [];
  let running = false;
  const pump = async () => {
    running = true;
    while (pending.length > 0) {
      const group = pending;
      pending = [];
      try {
        const ids = group.map((g) => g.id);
        const result = await ctx.db.execute(sql`
          UPDATE outbox_messages SET phase = 'delivering'
          WHERE id = ANY(${sql.param(ids)}::uuid[]) AND state = 'sending' AND lease_owner = ${ctx.workerId}
          RETURNING id`);
        const held = new Set((result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id));
        for (const g of group) g.resolve({ held: held.has(g.id) });
      } catch (error) {
        for (const g of group) g.resolve({ held: false, error });
      }
    }
    running = false;
  };
  return {
    mark(id: string): Promise<Mark> {
      return new Promise((resolve) => {
        pending.push({ id, resolve });
        if (!running) void pump();
      });
    },
  };
}
