import type { Database } from '@server/db/client';
import {
  type campaignContacts,
  campaignSenderAccounts,
  campaigns,
  contactLists,
  newsletters,
  senderAccounts,
} from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { CAMPAIGN_MESSAGES } from '@shared/campaigns';
import { NEWSLETTER_MESSAGES, type Newsletter } from '@shared/newsletters';
import { and, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { type AudienceContact, resolveAudienceBatches } from '../campaigns/audience.service';
import {
  type CampaignActor,
  ownerSuspended,
  resumeCampaign,
  stopCampaign,
} from '../campaigns/campaigns.service';
import { renderForQueue, toPersonalizeContact } from '../personalization/personalization.service';
import { assertWithinLimit, getPlanLimits } from '../plans/plan-limits.service';
import { queueMessages, wakeDispatchers } from '../sending/outbox.service';
import { resolveRecipientTimeZone } from '../sending/sending.service';
import { hasVisibleContent, wrapBulkHtml } from './bulk-html';
import { getNewsletterRow, type NewsletterRow, newsletterDto } from './newsletters.service';
import { assertNoPlaceholders } from './presend-check';

/*
 * A newsletter or bulk email goes out through the sending engine: one `campaigns` row (kind
 * newsletter|bulk, active, all day every day, no gap, tracking on), a campaign contact per recipient and
 * one queued message each, rendered for that recipient. The newsletter is 'sending' until the engine has
 * nothing queued or in flight for it, then 'sent'.
 *
 * Recipients are walked in batches; each batch's contacts and messages are written in one transaction,
 * and the campaign's `started_at` is set only when the whole audience is queued. A send interrupted by
 * a restart is picked up again by the `send-scheduled-newsletters` job: contacts already in the
 * campaign are skipped (the campaign/address unique key), so nobody gets two copies.
 */

export interface SendContext {
  db: Database;
  queue: Queue | null;
  appUrl: string;
  dispatchConcurrency?: number;
}

/** A send that made no progress for this long lost its process; the job takes it over. */
export const STALLED_SEND_MS = 10 * 60 * 1000;
const SEND_BATCH = 500;
/** Flushes queued inside the "send now" request (the audience comes in batches of 1,000); the job queues the rest. */
const IN_REQUEST_BATCHES = 1;
export const QUEUE_NEWSLETTER_AUDIENCE_JOB = 'queue-newsletter-audience';
export const FINISH_NEWSLETTER_SENDS_JOB = 'finish-newsletter-sends';
const YEAR_MS = 366 * 24 * 60 * 60 * 1000;

interface SendTargets {
  listIds: string[];
  /** Segments narrowing some of the lists (segments.service checks they fit). */
  segmentIds?: string[];
  senderAccountIds: string[];
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

function checkContent(row: NewsletterRow): void {
  if (!row.subject.trim()) throw new AppError('validation', NEWSLETTER_MESSAGES.needsSubject);
  if (!hasVisibleContent(row.html)) throw new AppError('validation', NEWSLETTER_MESSAGES.needsBody);
}

/** The lists are the owner's and live, the accounts the owner's with at least one active. */
async function checkTargets(db: Database, userId: string, targets: SendTargets): Promise<void> {
  const listIds = unique(targets.listIds);
  const senderIds = unique(targets.senderAccountIds);
  if (listIds.length === 0) throw new AppError('validation', NEWSLETTER_MESSAGES.needsLists);
  if (senderIds.length === 0) throw new AppError('validation', NEWSLETTER_MESSAGES.needsSenders);
  const lists = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(
      and(eq(contactLists.userId, userId), inArray(contactLists.id, listIds), isNull(contactLists.deletedAt)),
    );
  if (lists.length !== listIds.length) throw notFound('List not found');
  const accounts = await db
    .select({ id: senderAccounts.id, status: senderAccounts.status })
    .from(senderAccounts)
    .where(and(eq(senderAccounts.userId, userId), inArray(senderAccounts.id, senderIds)));
  if (accounts.length !== senderIds.length) throw notFound('Sender account not found');
  if (!accounts.some((a) => a.status === 'active')) {
    throw new AppError('conflict', NEWSLETTER_MESSAGES.noActiveSender);
  }
}

/** Refuses an empty audience, and one larger than the plan's recipient limit. */
async function checkAudience(db: Database, userId: string, targets: SendTargets): Promise<void> {
  const limits = await getPlanLimits({ db, userId });
  const cap = limits.recipients < 0 ? 1 : limits.recipients + 1;
  let n = 0;
  for await (const batch of resolveAudienceBatches({
    db,
    userId,
    audience: {
      listIds: unique(targets.listIds),
      segmentIds: unique(targets.segmentIds ?? []),
      leadFilters: [],
    },
    limit: cap,
  })) {
    n += batch.length;
  }
  if (n === 0) throw new AppError('validation', NEWSLETTER_MESSAGES.emptyAudience);
  if (limits.recipients >= 0)
    await assertWithinLimit({ db, userId, limit: 'recipients', used: 0, adding: n });
}

/** Sends now. */
export async function sendNewsletter(
  ctx: SendContext & { userId: string; id: string; input: SendTargets },
): Promise<Newsletter> {
  const { db, userId } = ctx;
  const row = await getNewsletterRow({ db, userId, id: ctx.id });
  if (row.status !== 'draft' && row.status !== 'scheduled') {
    throw new AppError('conflict', NEWSLETTER_MESSAGES.alreadySent);
  }
  checkContent(row);
  await checkTargets(db, userId, ctx.input);
  await checkAudience(db, userId, ctx.input);
  await assertNoPlaceholders({ db, userId, row, listIds: ctx.input.listIds });
  const claimed = await startSend(ctx, row, ctx.input, ['draft', 'scheduled']);
  if (!claimed) throw new AppError('conflict', NEWSLETTER_MESSAGES.alreadySent);
  await beginQueueing(ctx, claimed.campaignId);
  return newsletterDto(db, ctx.appUrl, await getNewsletterRow({ db, userId, id: row.id }));
}

/**
 * Moves the newsletter to 'sending' (only from the given statuses: two sends never both start) and
 * creates its engine campaign, in one transaction.
 */
async function startSend(
  ctx: SendContext,
  row: NewsletterRow,
  targets: SendTargets,
  from: NewsletterRow['status'][],
): Promise<{ campaignId: string } | null> {
  const at = now();
  return ctx.db.transaction(async (tx) => {
    // A suspended owner's newsletter does not start (campaigns.service.ts ownerSuspended).
    if (await ownerSuspended(tx as unknown as Database, row.userId)) return null;
    const [claimed] = await tx
      .update(newsletters)
      .set({
        status: 'sending',
        listIds: unique(targets.listIds),
        segmentIds: unique(targets.segmentIds ?? []),
        senderAccountIds: unique(targets.senderAccountIds),
        sentAt: at,
        updatedAt: at,
      })
      .where(
        and(eq(newsletters.id, row.id), inArray(newsletters.status, from), isNull(newsletters.deletedAt)),
      )
      .returning();
    if (!claimed) return null;
    const [campaign] = await tx
      .insert(campaigns)
      .values({
        userId: row.userId,
        name: (row.subject || row.name).slice(0, 200),
        kind: row.kind,
        status: 'active',
        audience: { listIds: claimed.listIds, segmentIds: claimed.segmentIds, leadFilters: [] },
        windowStartMinute: 0,
        windowEndMinute: 1440,
        sendDays: [1, 2, 3, 4, 5, 6, 7],
        timezoneMode: 'fixed',
        gapMinSeconds: 0,
        gapMaxSeconds: 0,
        trackOpens: true,
        trackClicks: true,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: campaigns.id });
    await tx
      .insert(campaignSenderAccounts)
      .values(
        claimed.senderAccountIds.map((senderAccountId) => ({ campaignId: campaign!.id, senderAccountId })),
      );
    await tx.update(newsletters).set({ campaignId: campaign!.id }).where(eq(newsletters.id, row.id));
    return { campaignId: campaign!.id };
  });
}

/** The email as it is sent (before personalisation): the rendered blocks, or the wrapped rich text. */
export function sendableHtml(row: Pick<NewsletterRow, 'kind' | 'html' | 'subject'>): string {
  return row.kind === 'bulk' ? wrapBulkHtml(row.html, row.subject) : row.html;
}

/**
 * Queues the first recipients at once (so sending has begun when the page shows it) and hands a larger
 * audience to the queue-newsletter-audience job, so no request or cron tick waits for a million renders.
 * Without a job queue (some tests), the whole audience is queued here.
 */
async function beginQueueing(ctx: SendContext, campaignId: string): Promise<void> {
  const first = await queueAudience(ctx, campaignId, {
    maxBatches: ctx.queue ? IN_REQUEST_BATCHES : undefined,
  });
  if (!first.done && ctx.queue) {
    // One job per send at a time; a second "start" while it runs is the same work.
    await ctx.queue.send(QUEUE_NEWSLETTER_AUDIENCE_JOB, { campaignId }, { singletonKey: campaignId });
  }
}

type InsertedContact = Pick<
  typeof campaignContacts.$inferSelect,
  'id' | 'email' | 'firstName' | 'lastName' | 'company' | 'city' | 'countryCode' | 'fields'
>;

/**
 * A batch of the audience into the campaign, those already in it (a resumed send, the same address twice)
 * skipped. One array per column (unnest): a Drizzle multi-row insert built and checked 14 parameters a
 * contact and mapped back every column: in the worker's profile, the largest part of queueing left once
 * each distinct body was prepared only once.
 */
async function insertCampaignContacts(
  db: Database,
  batch: { campaignId: string; userId: string; at: Date; contacts: AudienceContact[] },
): Promise<InsertedContact[]> {
  const { contacts } = batch;
  const column = <T>(pick: (contact: AudienceContact) => T) => sql.param(contacts.map(pick));
  const stamp = batch.at.toISOString();
  const result = await db.execute(sql`
    INSERT INTO campaign_contacts (campaign_id, user_id, email, first_name, last_name, company, city,
      country_code, time_zone, fields, directory_contact_id, current_step, created_at, updated_at)
    SELECT ${batch.campaignId}::uuid, ${batch.userId}, c.email, c.first_name, c.last_name, c.company, c.city,
      c.country_code, c.time_zone, c.fields::jsonb, c.directory_contact_id, 1, ${stamp}::timestamptz,
      ${stamp}::timestamptz
    FROM unnest(${column((c) => c.email)}::text[], ${column((c) => c.firstName)}::text[],
      ${column((c) => c.lastName)}::text[], ${column((c) => c.company)}::text[], ${column((c) => c.city)}::text[],
      ${column((c) => c.countryCode)}::text[],
      ${column((c) => resolveRecipientTimeZone({ countryCode: c.countryCode, city: c.city }))}::text[],
      ${column((c) => JSON.stringify(c.fields ?? {}))}::text[], ${column((c) => c.directoryContactId ?? null)}::uuid[])
      AS c(email, first_name, last_name, company, city, country_code, time_zone, fields, directory_contact_id)
    ON CONFLICT DO NOTHING
    RETURNING id, email, first_name, last_name, company, city, country_code, fields`);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  return rows.map((r) => ({
    id: r.id as string,
    email: r.email as string,
    firstName: r.first_name as string | null,
    lastName: r.last_name as string | null,
    company: r.company as string | null,
    city: r.city as string | null,
    countryCode: r.country_code as string | null,
    // A driver that hands jsonb back as text (none of ours today) still gives the same object.
    fields: (typeof r.fields === 'string' ? JSON.parse(r.fields) : r.fields) as Record<string, string>,
  }));
}

/**
 * Copies the audience into the campaign and queues one rendered message per new contact. Safe to run
 * again on a send that was interrupted. With `maxBatches`, stops after that many batches (`done` false,
 * the campaign not yet started): the rest is the queue-newsletter-audience job's.
 */
export async function queueAudience(
  ctx: SendContext,
  campaignId: string,
  options: { maxBatches?: number } = {},
): Promise<{ queued: number; done: boolean }> {
  const { db } = ctx;
  const [row] = await db.select().from(newsletters).where(eq(newsletters.campaignId, campaignId)).limit(1);
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId)).limit(1);
  if (!row || !campaign || campaign.startedAt) return { queued: 0, done: true };
  // Suspended: the rest waits (the stalled-send takeover carries on once the account is restored).
  if (await ownerSuspended(db, row.userId)) return { queued: 0, done: false };
  // Sender values are filled by the dispatcher for the account that sends each copy; this one is for a
  // template that reshapes them and so needs a real account (personalize.ts, renderForQueue).
  const [fallbackSender] = await db
    .select({
      id: senderAccounts.id,
      fromName: senderAccounts.fromName,
      fromEmail: senderAccounts.fromEmail,
      company: senderAccounts.company,
    })
    .from(campaignSenderAccounts)
    .innerJoin(senderAccounts, eq(senderAccounts.id, campaignSenderAccounts.senderAccountId))
    .where(eq(campaignSenderAccounts.campaignId, campaignId))
    .orderBy(sql`${senderAccounts.status} = 'active' desc`, senderAccounts.createdAt)
    .limit(1);
  const html = sendableHtml(row);
  let queued = 0;
  const batches = resolveAudienceBatches({
    db,
    userId: row.userId,
    audience: { listIds: row.listIds, segmentIds: row.segmentIds, leadFilters: [] },
  });
  let pending: AudienceContact[] = [];
  const flush = async (contacts: AudienceContact[]) => {
    queued += await db.transaction(async (tx) => {
      const at = now();
      const inserted = await insertCampaignContacts(tx, { campaignId, userId: row.userId, at, contacts });
      if (inserted.length === 0) return 0;
      const messages = inserted.map((contact) => {
        const rendered = renderForQueue({
          subject: row.subject,
          html,
          contact: toPersonalizeContact(contact),
          fallbackSender: fallbackSender ?? null,
          seed: contact.id,
        });
        const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
        return {
          campaignContactId: contact.id,
          toEmail: contact.email,
          toName: name || null,
          subject: rendered.subject,
          html: rendered.html,
          boundSenderAccountId: rendered.renderedFor,
        };
      });
      const result = await queueMessages({ db: tx, queue: null, appUrl: ctx.appUrl, campaign, messages });
      // Progress marker: a send whose campaign stops moving is taken over by the job.
      await tx.update(campaigns).set({ updatedAt: at }).where(eq(campaigns.id, campaignId));
      return result.queued;
    });
  };
  let flushed = 0;
  for await (const batch of batches) {
    pending.push(...batch);
    if (pending.length >= SEND_BATCH) {
      await flush(pending);
      pending = [];
      flushed += 1;
      if (ctx.queue) await wakeDispatchers({ queue: ctx.queue, parallelism: ctx.dispatchConcurrency ?? 2 });
      if (options.maxBatches !== undefined && flushed >= options.maxBatches) {
        // Stop here (the generator's finally closes the walk); the job queues the rest.
        return { queued, done: false };
      }
    }
  }
  if (pending.length > 0) await flush(pending);
  await db
    .update(campaigns)
    .set({ startedAt: now(), updatedAt: now() })
    .where(and(eq(campaigns.id, campaignId), isNull(campaigns.startedAt)));
  if (ctx.queue && queued > 0) {
    await wakeDispatchers({ queue: ctx.queue, parallelism: ctx.dispatchConcurrency ?? 2 });
  }
  return { queued, done: true };
}

export async function scheduleNewsletter(options: {
  db: Database;
  appUrl: string;
  userId: string;
  id: string;
  input: SendTargets & { scheduledAt: string };
}): Promise<Newsletter> {
  const { db, userId } = options;
  const row = await getNewsletterRow({ db, userId, id: options.id });
  if (row.status !== 'draft' && row.status !== 'scheduled') {
    throw new AppError('conflict', NEWSLETTER_MESSAGES.alreadySent);
  }
  const when = new Date(options.input.scheduledAt);
  const at = now();
  if (Number.isNaN(when.getTime()) || when.getTime() <= at.getTime()) {
    throw new AppError('validation', NEWSLETTER_MESSAGES.scheduleInPast, {
      errors: [{ path: 'scheduledAt', message: NEWSLETTER_MESSAGES.scheduleInPast }],
    });
  }
  if (when.getTime() - at.getTime() > YEAR_MS) {
    throw new AppError('validation', NEWSLETTER_MESSAGES.scheduleTooFar, {
      errors: [{ path: 'scheduledAt', message: NEWSLETTER_MESSAGES.scheduleTooFar }],
    });
  }
  checkContent(row);
  await checkTargets(db, userId, options.input);
  await checkAudience(db, userId, options.input);
  await assertNoPlaceholders({ db, userId, row, listIds: options.input.listIds });
  const [updated] = await db
    .update(newsletters)
    .set({
      status: 'scheduled',
      scheduledAt: when,
      listIds: unique(options.input.listIds),
      segmentIds: unique(options.input.segmentIds ?? []),
      senderAccountIds: unique(options.input.senderAccountIds),
      updatedAt: at,
    })
    .where(
      and(
        eq(newsletters.id, row.id),
        inArray(newsletters.status, ['draft', 'scheduled']),
        isNull(newsletters.deletedAt),
      ),
    )
    .returning();
  if (!updated) throw new AppError('conflict', NEWSLETTER_MESSAGES.alreadySent);
  return newsletterDto(db, options.appUrl, updated);
}

/** Back to draft. Usable by super admins for any user's newsletter (`userId` omitted). */
export async function unscheduleNewsletter(options: {
  db: Database;
  appUrl: string;
  userId?: string;
  id: string;
}): Promise<Newsletter> {
  const { db } = options;
  const [updated] = await db
    .update(newsletters)
    .set({ status: 'draft', scheduledAt: null, updatedAt: now() })
    .where(
      and(
        eq(newsletters.id, options.id),
        options.userId ? eq(newsletters.userId, options.userId) : undefined,
        eq(newsletters.status, 'scheduled'),
        isNull(newsletters.deletedAt),
      ),
    )
    .returning();
  if (!updated) {
    // Tell "not yours / not there" (404) from "not scheduled" (409).
    const [exists] = await db
      .select({ id: newsletters.id })
      .from(newsletters)
      .where(
        and(
          eq(newsletters.id, options.id),
          options.userId ? eq(newsletters.userId, options.userId) : undefined,
          isNull(newsletters.deletedAt),
        ),
      )
      .limit(1);
    if (!exists) throw notFound(NEWSLETTER_MESSAGES.notFound);
    throw new AppError('conflict', NEWSLETTER_MESSAGES.notScheduled);
  }
  return newsletterDto(db, options.appUrl, updated);
}

export interface ScheduledRunSummary {
  started: number;
  failed: number;
  resumed: number;
  finished: number;
}

/** The row's owner is not suspended (a suspension unschedules and pauses; this covers what raced it). */
function notSuspended(userId: typeof newsletters.userId) {
  return sql`NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = ${userId} AND u.banned)`;
}

/**
 * The `send-scheduled-newsletters` job (every minute; safe to run twice, or on two workers at once):
 * starts due scheduled sends, takes over stalled ones, and marks finished ones 'sent'.
 */
export async function runNewsletterSchedule(
  ctx: SendContext & { log?: { warn(obj: object, msg: string): void } },
): Promise<ScheduledRunSummary> {
  const { db } = ctx;
  const summary: ScheduledRunSummary = { started: 0, failed: 0, resumed: 0, finished: 0 };
  const at = now();

  const due = await db
    .select()
    .from(newsletters)
    .where(
      and(
        eq(newsletters.status, 'scheduled'),
        lte(newsletters.scheduledAt, at),
        isNull(newsletters.deletedAt),
        notSuspended(newsletters.userId),
      ),
    )
    .orderBy(newsletters.scheduledAt)
    .limit(50);
  for (const row of due) {
    const targets = {
      listIds: row.listIds,
      segmentIds: row.segmentIds,
      senderAccountIds: row.senderAccountIds,
    };
    try {
      checkContent(row);
      await checkTargets(db, row.userId, targets);
      await checkAudience(db, row.userId, targets);
      await assertNoPlaceholders({ db, userId: row.userId, row, listIds: row.listIds });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // It cannot go as planned (a list deleted, no active account…): back to draft for the owner to fix.
      await db
        .update(newsletters)
        .set({ status: 'draft', updatedAt: now() })
        .where(and(eq(newsletters.id, row.id), eq(newsletters.status, 'scheduled')));
      ctx.log?.warn(
        { newsletterId: row.id, reason: error.message },
        'scheduled newsletter could not be sent',
      );
      summary.failed++;
      continue;
    }
    const claimed = await startSend(ctx, row, targets, ['scheduled']);
    if (!claimed) continue; // unscheduled, or another worker took it
    await beginQueueing(ctx, claimed.campaignId);
    summary.started++;
  }

  const stalled = await db
    .select({ campaignId: campaigns.id })
    .from(newsletters)
    .innerJoin(campaigns, eq(campaigns.id, newsletters.campaignId))
    .where(
      and(
        eq(newsletters.status, 'sending'),
        isNull(campaigns.startedAt),
        lt(campaigns.updatedAt, new Date(at.getTime() - STALLED_SEND_MS)),
        notSuspended(newsletters.userId),
      ),
    )
    .limit(20);
  for (const { campaignId } of stalled) {
    // Claim the takeover by moving the progress marker: a second worker's guard then fails.
    const [mine] = await db
      .update(campaigns)
      .set({ updatedAt: now() })
      .where(
        and(
          eq(campaigns.id, campaignId),
          isNull(campaigns.startedAt),
          lt(campaigns.updatedAt, new Date(at.getTime() - STALLED_SEND_MS)),
        ),
      )
      .returning({ id: campaigns.id });
    if (!mine) continue;
    await beginQueueing(ctx, campaignId);
    summary.resumed++;
  }

  summary.finished = await finishNewsletterSends({ db });
  return summary;
}

/**
 * Contacts completed per statement at the finish. One UPDATE of all of a send's contacts held every
 * row's lock until it ended (bench/newsletter-finish: 68 s for 1,000,000 recipients on a loaded 2-core
 * machine; a reply or an unsubscribe to any of them waited behind it); in batches each statement holds
 * a few thousand rows for about a second (docs/decisions/newsletter-contacts-cost.md).
 */
const FINISH_CONTACT_BATCH = 5_000;

/**
 * How long a run of the finish holds a send (newsletters.finishing_until). The finish is asked for after
 * every drain that sent something, by each worker process, and by the per-minute schedule, so several runs
 * reach a finished send at once; each used to walk all of its contacts, the later ones waiting on the
 * first one's row locks batch after batch and then finding the rows completed (newsletter-million at
 * 1,000,000: 'sent' ~77 s after the last message, for ~5 s of walking alone). Now the first run claims
 * the send and the others leave it. A run that dies holds it until the lease runs out: long enough for a
 * slow statement on a loaded server, short enough that the per-minute schedule takes over within a few
 * minutes.
 */
const FINISH_LEASE_MS = 2 * 60_000;

/** A walking run extends its lease once this much of it has passed: one small UPDATE every 30 s. */
const FINISH_RENEW_AFTER_MS = 30_000;

/**
 * 'sending' → 'sent' once every recipient is queued and the engine has nothing queued or in flight: its
 * campaign 'completed', its contacts still 'active' 'completed' (those that replied, bounced,
 * unsubscribed or are paused keep theirs).
 */
export async function finishNewsletterSends({
  db,
  contactBatch = FINISH_CONTACT_BATCH,
}: {
  db: Database;
  /** Tests: a small batch, to go through several. */
  contactBatch?: number;
}): Promise<number> {
  const started = now();
  const done = await db
    .select({ id: newsletters.id, campaignId: campaigns.id, userId: newsletters.userId })
    .from(newsletters)
    .innerJoin(campaigns, eq(campaigns.id, newsletters.campaignId))
    .where(
      and(
        eq(newsletters.status, 'sending'),
        isNotNull(campaigns.startedAt),
        or(isNull(newsletters.finishingUntil), lt(newsletters.finishingUntil, started)),
        sql`not exists (select 1 from outbox_messages o where o.campaign_id = ${campaigns.id} and o.state in ('queued', 'sending'))`,
      ),
    )
    .limit(200);
  let finished = 0;
  for (const row of done) {
    const lease = await claimFinish(db, row.id);
    if (!lease) continue; // another run is finishing it
    const at = now();
    let marked = false;
    try {
      // The contacts first, batch by batch, while the newsletter is still 'sending': a run that stops
      // half-way leaves it 'sending', and the next run completes the rest (a completed contact is not
      // written again) before the newsletter is marked. Nothing makes a contact 'active' again once
      // nothing is queued or in flight (only sending a paused contact's message does).
      const walked = await completeActiveContacts(db, row.campaignId, at, contactBatch, () =>
        keepFinish(db, lease),
      );
      // Its lease ran out and another run took the send over: that run walks the rest and marks it.
      if (!walked) continue;
      marked = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(newsletters)
          .set({ status: 'sent', finishingUntil: null, updatedAt: at })
          .where(and(eq(newsletters.id, row.id), eq(newsletters.status, 'sending')))
          .returning({ id: newsletters.id });
        if (!updated) return false;
        await tx
          .update(campaigns)
          .set({
            status: sql`case when ${campaigns.status} = 'stopped' then 'stopped' else 'completed' end`,
            completedAt: at,
            updatedAt: at,
          })
          .where(eq(campaigns.id, row.campaignId));
        await foldCountSlots(tx, row.campaignId);
        return true;
      });
    } finally {
      // A run that failed hands the send back at once, so the next run need not wait out the lease. If
      // even that fails (the database is gone) the lease runs out by itself: nothing to report twice.
      if (!marked) await releaseFinish(db, lease).catch(() => {});
    }
    if (!marked) continue;
    finished++;
    // The sender's per-day figures and analytics roll-ups were kept in one slot per writing backend
    // (migrations *_outbox_user_daily_slots, *_analytics_slots): back to one row a key, each in a
    // transaction of its own so it holds none of the send's rows while it waits for a worker still
    // recording another send of the same user.
    await db.execute(sql`SELECT outbox_user_daily_fold(${row.userId})`);
    await db.execute(sql`SELECT analytics_fold(${row.userId})`);
  }
  return finished;
}

interface FinishLease {
  newsletterId: string;
  /** The lease's end as this run wrote it: it still holds the send while the row says the same. */
  until: Date;
}

/**
 * The send for this run, if no other run holds it: a conditional UPDATE, so of runs that try at once one
 * wins (as the stalled-send takeover claims by moving campaigns.updated_at). Advisory locks would not do:
 * the walk is many statements on whichever pooled connection is free, and a lock outlives a run that
 * dies only as long as its connection does.
 */
async function claimFinish(db: Database, newsletterId: string): Promise<FinishLease | null> {
  const at = now();
  const until = new Date(at.getTime() + FINISH_LEASE_MS);
  const [mine] = await db
    .update(newsletters)
    .set({ finishingUntil: until })
    .where(
      and(
        eq(newsletters.id, newsletterId),
        eq(newsletters.status, 'sending'),
        or(isNull(newsletters.finishingUntil), lt(newsletters.finishingUntil, at)),
      ),
    )
    .returning({ id: newsletters.id });
  return mine ? { newsletterId, until } : null;
}

/**
 * Between batches: whether this run still holds the send, its lease extended once a quarter of it has
 * passed (a walk of millions of contacts on a loaded server can outlast one lease). False when another
 * run took the send over after this one's lease ran out: this one stops rather than walk behind it.
 */
async function keepFinish(db: Database, lease: FinishLease): Promise<boolean> {
  const at = now();
  if (at.getTime() < lease.until.getTime() - FINISH_LEASE_MS + FINISH_RENEW_AFTER_MS) return true;
  const until = new Date(at.getTime() + FINISH_LEASE_MS);
  const [kept] = await db
    .update(newsletters)
    .set({ finishingUntil: until })
    .where(and(eq(newsletters.id, lease.newsletterId), eq(newsletters.finishingUntil, lease.until)))
    .returning({ id: newsletters.id });
  if (!kept) return false;
  lease.until = until;
  return true;
}

async function releaseFinish(db: Database, lease: FinishLease): Promise<void> {
  await db
    .update(newsletters)
    .set({ finishingUntil: null })
    .where(and(eq(newsletters.id, lease.newsletterId), eq(newsletters.finishingUntil, lease.until)));
}

/**
 * The campaign's 'active' contacts → 'completed', `batch` addresses a statement, in the order of the
 * campaign's (campaign_id, lower(email)) key so each statement starts where the last stopped (no rescan
 * of the rows already done). Two runs finishing the same send (one whose lease ran out and the one that
 * took it over) lock the rows in the same order, and the second finds them completed.
 *
 * Each statement updates the rows it has just read by their ctid: no probe of the primary key per row
 * (bench/newsletter-finish at 1,000,000: PostgreSQL CPU 15-16 s by id, ~12 s by ctid). A contact that a
 * reply, an unsubscribe or a worker changes meanwhile has a new ctid, and the match may miss it; so one
 * read of the campaign then counts the contacts still 'active', and only if there are any does a second
 * walk update by id, which waits for such a row and checks its status again.
 */
async function completeActiveContacts(
  db: Database,
  campaignId: string,
  at: Date,
  batch: number,
  keep: () => Promise<boolean>,
): Promise<boolean> {
  const stamp = at.toISOString();
  if (!(await walkActiveContacts(db, campaignId, stamp, batch, 'ctid', keep))) return false;
  // A count over the campaign rather than EXISTS: with LIMIT 1 the planner, whose statistics still see
  // every contact active, would scan the whole table hoping for an early match.
  const left: unknown = await db.execute(sql`
    SELECT count(*)::int AS n FROM campaign_contacts
    WHERE campaign_id = ${campaignId}::uuid AND status = 'active'`);
  const [remaining] = (left as { rows: { n: number }[] }).rows;
  if (remaining && remaining.n > 0) return walkActiveContacts(db, campaignId, stamp, batch, 'id', keep);
  return true;
}

async function walkActiveContacts(
  db: Database,
  campaignId: string,
  stamp: string,
  batch: number,
  match: 'ctid' | 'id',
  keep: () => Promise<boolean>,
): Promise<boolean> {
  let after: string | null = null;
  for (;;) {
    const result: unknown = await db.execute(sql`
      WITH batch AS MATERIALIZED (
        SELECT id, ctid AS row_at, lower(email) AS key FROM campaign_contacts
        WHERE campaign_id = ${campaignId}::uuid
          ${after === null ? sql`` : sql`AND lower(email) > ${after}`}
        ORDER BY lower(email)
        LIMIT ${batch}
      ), completed AS (
        UPDATE campaign_contacts c
        SET status = 'completed', status_changed_at = ${stamp}::timestamptz, updated_at = ${stamp}::timestamptz
        ${
          match === 'ctid'
            ? sql`FROM batch b WHERE c.ctid = b.row_at AND c.id = b.id`
            : sql`WHERE c.id IN (SELECT id FROM batch)`
        }
          AND c.status = 'active'
      )
      SELECT count(*)::int AS n, max(key) AS last FROM batch`);
    const [page] = (result as { rows: { n: number; last: string | null }[] }).rows;
    if (!page || page.n < batch || page.last === null) return true;
    if (!(await keep())) return false;
    after = page.last;
  }
}

/**
 * The send's counters were kept in one slot per writing backend (schema/newsletter-report.ts), so that
 * its workers never waited on each other; once it is over they go back to one row per figure (slot 0),
 * and a newsletter's report reads as few rows as before however many connections took part.
 */
async function foldCountSlots(db: Database, campaignId: string): Promise<void> {
  await db.execute(sql`
    WITH moved AS (
      DELETE FROM newsletter_report_counts
      WHERE campaign_id = ${campaignId} AND slot <> 0
      RETURNING metric, key, url, n
    )
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, url, n)
    SELECT ${campaignId}::uuid, metric, key, 0, max(url), sum(n) FROM moved GROUP BY metric, key
    ORDER BY metric, key
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE
      SET n = c.n + excluded.n, url = coalesce(c.url, excluded.url)`);
}

/**
 * A send paused for the user (the bounce or complaint protection, a suspension since lifted, a pause by
 * hand through the campaign routes) goes on: its campaign's resume (campaigns.service.ts resumeCampaign),
 * which refuses a suspended owner and releases the held messages in the same transaction. Another user's
 * newsletter answers 404 (getNewsletterRow).
 */
export async function resumeNewsletterSend(options: {
  db: Database;
  queue?: Queue | null;
  appUrl: string;
  dispatchConcurrency?: number;
  actor: CampaignActor;
  userId: string;
  id: string;
}): Promise<Newsletter> {
  const { db, userId } = options;
  const row = await getNewsletterRow({ db, userId, id: options.id });
  if (row.status !== 'sending' || !row.campaignId)
    throw new AppError('conflict', NEWSLETTER_MESSAGES.notPaused);
  await asNewsletterConflict(
    resumeCampaign({ db, campaignId: row.campaignId, actor: options.actor, userId }),
    CAMPAIGN_MESSAGES.cannotResume,
    NEWSLETTER_MESSAGES.notPaused,
  );
  // The released messages are due as they were: wake the senders rather than wait for their next round.
  if (options.queue) {
    await wakeDispatchers({ queue: options.queue, parallelism: options.dispatchConcurrency ?? 2 });
  }
  return newsletterDto(db, options.appUrl, await getNewsletterRow({ db, userId, id: row.id }));
}

/**
 * Ends a send for good: its campaign's stop (campaigns.service.ts stopCampaign) cancels what is still
 * queued, and the finish marks the newsletter 'sent' with what went out (its campaign stays 'stopped').
 */
export async function stopNewsletterSend(options: {
  db: Database;
  queue?: Queue | null;
  appUrl: string;
  actor: CampaignActor;
  userId: string;
  id: string;
}): Promise<Newsletter> {
  const { db, userId } = options;
  const row = await getNewsletterRow({ db, userId, id: options.id });
  if (row.status !== 'sending' || !row.campaignId) {
    throw new AppError('conflict', NEWSLETTER_MESSAGES.notStoppable);
  }
  await asNewsletterConflict(
    stopCampaign({ db, campaignId: row.campaignId, actor: options.actor, userId }),
    CAMPAIGN_MESSAGES.cannotStop,
    NEWSLETTER_MESSAGES.notStoppable,
  );
  // Marked 'sent' now rather than at the schedule's next minute (send-scheduled-newsletters.job.ts).
  if (options.queue) await options.queue.send(FINISH_NEWSLETTER_SENDS_JOB, {}, { retryLimit: 0 });
  return newsletterDto(db, options.appUrl, await getNewsletterRow({ db, userId, id: row.id }));
}

/** The campaign's refusal in the newsletter's words (it has no campaign for the user). */
async function asNewsletterConflict<T>(
  run: Promise<T>,
  campaignMessage: string,
  message: string,
): Promise<T> {
  try {
    return await run;
  } catch (error) {
    if (error instanceof AppError && error.message === campaignMessage)
      throw new AppError('conflict', message);
    throw error;
  }
}
