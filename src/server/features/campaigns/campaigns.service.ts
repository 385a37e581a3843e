import type { Database } from '@server/db/client';
import {
  campaignContacts,
  campaignSenderAccounts,
  campaignSteps,
  campaignStepVariants,
  campaigns,
  emailEvents,
  newsletters,
  outboxMessages,
} from '@server/db/schema/index';
import { now, startOfUtcMonth } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import {
  CAMPAIGN_MESSAGES,
  type Campaign,
  type CampaignListItem,
  type CampaignUpdateInput,
  type campaignSettingsSchema,
  type campaignUpdateSchema,
  DEFAULT_VERIFICATION_SKIP,
} from '@shared/campaigns';
import type { CampaignStatus } from '@shared/sending';
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { assertOwnLists } from '../lists/lists.service';
import { assertWithinLimit } from '../plans/plan-limits.service';
import { segmentFilters } from '../segments/segments.service';
import { assertOwnSenderAccounts } from '../sender-accounts/sender-accounts.service';
import {
  holdCampaignMessages,
  holdPausedMessagesOfUser,
  releaseCampaignMessages,
} from '../sending/outbox.service';
import { loadSteps } from './steps.service';

/*
 * Campaigns: settings, lifecycle (draft → scheduled/active ⇄ paused → completed | stopped), archive,
 * duplicate. Launching is in launch.service.ts and the sequence's progress in sequencing.ts.
 */

export type CampaignRow = typeof campaigns.$inferSelect;
type SettingsInput = import('zod').infer<typeof campaignSettingsSchema>;
type UpdateInput = import('zod').infer<typeof campaignUpdateSchema>;

/** Who acts: the owner, or a super admin through the admin routes (audited). */
export interface CampaignActor {
  id: string;
  email?: string;
  role?: string | null;
  ipAddress?: string | null;
}

/** Statuses in which the sequence is not running, so settings and steps may change. */
const EDITABLE: readonly CampaignStatus[] = ['draft', 'scheduled', 'paused'];
const ENDED: readonly CampaignStatus[] = ['completed', 'stopped'];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function senderIdsOf(db: Database, campaignIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (campaignIds.length === 0) return map;
  const rows = await db
    .select()
    .from(campaignSenderAccounts)
    .where(inArray(campaignSenderAccounts.campaignId, campaignIds));
  for (const row of rows) map.set(row.campaignId, [...(map.get(row.campaignId) ?? []), row.senderAccountId]);
  return map;
}

async function contactCountsOf(db: Database, campaignIds: string[]): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  if (campaignIds.length === 0) return map;
  const rows = await db
    .select({ campaignId: campaignContacts.campaignId, n: count() })
    .from(campaignContacts)
    .where(inArray(campaignContacts.campaignId, campaignIds))
    .groupBy(campaignContacts.campaignId);
  for (const row of rows) map.set(row.campaignId, Number(row.n));
  return map;
}

function toBaseDto(row: CampaignRow, senderAccountIds: string[], contactCount: number) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    status: row.status,
    archivedAt: iso(row.archivedAt),
    scheduledAt: iso(row.scheduledAt),
    startedAt: iso(row.startedAt),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    audience: {
      listIds: row.audience?.listIds ?? [],
      segmentIds: row.audience?.segmentIds ?? [],
      leadFilters: row.audience?.leadFilters ?? [],
      skipUnverified: row.audience?.skipUnverified ?? DEFAULT_VERIFICATION_SKIP,
    },
    senderAccountIds,
    windowStartMinute: row.windowStartMinute,
    windowEndMinute: row.windowEndMinute,
    sendDays: row.sendDays,
    timezoneMode: row.timezoneMode,
    timeZone: row.timeZone,
    gapMinSeconds: row.gapMinSeconds,
    gapMaxSeconds: row.gapMaxSeconds,
    dailyCap: row.dailyCap,
    domainPacePerHour: row.domainPacePerHour,
    trackOpens: row.trackOpens,
    trackClicks: row.trackClicks,
    bodyFormat: row.bodyFormat,
    trackingDomain: row.trackingDomain,
    bouncePausePercent: row.bouncePausePercent,
    complaintPausePercent: row.complaintPausePercent,
    pausedReason: row.pausedReason,
    contactCount,
  };
}

export async function toCampaignDto(db: Database, row: CampaignRow): Promise<Campaign> {
  const [senders, counts, steps] = await Promise.all([
    senderIdsOf(db, [row.id]),
    contactCountsOf(db, [row.id]),
    loadSteps({ db, campaignId: row.id }),
  ]);
  return { ...toBaseDto(row, senders.get(row.id) ?? [], counts.get(row.id) ?? 0), steps };
}

/** The user's own campaign (any kind); another user's id answers 404. */
export async function getCampaignRow(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<CampaignRow> {
  const [row] = await options.db
    .select()
    .from(campaigns)
    .where(
      and(eq(campaigns.id, options.id), eq(campaigns.userId, options.userId), isNull(campaigns.deletedAt)),
    )
    .limit(1);
  if (!row) throw notFound(CAMPAIGN_MESSAGES.notFound);
  return row;
}

/** Any user's campaign (admin routes and jobs); one in the recycle bin is not found. */
export async function getCampaignRowById(options: { db: Database; id: string }): Promise<CampaignRow> {
  const [row] = await options.db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, options.id), isNull(campaigns.deletedAt)))
    .limit(1);
  if (!row) throw notFound(CAMPAIGN_MESSAGES.notFound);
  return row;
}

export async function getCampaignForUser(options: {
  db: Database;
  userId: string;
  id: string;
}): Promise<Campaign> {
  return toCampaignDto(options.db, await getCampaignRow(options));
}

/** Campaign rows with steps, counts and events, for lists (GET /api/campaigns and /api/user/campaigns). */
export async function listCampaigns(options: {
  db: Database;
  userId: string;
  status?: CampaignStatus;
  archived?: boolean;
}): Promise<CampaignListItem[]> {
  const { db } = options;
  const conditions: SQL[] = [
    eq(campaigns.userId, options.userId),
    eq(campaigns.kind, 'campaign'),
    isNull(campaigns.deletedAt),
  ];
  if (options.status) conditions.push(eq(campaigns.status, options.status));
  if (options.archived !== undefined)
    conditions.push(options.archived ? isNotNull(campaigns.archivedAt) : isNull(campaigns.archivedAt));
  const rows = await db
    .select()
    .from(campaigns)
    .where(and(...conditions))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id));
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [senders, contactsByCampaign, stepCounts, eventCounts] = await Promise.all([
    senderIdsOf(db, ids),
    contactCountsOf(db, ids),
    db
      .select({ campaignId: campaignSteps.campaignId, n: count() })
      .from(campaignSteps)
      .where(inArray(campaignSteps.campaignId, ids))
      .groupBy(campaignSteps.campaignId),
    db
      .select({
        campaignId: emailEvents.campaignId,
        sent: sql<number>`count(*) filter (where ${emailEvents.type} = 'sent')::int`,
        opened: sql<number>`count(distinct ${emailEvents.campaignContactId}) filter (where ${emailEvents.type} = 'opened' and not ${emailEvents.machine})::int`,
        replied: sql<number>`count(distinct ${emailEvents.campaignContactId}) filter (where ${emailEvents.type} = 'replied')::int`,
      })
      .from(emailEvents)
      .where(
        and(
          eq(emailEvents.userId, options.userId),
          inArray(emailEvents.campaignId, ids),
          inArray(emailEvents.type, ['sent', 'opened', 'replied']),
        ),
      )
      .groupBy(emailEvents.campaignId),
  ]);
  const steps = new Map(stepCounts.map((r) => [r.campaignId, Number(r.n)]));
  const events = new Map(eventCounts.map((r) => [r.campaignId!, r]));
  return rows.map((row) => {
    const e = events.get(row.id);
    return {
      ...toBaseDto(row, senders.get(row.id) ?? [], contactsByCampaign.get(row.id) ?? 0),
      stepCount: steps.get(row.id) ?? 0,
      sent: Number(e?.sent ?? 0),
      opened: Number(e?.opened ?? 0),
      replied: Number(e?.replied ?? 0),
    };
  });
}

/** Campaigns created this calendar month count against the plan's campaign limit; super admins have none. */
export async function assertCampaignAllowance(options: { db: Database; actor: CampaignActor }) {
  if (options.actor.role === 'super_admin') return;
  const [row] = await options.db
    .select({ n: count() })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.userId, options.actor.id),
        eq(campaigns.kind, 'campaign'),
        // A deleted draft frees its place, as it did when deleting was for good.
        isNull(campaigns.deletedAt),
        gte(campaigns.createdAt, startOfUtcMonth(now())),
      ),
    );
  await assertWithinLimit({
    db: options.db,
    userId: options.actor.id,
    limit: 'campaigns',
    used: Number(row?.n ?? 0),
  });
}

/** Another account's list or sender account answers 404 (with the field), before anything is written. */
async function assertOwnTargets(
  db: Database,
  userId: string,
  targets: {
    listIds?: readonly string[];
    segmentIds?: readonly string[];
    senderAccountIds?: readonly string[];
  },
) {
  await assertOwnLists({
    db,
    userId,
    ids: targets.listIds ?? [],
    path: 'audience.listIds',
    message: CAMPAIGN_MESSAGES.listNotFound,
  });
  // The segments are the user's, each narrowing one of the chosen lists.
  await segmentFilters({ db, userId, listIds: targets.listIds ?? [], segmentIds: targets.segmentIds ?? [] });
  await assertOwnSenderAccounts({
    db,
    userId,
    ids: targets.senderAccountIds ?? [],
    path: 'senderAccountIds',
    message: CAMPAIGN_MESSAGES.senderNotFound,
  });
}

async function setSenders(db: Database, campaignId: string, ids: readonly string[]) {
  await db.delete(campaignSenderAccounts).where(eq(campaignSenderAccounts.campaignId, campaignId));
  const unique = [...new Set(ids)];
  if (unique.length > 0)
    await db
      .insert(campaignSenderAccounts)
      .values(unique.map((senderAccountId) => ({ campaignId, senderAccountId })));
}

function settingsColumns(input: Partial<SettingsInput>): Partial<typeof campaigns.$inferInsert> {
  const { senderAccountIds: _ignored, scheduledAt, ...rest } = input;
  return {
    ...rest,
    ...(scheduledAt !== undefined ? { scheduledAt: scheduledAt ? new Date(scheduledAt) : null } : {}),
  };
}

export async function createCampaign(options: {
  db: Database;
  actor: CampaignActor;
  input: SettingsInput;
}): Promise<Campaign> {
  const { db, actor, input } = options;
  await assertOwnTargets(db, actor.id, {
    listIds: input.audience.listIds,
    segmentIds: input.audience.segmentIds,
    senderAccountIds: input.senderAccountIds,
  });
  await assertCampaignAllowance({ db, actor });
  const at = now();
  const row = await db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const [created] = await tx
      .insert(campaigns)
      .values({
        userId: actor.id,
        kind: 'campaign',
        ...settingsColumns(input),
        name: input.name,
        status: 'draft',
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await setSenders(tx, created!.id, input.senderAccountIds);
    return created!;
  });
  return toCampaignDto(db, row);
}

export async function updateCampaign(options: {
  db: Database;
  userId: string;
  id: string;
  input: UpdateInput | CampaignUpdateInput;
}): Promise<Campaign> {
  const { db } = options;
  const input = options.input as UpdateInput;
  const row = await getCampaignRow(options);
  const changesOtherThanName = Object.keys(input).some((k) => k !== 'name');
  if (changesOtherThanName && !EDITABLE.includes(row.status)) {
    throw new AppError(
      'conflict',
      ENDED.includes(row.status) ? CAMPAIGN_MESSAGES.notEditable : CAMPAIGN_MESSAGES.pauseToEdit,
    );
  }
  const gapMin = input.gapMinSeconds ?? row.gapMinSeconds;
  const gapMax = input.gapMaxSeconds ?? row.gapMaxSeconds;
  if (gapMax < gapMin) {
    const message = 'The longest gap must be at least the shortest';
    throw new AppError('validation', message, { errors: [{ path: 'gapMaxSeconds', message }] });
  }
  if (input.audience) {
    // The audience is copied into the campaign at launch; after that it is fixed.
    if (row.status !== 'draft' && row.status !== 'scheduled')
      throw new AppError('conflict', 'The audience cannot change once the campaign has started');
  }
  await assertOwnTargets(db, options.userId, {
    listIds: input.audience?.listIds,
    segmentIds: input.audience?.segmentIds,
    senderAccountIds: input.senderAccountIds,
  });
  const updated = await db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const [saved] = await tx
      .update(campaigns)
      .set({ ...settingsColumns(input), updatedAt: now() })
      .where(eq(campaigns.id, row.id))
      .returning();
    if (input.senderAccountIds) await setSenders(tx, row.id, input.senderAccountIds);
    return saved!;
  });
  return toCampaignDto(db, updated);
}

/** A draft copy with the same settings, steps and variants, and no contacts. */
export async function duplicateCampaign(options: {
  db: Database;
  actor: CampaignActor;
  id: string;
}): Promise<Campaign> {
  const { db, actor } = options;
  const source = await getCampaignRow({ db, userId: actor.id, id: options.id });
  if (source.kind !== 'campaign') throw notFound(CAMPAIGN_MESSAGES.notFound);
  await assertCampaignAllowance({ db, actor });
  const at = now();
  const copy = await db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const {
      id: _id,
      status: _status,
      startedAt: _startedAt,
      completedAt: _completedAt,
      archivedAt: _archivedAt,
      createdAt: _createdAt,
      updatedAt: _updatedAt,
      pausedReason: _pausedReason,
      name,
      ...settings
    } = source;
    const copyName = `${name} (copy)`.slice(0, 120);
    const [created] = await tx
      .insert(campaigns)
      .values({ ...settings, name: copyName, status: 'draft', createdAt: at, updatedAt: at })
      .returning();
    const senders = (await senderIdsOf(tx, [source.id])).get(source.id) ?? [];
    await setSenders(tx, created!.id, senders);
    const steps = await tx
      .select()
      .from(campaignSteps)
      .where(eq(campaignSteps.campaignId, source.id))
      .orderBy(asc(campaignSteps.position));
    for (const step of steps) {
      const {
        id: stepId,
        campaignId: _c,
        createdAt: _a,
        updatedAt: _b,
        winnerVariantKey: _w,
        ...rest
      } = step;
      const [newStep] = await tx
        .insert(campaignSteps)
        .values({ ...rest, campaignId: created!.id, createdAt: at, updatedAt: at })
        .returning({ id: campaignSteps.id });
      const variants = await tx
        .select()
        .from(campaignStepVariants)
        .where(eq(campaignStepVariants.stepId, stepId));
      if (variants.length > 0)
        await tx.insert(campaignStepVariants).values(
          variants.map(({ id: _v, stepId: _s, campaignId: _cc, createdAt: _x, updatedAt: _y, ...v }) => ({
            ...v,
            stepId: newStep!.id,
            campaignId: created!.id,
            createdAt: at,
            updatedAt: at,
          })),
        );
    }
    return created!;
  });
  return toCampaignDto(db, copy);
}

export async function archiveCampaign(options: {
  db: Database;
  userId: string;
  id: string;
  archived: boolean;
}): Promise<Campaign> {
  const row = await getCampaignRow(options);
  if (options.archived && (row.status === 'active' || row.status === 'scheduled'))
    throw new AppError('conflict', CAMPAIGN_MESSAGES.archiveActive);
  const at = now();
  const [saved] = await options.db
    .update(campaigns)
    .set({ archivedAt: options.archived ? (row.archivedAt ?? at) : null, updatedAt: at })
    .where(eq(campaigns.id, row.id))
    .returning();
  return toCampaignDto(options.db, saved!);
}

/**
 * Moves a draft to the admin recycle bin: gone for its owner at once (404, out of lists and counts),
 * restorable by a super admin for 30 days. A draft never sent, so nothing in the engine refers to it;
 * its test runs still queued are stopped here so a deleted draft sends nothing.
 */
export async function deleteCampaign(options: { db: Database; userId: string; id: string }): Promise<void> {
  const row = await getCampaignRow(options);
  if (row.status !== 'draft' || row.kind !== 'campaign')
    throw new AppError('conflict', CAMPAIGN_MESSAGES.onlyDraftsDeleted);
  const at = now();
  await options.db.transaction(async (tx) => {
    const [deleted] = await tx
      .update(campaigns)
      .set({ deletedAt: at, updatedAt: at })
      .where(and(eq(campaigns.id, row.id), eq(campaigns.status, 'draft'), isNull(campaigns.deletedAt)))
      .returning({ id: campaigns.id });
    if (!deleted) throw notFound(CAMPAIGN_MESSAGES.notFound);
    await tx.execute(sql`
      UPDATE campaign_test_run_messages m SET state = 'failed', error = 'The campaign was deleted.',
        updated_at = ${at.toISOString()}::timestamptz
      FROM campaign_test_runs r
      WHERE r.id = m.run_id AND r.campaign_id = ${row.id} AND m.state = 'queued'`);
  });
}

/** A deleted draft, for the recycle bin; null when it is not there. */
export async function findDeletedCampaign(options: {
  db: Database;
  id: string;
}): Promise<{ id: string; userId: string; name: string } | null> {
  const [row] = await options.db
    .select({ id: campaigns.id, userId: campaigns.userId, name: campaigns.name })
    .from(campaigns)
    .where(and(eq(campaigns.id, options.id), isNotNull(campaigns.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** Back to its owner's drafts, as it was. False when it is not in the recycle bin. */
export async function restoreDeletedCampaign(options: { db: Database; id: string }): Promise<boolean> {
  const restored = await options.db
    .update(campaigns)
    .set({ deletedAt: null, updatedAt: now() })
    .where(and(eq(campaigns.id, options.id), isNotNull(campaigns.deletedAt)))
    .returning({ id: campaigns.id });
  return restored.length > 0;
}

/** Deletes a campaign in the recycle bin for good (steps, variants and test runs cascade). */
export async function purgeDeletedCampaign(options: { db: Database; id: string }): Promise<boolean> {
  const purged = await options.db
    .delete(campaigns)
    .where(and(eq(campaigns.id, options.id), isNotNull(campaigns.deletedAt)))
    .returning({ id: campaigns.id });
  return purged.length > 0;
}

/** The purge job's part: campaigns deleted before `cutoff`, for good. */
export async function purgeCampaignsDeletedBefore(options: { db: Database; cutoff: Date }): Promise<number> {
  const purged = await options.db
    .delete(campaigns)
    .where(and(isNotNull(campaigns.deletedAt), lt(campaigns.deletedAt, options.cutoff)))
    .returning({ id: campaigns.id });
  return purged.length;
}

// ---------------------------------------------------------------------------------------------------
// Pause, resume, stop: the owner's routes and the admin twins share these.

interface LifecycleOptions {
  db: Database;
  campaignId: string;
  actor: CampaignActor;
  /** Only this owner's campaign (the user routes); admins leave it out. */
  userId?: string;
  /** Write an audit log entry (the admin twins). */
  audit?: boolean;
}

async function lifecycleRow(options: LifecycleOptions): Promise<CampaignRow> {
  return options.userId
    ? getCampaignRow({ db: options.db, userId: options.userId, id: options.campaignId })
    : getCampaignRowById({ db: options.db, id: options.campaignId });
}

async function audit(options: LifecycleOptions, action: string, row: CampaignRow) {
  if (!options.audit) return;
  const actor: AuditActor = {
    id: options.actor.id,
    email: options.actor.email ?? '',
    ipAddress: options.actor.ipAddress ?? null,
  };
  await recordAuditEntry({
    db: options.db,
    actor,
    action,
    targetType: 'campaign',
    targetId: row.id,
    details: { name: row.name, ownerId: row.userId },
  });
}

/**
 * Stops the sequence for now; queued messages stay and wait, held off the dispatcher's way until the
 * campaign resumes (outbox.service.ts holdCampaignMessages), in the same transaction as the status.
 */
export async function pauseCampaign(options: LifecycleOptions): Promise<Campaign> {
  const row = await lifecycleRow(options);
  if (row.status !== 'active') throw new AppError('conflict', CAMPAIGN_MESSAGES.cannotPause);
  const saved = await options.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(campaigns)
      .set({ status: 'paused', pausedReason: null, updatedAt: now() })
      .where(and(eq(campaigns.id, row.id), eq(campaigns.status, 'active')))
      .returning();
    if (updated) await holdCampaignMessages(tx as unknown as Database, row.id);
    return updated;
  });
  if (!saved) throw new AppError('conflict', CAMPAIGN_MESSAGES.cannotPause);
  await audit(options, 'campaign.pause', row);
  return toCampaignDto(options.db, saved);
}

export async function resumeCampaign(options: LifecycleOptions): Promise<Campaign> {
  const row = await lifecycleRow(options);
  if (row.status !== 'paused') throw new AppError('conflict', CAMPAIGN_MESSAGES.cannotResume);
  const saved = await options.db.transaction(async (tx) => {
    // A suspended owner's campaign stays paused, whoever asks (a request in flight when the suspension
    // came, an admin): the share lock orders this with the suspension, which pauses what it finds active.
    if (await ownerSuspended(tx as unknown as Database, row.userId))
      throw new AppError('conflict', CAMPAIGN_MESSAGES.accountSuspended);
    const [updated] = await tx
      .update(campaigns)
      .set({ status: 'active', pausedReason: null, updatedAt: now() })
      .where(and(eq(campaigns.id, row.id), eq(campaigns.status, 'paused')))
      .returning();
    // After the status: a claim holding a stray message of this campaign (dispatch.ts holdsOf) has the
    // campaign share-locked, so this waits for it and then finds its message held.
    if (updated) await releaseCampaignMessages(tx as unknown as Database, row.id);
    return updated;
  });
  if (!saved) throw new AppError('conflict', CAMPAIGN_MESSAGES.cannotResume);
  await audit(options, 'campaign.resume', row);
  return toCampaignDto(options.db, saved);
}

/**
 * Whether the user is suspended, read with a share lock in the caller's transaction: a suspension (which
 * updates the user row first) waits for the caller to commit and then finds what it started, or the caller
 * waits for the suspension and reads it. Every path that makes a campaign active asks this.
 */
export async function ownerSuspended(tx: Database, userId: string): Promise<boolean> {
  const result = (await tx.execute(
    sql`SELECT banned FROM "user" WHERE id = ${userId} FOR SHARE`,
  )) as unknown as { rows: { banned: boolean | null }[] };
  return result.rows[0]?.banned === true;
}

export interface SuspendedSending {
  pausedCampaigns: number;
  heldMessages: number;
  unscheduledCampaigns: number;
  unscheduledNewsletters: number;
}

/**
 * A suspension's part in the sending, in its transaction (after the user row is marked banned): scheduled
 * campaigns and newsletters back to drafts (a start that raced this finds them so, or is found active
 * below), every active campaign of the user (newsletters and bulk emails being sent too) paused with the
 * reason, and their queued messages held off the dispatcher's way. One statement per table, whatever the
 * number of messages. Restoring the account leaves all of it so: the owner resumes or relaunches.
 */
export async function pauseSendingOfSuspendedUser(tx: Database, userId: string): Promise<SuspendedSending> {
  const at = now();
  const unscheduledNewsletters = await tx
    .update(newsletters)
    .set({ status: 'draft', scheduledAt: null, updatedAt: at })
    .where(and(eq(newsletters.userId, userId), eq(newsletters.status, 'scheduled')))
    .returning({ id: newsletters.id });
  const unscheduledCampaigns = await tx
    .update(campaigns)
    .set({ status: 'draft', updatedAt: at })
    .where(and(eq(campaigns.userId, userId), eq(campaigns.status, 'scheduled')))
    .returning({ id: campaigns.id });
  const paused = await tx
    .update(campaigns)
    .set({ status: 'paused', pausedReason: CAMPAIGN_MESSAGES.pausedBySuspension, updatedAt: at })
    .where(and(eq(campaigns.userId, userId), eq(campaigns.status, 'active')))
    .returning({ id: campaigns.id });
  const heldMessages = await holdPausedMessagesOfUser(tx, userId);
  // Test runs go on for days, to the user's own addresses through their accounts: ended too.
  await tx.execute(sql`
    UPDATE campaign_test_run_messages m SET state = 'failed', error = 'The account was suspended.',
      updated_at = ${at.toISOString()}::timestamptz
    FROM campaign_test_runs r
    WHERE r.id = m.run_id AND r.user_id = ${userId} AND m.state = 'queued'`);
  return {
    pausedCampaigns: paused.length,
    heldMessages,
    unscheduledCampaigns: unscheduledCampaigns.length,
    unscheduledNewsletters: unscheduledNewsletters.length,
  };
}

/** Ends the campaign for good: queued messages cancelled, contacts still in the sequence 'stopped'. */
// The dispatcher's composition hands this to the sending engine (a sent step schedules the next one).
export { scheduleNextSteps } from './next-step';

export async function stopCampaign(options: LifecycleOptions): Promise<Campaign> {
  const row = await lifecycleRow(options);
  if (row.status === 'completed' || row.status === 'stopped')
    throw new AppError('conflict', CAMPAIGN_MESSAGES.cannotStop);
  const at = now();
  const saved = await options.db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const [updated] = await tx
      .update(campaigns)
      .set({ status: 'stopped', completedAt: at, updatedAt: at })
      .where(
        and(eq(campaigns.id, row.id), inArray(campaigns.status, ['draft', 'scheduled', 'active', 'paused'])),
      )
      .returning();
    if (!updated) throw new AppError('conflict', CAMPAIGN_MESSAGES.cannotStop);
    await tx
      .update(outboxMessages)
      .set({ state: 'cancelled', held: false, updatedAt: at })
      .where(and(eq(outboxMessages.campaignId, row.id), eq(outboxMessages.state, 'queued')));
    await tx
      .update(campaignContacts)
      .set({ status: 'stopped', nextStepAt: null, statusChangedAt: at, updatedAt: at })
      .where(
        and(eq(campaignContacts.campaignId, row.id), inArray(campaignContacts.status, ['active', 'paused'])),
      );
    return updated;
  });
  await audit(options, 'campaign.stop', row);
  return toCampaignDto(options.db, saved);
}
