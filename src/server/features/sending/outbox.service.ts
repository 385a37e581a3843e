import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/client';
import { type campaigns, outboxMessages } from '../../db/schema';
import type { Queue } from '../../jobs/queue';
import { now } from '../../lib/clock';
import { prepareMessageContent } from './message-content';
import { resolveTrackingBaseUrl } from './message-envelope';

/*
 * The sending engine's front door: whoever decides that a message should go (a campaign step, a
 * newsletter, a bulk send) renders it and hands it here. From then on the dispatcher owns it: sender
 * choice, window, gaps, caps, suppression at the moment of sending, retries, events.
 */

export type CampaignRow = typeof campaigns.$inferSelect;

export interface QueueMessageInput {
  campaignContactId: string;
  toEmail: string;
  toName?: string | null;
  subject: string;
  html: string;
  text?: string | null;
  stepId?: string | null;
  variantKey?: string | null;
  /** Not before this time (a follow-up's delay); the window, gaps and caps still apply. Default now. */
  sendAfter?: Date;
}

const INSERT_CHUNK = 500;

/** A random, unguessable public id for the message's pixel, links and unsubscribe page. */
export function newTrackingToken(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Queues rendered messages of one campaign in the outbox and wakes the dispatchers. Tracking (pixel,
 * click links) is applied here once, so the hot send path only adds the per-account envelope.
 */
export async function queueMessages(options: {
  db: Database;
  queue: Queue | null;
  appUrl: string;
  campaign: CampaignRow;
  messages: QueueMessageInput[];
  dispatchConcurrency?: number;
}): Promise<{ queued: number; ids: string[] }> {
  const { db, campaign } = options;
  const trackingBaseUrl = resolveTrackingBaseUrl({
    appUrl: options.appUrl,
    trackingDomain: campaign.trackingDomain,
  });
  const at = now();
  const ids: string[] = [];
  for (let start = 0; start < options.messages.length; start += INSERT_CHUNK) {
    const rows = options.messages.slice(start, start + INSERT_CHUNK).map((message) => {
      const token = newTrackingToken();
      const content = prepareMessageContent({
        html: message.html,
        text: message.text ?? null,
        token,
        trackingBaseUrl,
        trackOpens: campaign.trackOpens,
        trackClicks: campaign.trackClicks,
      });
      return {
        token,
        userId: campaign.userId,
        campaignId: campaign.id,
        campaignContactId: message.campaignContactId,
        stepId: message.stepId ?? null,
        variantKey: message.variantKey ?? null,
        toEmail: message.toEmail.trim(),
        toName: message.toName ?? null,
        subject: message.subject,
        html: content.html,
        text: content.text,
        links: content.links,
        sendAfter: message.sendAfter ?? at,
        createdAt: at,
        updatedAt: at,
      };
    });
    const inserted = await db.insert(outboxMessages).values(rows).returning({ id: outboxMessages.id });
    ids.push(...inserted.map((row) => row.id));
  }
  if (options.queue && ids.length > 0) {
    await wakeDispatchers({ queue: options.queue, parallelism: options.dispatchConcurrency ?? 2 });
  }
  return { queued: ids.length, ids };
}

/**
 * Asks the workers to drain the outbox now. One job per parallel slot; throttled per second so a
 * burst of enqueues makes a handful of jobs, not thousands. Drains that find nothing due end at once.
 */
export async function wakeDispatchers(options: {
  queue: Queue;
  parallelism: number;
  startAfter?: Date;
}): Promise<void> {
  for (let slot = 0; slot < options.parallelism; slot++) {
    await options.queue.send(
      'dispatch-outbox',
      {},
      {
        singletonKey: `${options.startAfter ? 'later' : 'now'}-${slot}`,
        singletonSeconds: options.startAfter ? 30 : 1,
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
        retryLimit: 0,
      },
    );
  }
}
