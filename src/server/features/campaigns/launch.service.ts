import type { Database } from '@server/db/client';
import { campaignContacts, campaigns, users } from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { CAMPAIGN_MESSAGES, type Campaign } from '@shared/campaigns';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { assertWithinLimit, getPlanLimits } from '../plans/plan-limits.service';
import { resolveRecipientTimeZone } from '../sending/sending.service';
import { resolveAudienceBatches } from './audience.service';
import {
  type CampaignActor,
  type CampaignRow,
  getCampaignRow,
  ownerSuspended,
  toCampaignDto,
} from './campaigns.service';
import { getPrelaunchReport } from './prelaunch';
import { advanceCampaignSequences } from './sequencing';

/*
 * Launch: the pre-launch blockers, the plan's recipient limit, then the audience copied into
 * campaign_contacts (one transaction) and step 1 queued. A launch with a future start is 'scheduled';
 * start-scheduled-campaigns copies the audience and starts it when the time comes.
 */

/** Contacts queued inside the launch request; the job takes the rest a moment later. */
const INLINE_CONTACTS = 1_000;
const INSERT_CHUNK = 1_000;

export interface LaunchContext {
  db: Database;
  queue: Queue | null;
  appUrl: string;
  log?: FastifyBaseLogger;
  dispatchConcurrency?: number;
}

async function recipientLimitOf(db: Database, actor: { id: string; role?: string | null }): Promise<number> {
  if (actor.role === 'super_admin') return Number.POSITIVE_INFINITY;
  const limits = await getPlanLimits({ db, userId: actor.id });
  return limits.recipients < 0 ? Number.POSITIVE_INFINITY : limits.recipients;
}

/**
 * Copies the audience into the campaign (de-duplicated, suppressed addresses left out, time zone resolved
 * per contact, custom fields kept) with step 1 due at `startAt`. Answers how many were added.
 */
async function copyAudience(
  tx: Database,
  campaign: CampaignRow,
  role: string | null | undefined,
  startAt: Date,
  limit: number,
): Promise<number> {
  let added = 0;
  const at = now();
  for await (const batch of resolveAudienceBatches({
    db: tx,
    userId: campaign.userId,
    role,
    audience: campaign.audience,
    limit: Number.isFinite(limit) ? limit : undefined,
  })) {
    for (let start = 0; start < batch.length; start += INSERT_CHUNK) {
      const rows = batch.slice(start, start + INSERT_CHUNK).map((c) => ({
        campaignId: campaign.id,
        userId: campaign.userId,
        email: c.email,
        firstName: c.firstName,
        lastName: c.lastName,
        company: c.company,
        countryCode: c.countryCode,
        city: c.city,
        timeZone: resolveRecipientTimeZone({ countryCode: c.countryCode, city: c.city }),
        fields: c.fields,
        listContactId: c.listContactId ?? null,
        directoryContactId: c.directoryContactId ?? null,
        status: 'active' as const,
        currentStep: 0,
        nextStepAt: startAt,
        createdAt: at,
        updatedAt: at,
      }));
      const inserted = await tx
        .insert(campaignContacts)
        .values(rows)
        .onConflictDoNothing()
        .returning({ id: campaignContacts.id });
      added += inserted.length;
    }
  }
  return added;
}

async function countRecipientsUpTo(
  db: Database,
  campaign: CampaignRow,
  role: string | null | undefined,
  cap: number,
): Promise<number> {
  let n = 0;
  for await (const batch of resolveAudienceBatches({
    db,
    userId: campaign.userId,
    role,
    audience: campaign.audience,
    limit: Number.isFinite(cap) ? cap + 1 : undefined,
  }))
    n += batch.length;
  return n;
}

/** Moves the campaign to active with its audience copied in, in one transaction. False if it was not `from`. */
async function start(
  ctx: LaunchContext,
  campaign: CampaignRow,
  role: string | null | undefined,
  from: 'draft' | 'scheduled',
): Promise<boolean> {
  const limit = await recipientLimitOf(ctx.db, { id: campaign.userId, role });
  const at = now();
  const started = await ctx.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    // A suspended owner's campaign does not start (campaigns.service.ts ownerSuspended).
    if (await ownerSuspended(tx, campaign.userId)) return false;
    const [row] = await tx
      .update(campaigns)
      .set({ status: 'active', startedAt: at, updatedAt: at })
      .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, from)))
      .returning();
    if (!row) return false;
    await copyAudience(tx, row, role, at, limit);
    return true;
  });
  if (!started) return false;
  await advanceCampaignSequences({
    db: ctx.db,
    queue: ctx.queue,
    appUrl: ctx.appUrl,
    log: ctx.log,
    campaignId: campaign.id,
    maxContacts: INLINE_CONTACTS,
    dispatchConcurrency: ctx.dispatchConcurrency,
  });
  // More due than the launch queued: the job carries on right away.
  await ctx.queue?.send('advance-campaign-sequences', { campaignId: campaign.id }, { retryLimit: 2 });
  return true;
}

export async function launchCampaign(
  ctx: LaunchContext & { actor: CampaignActor; id: string },
): Promise<Campaign> {
  const { db, actor } = ctx;
  const campaign = await getCampaignRow({ db, userId: actor.id, id: ctx.id });
  if (campaign.kind !== 'campaign' || campaign.status !== 'draft')
    throw new AppError('conflict', CAMPAIGN_MESSAGES.notLaunchable);
  const report = await getPrelaunchReport({
    db,
    userId: actor.id,
    campaignId: campaign.id,
    appUrl: ctx.appUrl,
    // Its blockers are all the launch reads; no spam score blocks, so SpamAssassin is not waited for.
    spamEngine: 'builtin',
  });
  if (report.blockers.length > 0)
    throw new AppError('unprocessable', CAMPAIGN_MESSAGES.fixBeforeLaunch, { errors: report.blockers });
  const limit = await recipientLimitOf(db, actor);
  const audienceSize = await countRecipientsUpTo(db, campaign, actor.role, limit);
  if (audienceSize === 0) {
    throw new AppError('unprocessable', CAMPAIGN_MESSAGES.fixBeforeLaunch, {
      errors: [{ code: 'empty_audience', message: CAMPAIGN_MESSAGES.emptyAudience }],
    });
  }
  if (actor.role !== 'super_admin')
    await assertWithinLimit({ db, userId: actor.id, limit: 'recipients', used: 0, adding: audienceSize });

  const at = now();
  if (campaign.scheduledAt && campaign.scheduledAt.getTime() > at.getTime()) {
    const [row] = await db
      .update(campaigns)
      .set({ status: 'scheduled', updatedAt: at })
      .where(and(eq(campaigns.id, campaign.id), eq(campaigns.status, 'draft')))
      .returning();
    if (!row) throw new AppError('conflict', CAMPAIGN_MESSAGES.notLaunchable);
    return toCampaignDto(db, row);
  }
  if (!(await start(ctx, campaign, actor.role, 'draft')))
    throw new AppError('conflict', CAMPAIGN_MESSAGES.notLaunchable);
  return toCampaignDto(db, (await getCampaignRow({ db, userId: actor.id, id: campaign.id }))!);
}

/** Job start-scheduled-campaigns: scheduled campaigns whose start time has come begin sending. */
export async function startScheduledCampaigns(
  ctx: LaunchContext & { onlyUserId?: string },
): Promise<string[]> {
  const at = now();
  const due = await ctx.db
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.status, 'scheduled'),
        eq(campaigns.kind, 'campaign'),
        sql`coalesce(${campaigns.scheduledAt}, ${at.toISOString()}::timestamptz) <= ${at.toISOString()}::timestamptz`,
        sql`NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = ${campaigns.userId} AND u.banned)`,
        ...(ctx.onlyUserId ? [eq(campaigns.userId, ctx.onlyUserId)] : []),
      ),
    );
  const started: string[] = [];
  for (const campaign of due) {
    try {
      const [owner] = await ctx.db
        .select({ role: users.role })
        .from(users)
        .where(eq(users.id, campaign.userId))
        .limit(1);
      if (await start(ctx, campaign, owner?.role ?? null, 'scheduled')) started.push(campaign.id);
    } catch (error) {
      ctx.log?.error({ err: error, campaignId: campaign.id }, 'scheduled campaign could not start');
    }
  }
  return started;
}
