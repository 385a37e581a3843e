import { createHash } from 'node:crypto';
import type { Database } from '@server/db/client';
import {
  campaignContacts,
  campaignSenderAccounts,
  campaignSteps,
  campaigns,
  emailEvents,
  senderAccounts,
} from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import type { CampaignStep, VariantKey, WinnerMetric } from '@shared/campaigns';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  type PersonalizeContact,
  type PersonalizeSender,
  renderForContact,
  renderForQueue,
  renderSeed,
  type SenderIdentity,
  toPersonalizeContact,
} from '../personalization/personalization.service';
import { type QueueMessageInput, queueMessages, wakeDispatchers } from '../sending/outbox.service';
import { SENDER_PLACEHOLDERS } from '../sending/sending.service';
import { addStepDelay } from './next-step';
import { loadSteps } from './steps.service';
import { loadThreadParents, repliesInThread, replyReferences, replySubject } from './thread-reply';

/*
 * The sequence's progress (job advance-campaign-sequences, every minute and after a launch): contacts
 * whose next step is due get it rendered and queued, or skipped when the step's condition is false
 * (evaluated now, when the step comes due); a contact past the last step has completed; a campaign with
 * nothing pending has completed. When a queued step is sent, the dispatcher sets the contact's next due
 * time (next-step.ts). Safe to run twice and on several workers: contacts are claimed FOR UPDATE SKIP
 * LOCKED in the transaction that queues their message.
 */

type CampaignRow = typeof campaigns.$inferSelect;
type ContactRow = typeof campaignContacts.$inferSelect;

export interface AdvanceOptions {
  db: Database;
  queue: Queue | null;
  appUrl: string;
  log?: FastifyBaseLogger;
  /** Only this campaign (after a launch). */
  campaignId?: string;
  /** Only this user's campaigns (tests sharing one database). */
  onlyUserId?: string;
  /** Stop after this many contacts (a launch handles the first batches inline, the job the rest). */
  maxContacts?: number;
  batchSize?: number;
  dispatchConcurrency?: number;
}

export interface AdvanceSummary {
  queued: number;
  skipped: number;
  completedContacts: number;
  completedCampaigns: string[];
  winnersPicked: number;
}

const BATCH = 200;

/** 0–99, stable for a contact and step: the A/B bucket. */
export function splitBucket(contactId: string, stepId: string): number {
  return createHash('sha1').update(`${contactId}:${stepId}`).digest().readUInt32BE(0) % 100;
}

/** The variant a contact gets: the winner once there is one, else by the split percentages. */
export function chooseVariant(
  step: CampaignStep,
  contactId: string,
): CampaignStep['variants'][number] | null {
  const variants = [...step.variants].sort((a, b) => a.key.localeCompare(b.key));
  if (variants.length === 0) return null;
  if (step.winnerVariantKey) {
    const winner = variants.find((v) => v.key === step.winnerVariantKey);
    if (winner) return winner;
  }
  const bucket = splitBucket(contactId, step.id);
  let cumulative = 0;
  for (const variant of variants) {
    cumulative += variant.splitPercent;
    if (bucket < cumulative) return variant;
  }
  return variants.find((v) => v.splitPercent > 0) ?? variants[0]!;
}

interface Engagement {
  opened: boolean;
  clicked: boolean;
  replied: boolean;
}

async function engagementOf(db: Database, campaignId: string, contactIds: string[]) {
  const map = new Map<string, Engagement>();
  if (contactIds.length === 0) return map;
  // People only: privacy proxies and link scanners open and click everything.
  const rows = await db
    .selectDistinct({ contactId: emailEvents.campaignContactId, type: emailEvents.type })
    .from(emailEvents)
    .where(
      and(
        eq(emailEvents.campaignId, campaignId),
        inArray(emailEvents.campaignContactId, contactIds),
        inArray(emailEvents.type, ['opened', 'clicked', 'replied']),
        eq(emailEvents.machine, false),
      ),
    );
  for (const row of rows) {
    const e = map.get(row.contactId!) ?? { opened: false, clicked: false, replied: false };
    if (row.type === 'opened') e.opened = true;
    if (row.type === 'clicked') e.clicked = true;
    if (row.type === 'replied') e.replied = true;
    map.set(row.contactId!, e);
  }
  return map;
}

export function conditionHolds(condition: CampaignStep['condition'], e: Engagement | undefined): boolean {
  switch (condition) {
    case 'always':
      return true;
    case 'no_reply':
      return !e?.replied;
    case 'not_opened':
      return !e?.opened;
    case 'clicked':
      return Boolean(e?.clicked);
  }
}

/**
 * Picks a step's A/B winner once it has `afterSends` sends: the best rate of the rule's metric (people's
 * opens, clicks, replies per message sent), ties to the earlier letter. Messages of the losing variants
 * still waiting in the queue are taken back and their contacts get the winner instead.
 */
async function pickWinners(db: Database, campaign: CampaignRow, steps: CampaignStep[]): Promise<number> {
  let picked = 0;
  for (const step of steps) {
    if (!step.winnerRule || step.winnerVariantKey || step.variants.length < 2) continue;
    const metricType: Record<WinnerMetric, 'opened' | 'clicked' | 'replied'> = {
      open: 'opened',
      click: 'clicked',
      reply: 'replied',
    };
    const result = await db.execute(sql`
      SELECT o.variant_key AS key, count(*)::int AS sent,
        count(*) FILTER (WHERE EXISTS (
          SELECT 1 FROM email_events e WHERE e.outbox_message_id = o.id AND e.type = ${metricType[step.winnerRule.metric]}
            AND NOT e.machine))::int AS hits
      FROM outbox_all o
      WHERE o.campaign_id = ${campaign.id} AND o.step_id = ${step.id} AND o.state IN ('sent', 'bounced')
        AND o.sent_at IS NOT NULL
      GROUP BY o.variant_key`);
    const rows = (result as unknown as { rows: { key: string | null; sent: number; hits: number }[] }).rows;
    const total = rows.reduce((n, r) => n + Number(r.sent), 0);
    if (total < step.winnerRule.afterSends) continue;
    let best: { key: VariantKey; rate: number } | null = null;
    for (const variant of [...step.variants].sort((a, b) => a.key.localeCompare(b.key))) {
      const row = rows.find((r) => r.key === variant.key);
      const rate = row && Number(row.sent) > 0 ? Number(row.hits) / Number(row.sent) : 0;
      if (!best || rate > best.rate) best = { key: variant.key, rate };
    }
    if (!best) continue;
    const winner = best.key;
    await db.transaction(async (trx) => {
      const tx = trx as unknown as Database;
      const [updated] = await tx
        .update(campaignSteps)
        .set({ winnerVariantKey: winner, updatedAt: now() })
        .where(and(eq(campaignSteps.id, step.id), sql`${campaignSteps.winnerVariantKey} IS NULL`))
        .returning({ id: campaignSteps.id });
      if (!updated) return;
      // Losing variants not yet sent: cancelled, and their contacts rewound to get the winner.
      await tx.execute(sql`
        WITH taken AS (
          UPDATE outbox_messages SET state = 'cancelled', updated_at = ${now().toISOString()}::timestamptz
          WHERE campaign_id = ${campaign.id} AND step_id = ${step.id} AND state = 'queued'
            AND variant_key IS DISTINCT FROM ${winner}
          RETURNING campaign_contact_id, send_after)
        UPDATE campaign_contacts c SET current_step = ${step.position - 1}, next_step_at = taken.send_after
        FROM taken
        WHERE c.id = taken.campaign_contact_id AND c.current_step = ${step.position} AND c.status = 'active'`);
    });
    step.winnerVariantKey = winner;
    picked++;
  }
  return picked;
}

/** The campaign's accounts, active ones first, oldest first (for templates that need a real sender). */
async function campaignSenders(db: Database, campaignId: string): Promise<SenderIdentity[]> {
  return db
    .select({
      id: senderAccounts.id,
      fromName: senderAccounts.fromName,
      fromEmail: senderAccounts.fromEmail,
      company: senderAccounts.company,
    })
    .from(campaignSenderAccounts)
    .innerJoin(senderAccounts, eq(senderAccounts.id, campaignSenderAccounts.senderAccountId))
    .where(eq(campaignSenderAccounts.campaignId, campaignId))
    .orderBy(sql`(${senderAccounts.status} = 'active') desc`, asc(senderAccounts.createdAt));
}

/**
 * The subject of the nearest step before `beforePosition` that has one, as this contact gets it (their
 * A/B variant, rendered): what a threaded follow-up's "Re:" repeats, and the subject of a threaded
 * follow-up that has nothing to answer. Null when no earlier step has a subject.
 */
export function earlierStepSubject(options: {
  campaignId: string;
  steps: CampaignStep[];
  beforePosition: number;
  /** The A/B bucket's key: the campaign contact's id (any stable string in a preview). */
  campaignContactId: string;
  contact: PersonalizeContact;
  sender: PersonalizeSender | null;
}): string | null {
  const earlier = options.steps
    .filter((step) => step.position < options.beforePosition)
    .sort((a, b) => b.position - a.position);
  for (const step of earlier) {
    const variant = chooseVariant(step, options.campaignContactId);
    if (!variant || variant.subject.trim() === '') continue;
    return renderForContact({
      subject: variant.subject,
      html: '',
      contact: options.contact,
      sender: options.sender,
      seed: renderSeed({ campaignId: options.campaignId, stepId: step.id, email: options.contact.email }),
    }).subject;
  }
  return null;
}

interface ContactUpdate {
  id: string;
  currentStep: number;
  nextStepAt: Date | null;
  status: 'active' | 'completed' | 'stopped';
}

/** One transaction: claims due contacts of the campaign, queues or skips their due step. */
async function advanceBatch(
  options: AdvanceOptions,
  campaign: CampaignRow,
  steps: CampaignStep[],
  senders: SenderIdentity[],
  summary: AdvanceSummary,
  limit: number,
): Promise<number> {
  const at = now();
  return options.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const claimed = await tx.execute(sql`
      SELECT * FROM campaign_contacts
      WHERE campaign_id = ${campaign.id} AND status = 'active' AND next_step_at <= ${at.toISOString()}::timestamptz
      ORDER BY next_step_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED`);
    const rawRows = (claimed as unknown as { rows: Record<string, unknown>[] }).rows;
    if (rawRows.length === 0) return 0;
    const contacts = await tx
      .select()
      .from(campaignContacts)
      .where(
        inArray(
          campaignContacts.id,
          rawRows.map((r) => String(r.id)),
        ),
      );
    const engagement = await engagementOf(
      tx,
      campaign.id,
      contacts.map((c) => c.id),
    );
    // Each contact's last message of the campaign: what a threaded follow-up answers, and the mailbox
    // every later step comes from (one contact, one mailbox).
    const lastSent = await loadThreadParents(
      tx,
      campaign.id,
      contacts.map((c) => c.id),
    );
    const messages: QueueMessageInput[] = [];
    const updates: ContactUpdate[] = [];
    for (const contact of contacts) {
      const outcome = nextAction(contact, steps, engagement.get(contact.id), at, campaign.timeZone);
      if (outcome.kind === 'send') {
        const variant = chooseVariant(outcome.step, contact.id);
        if (!variant) {
          updates.push({
            id: contact.id,
            currentStep: outcome.step.position,
            nextStepAt: null,
            status: 'active',
          });
          continue;
        }
        try {
          const personalizeContact = toPersonalizeContact(contact);
          const threaded = repliesInThread(outcome.step, variant);
          const previous = lastSent.get(contact.id);
          const parent = threaded ? previous : undefined;
          const boundAccountId = previous?.senderAccountId ?? null;
          const rendered = renderForQueue({
            subject: variant.subject,
            html: variant.bodyHtml,
            contact: personalizeContact,
            fallbackSender: senders.find((a) => a.id === boundAccountId) ?? senders[0] ?? null,
            seed: renderSeed({ campaignId: campaign.id, stepId: outcome.step.id, email: contact.email }),
          });
          // Sender values as placeholders, unless the template needed a real account (then it is that one's).
          const sender = rendered.renderedFor
            ? (senders.find((a) => a.id === rendered.renderedFor) ?? null)
            : SENDER_PLACEHOLDERS;
          let subject = rendered.subject;
          if (parent) subject = replySubject(parent.subject);
          else if (threaded) {
            // Nothing to answer (the earlier steps were skipped for this contact): this is their first
            // email, so it takes the subject an earlier step would have given them.
            subject =
              earlierStepSubject({
                campaignId: campaign.id,
                steps,
                beforePosition: outcome.step.position,
                campaignContactId: contact.id,
                contact: personalizeContact,
                sender,
              }) ?? subject;
          }
          messages.push({
            campaignContactId: contact.id,
            toEmail: contact.email,
            toName: [contact.firstName, contact.lastName].filter(Boolean).join(' ') || null,
            subject,
            html: rendered.html,
            stepId: outcome.step.id,
            variantKey: variant.key,
            sendAfter: outcome.dueAt,
            boundSenderAccountId: rendered.renderedFor ?? boundAccountId,
            ...(parent
              ? {
                  inReplyTo: parent.messageId,
                  threadReferences: replyReferences(parent.threadReferences, parent.messageId),
                }
              : {}),
          });
          updates.push({
            id: contact.id,
            currentStep: outcome.step.position,
            nextStepAt: null,
            status: 'active',
          });
        } catch (error) {
          // The pre-launch check catches template problems; one that slips through leaves this contact
          // out rather than blocking everyone behind it.
          options.log?.warn(
            { err: error, campaignId: campaign.id, contactId: contact.id },
            'step could not be rendered',
          );
          updates.push({
            id: contact.id,
            currentStep: outcome.step.position,
            nextStepAt: null,
            status: 'stopped',
          });
        }
      } else if (outcome.kind === 'wait') {
        summary.skipped += outcome.skipped;
        updates.push({
          id: contact.id,
          currentStep: outcome.currentStep,
          nextStepAt: outcome.dueAt,
          status: 'active',
        });
      } else {
        summary.skipped += outcome.skipped;
        summary.completedContacts++;
        updates.push({
          id: contact.id,
          currentStep: outcome.currentStep,
          nextStepAt: null,
          status: 'completed',
        });
      }
    }
    if (messages.length > 0) {
      await queueMessages({ db: tx, queue: null, appUrl: options.appUrl, campaign, messages });
      summary.queued += messages.length;
    }
    if (updates.length > 0) {
      const values = sql.join(
        updates.map(
          (u) =>
            sql`(${u.id}::uuid, ${u.currentStep}::int, ${u.nextStepAt?.toISOString() ?? null}::timestamptz, ${u.status}::text)`,
        ),
        sql`, `,
      );
      await tx.execute(sql`
        UPDATE campaign_contacts AS c
        SET current_step = v.step, next_step_at = v.due, status = v.status,
            status_changed_at = CASE WHEN v.status <> c.status THEN ${at.toISOString()}::timestamptz ELSE c.status_changed_at END,
            updated_at = ${at.toISOString()}::timestamptz
        FROM (VALUES ${values}) AS v(id, step, due, status)
        WHERE c.id = v.id`);
    }
    return contacts.length;
  });
}

type NextAction =
  | { kind: 'send'; step: CampaignStep; dueAt: Date }
  | { kind: 'wait'; currentStep: number; dueAt: Date; skipped: number }
  | { kind: 'done'; currentStep: number; skipped: number };

/**
 * What a due contact gets now: the next step whose condition holds; a skipped step's successor is due
 * its delay after the skipped one was due (which may still be in the future: then wait for it).
 */
export function nextAction(
  contact: Pick<ContactRow, 'currentStep' | 'nextStepAt'>,
  steps: CampaignStep[],
  engagement: Engagement | undefined,
  at: Date,
  timeZone: string,
): NextAction {
  let position = contact.currentStep + 1;
  let dueAt = contact.nextStepAt ?? at;
  let skipped = 0;
  for (;;) {
    const step = steps.find((s) => s.position === position);
    if (!step) return { kind: 'done', currentStep: position - 1, skipped };
    if (dueAt.getTime() > at.getTime()) return { kind: 'wait', currentStep: position - 1, dueAt, skipped };
    if (conditionHolds(step.condition, engagement)) return { kind: 'send', step, dueAt };
    skipped++;
    const next = steps.find((s) => s.position === position + 1);
    if (next) dueAt = addStepDelay(dueAt, next, timeZone);
    position++;
  }
}

/** Marks active campaigns with nothing pending (no contact waiting, nothing queued or sending) completed. */
export async function completeFinishedCampaigns(options: {
  db: Database;
  campaignId?: string;
  onlyUserId?: string;
}): Promise<string[]> {
  const at = now().toISOString();
  const result = await options.db.execute(sql`
    WITH done AS (
      UPDATE campaigns c SET status = 'completed', completed_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
      WHERE c.kind = 'campaign' AND c.status = 'active'
        ${options.campaignId ? sql`AND c.id = ${options.campaignId}` : sql``}
        ${options.onlyUserId ? sql`AND c.user_id = ${options.onlyUserId}` : sql``}
        AND NOT EXISTS (
          SELECT 1 FROM campaign_contacts cc WHERE cc.campaign_id = c.id
            AND (cc.status = 'paused' OR (cc.status = 'active' AND cc.next_step_at IS NOT NULL)))
        AND NOT EXISTS (
          SELECT 1 FROM outbox_messages o WHERE o.campaign_id = c.id AND o.state IN ('queued', 'sending'))
      RETURNING c.id),
    contacts AS (
      UPDATE campaign_contacts SET status = 'completed', status_changed_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
      WHERE campaign_id IN (SELECT id FROM done) AND status = 'active'
      RETURNING 1)
    SELECT id FROM done`);
  return (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

/** One pass over every active campaign (or one): due steps queued, finished campaigns completed. */
export async function advanceCampaignSequences(options: AdvanceOptions): Promise<AdvanceSummary> {
  const { db } = options;
  const summary: AdvanceSummary = {
    queued: 0,
    skipped: 0,
    completedContacts: 0,
    completedCampaigns: [],
    winnersPicked: 0,
  };
  const at = now();
  // A suspended user's campaigns are paused with the suspension; this covers one that raced it.
  const scope = sql`c.kind = 'campaign' AND c.status = 'active'
    AND NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = c.user_id AND u.banned)
    ${options.campaignId ? sql`AND c.id = ${options.campaignId}` : sql``}
    ${options.onlyUserId ? sql`AND c.user_id = ${options.onlyUserId}` : sql``}`;
  // Out of office until a date that has passed: back in the sequence (the dispatcher does the same for
  // contacts that have a message waiting).
  await db.execute(sql`
    UPDATE campaign_contacts cc SET status = 'active', paused_until = NULL,
      status_changed_at = ${at.toISOString()}::timestamptz, updated_at = ${at.toISOString()}::timestamptz
    FROM campaigns c
    WHERE c.id = cc.campaign_id AND ${scope}
      AND cc.status = 'paused' AND cc.paused_until IS NOT NULL AND cc.paused_until <= ${at.toISOString()}::timestamptz`);
  const due = await db.execute(sql`
    SELECT c.id FROM campaigns c
    WHERE ${scope} AND (
      EXISTS (
        SELECT 1 FROM campaign_contacts cc
        WHERE cc.campaign_id = c.id AND cc.status = 'active' AND cc.next_step_at <= ${at.toISOString()}::timestamptz)
      OR EXISTS (
        SELECT 1 FROM campaign_steps s
        WHERE s.campaign_id = c.id AND s.winner_metric IS NOT NULL AND s.winner_variant_key IS NULL))`);
  const campaignIds = (due as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
  let budget = options.maxContacts ?? Number.POSITIVE_INFINITY;
  for (const campaignId of campaignIds) {
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1);
    if (campaign?.status !== 'active') continue;
    const steps = await loadSteps({ db, campaignId });
    summary.winnersPicked += await pickWinners(db, campaign, steps);
    const senders = await campaignSenders(db, campaignId);
    while (budget > 0) {
      const handled = await advanceBatch(
        options,
        campaign,
        steps,
        senders,
        summary,
        Math.min(options.batchSize ?? BATCH, budget),
      );
      if (handled === 0) break;
      budget -= handled;
    }
    if (budget <= 0) break;
  }
  if (summary.queued > 0 && options.queue) {
    await wakeDispatchers({ queue: options.queue, parallelism: options.dispatchConcurrency ?? 2 });
  }
  summary.completedCampaigns = await completeFinishedCampaigns(options);
  return summary;
}
