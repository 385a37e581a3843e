import type { Database } from '@server/db/client';
import { campaignContacts, campaignSteps, campaignStepVariants, campaigns } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import {
  CAMPAIGN_MESSAGES,
  type CampaignStep,
  MAX_STEPS,
  type stepInputSchema,
  THREAD_REPLY,
  variantsMissingFirstSubject,
} from '@shared/campaigns';
import { and, asc, count, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';

/*
 * A campaign's steps and their A/B variants. Steps change only while the sequence is not running
 * (draft, scheduled, paused); positions stay 1..n without gaps. The first step always has a subject
 * (a later one may leave it empty to reply in the thread: THREAD_REPLY), whatever is saved, deleted or
 * reordered.
 */

type StepInput = z.infer<typeof stepInputSchema>;
type StepRow = typeof campaignSteps.$inferSelect;
type VariantRow = typeof campaignStepVariants.$inferSelect;
type CampaignRow = typeof campaigns.$inferSelect;

export function toStepDto(step: StepRow, variants: VariantRow[]): CampaignStep {
  return {
    id: step.id,
    position: step.position,
    delayDays: step.delayDays,
    delayHours: step.delayHours,
    businessDays: step.businessDays,
    condition: step.condition,
    winnerRule:
      step.winnerMetric && step.winnerAfterSends
        ? { metric: step.winnerMetric, afterSends: step.winnerAfterSends }
        : null,
    winnerVariantKey: step.winnerVariantKey,
    variants: variants
      .filter((v) => v.stepId === step.id)
      .sort((a, b) => a.key.localeCompare(b.key))
      .map((v) => ({
        id: v.id,
        key: v.key,
        subject: v.subject,
        bodyHtml: v.bodyHtml,
        splitPercent: v.splitPercent,
      })),
  };
}

/** The campaign's steps in order, with their variants (no owner check: callers have the campaign). */
export async function loadSteps(options: { db: Database; campaignId: string }): Promise<CampaignStep[]> {
  const steps = await options.db
    .select()
    .from(campaignSteps)
    .where(eq(campaignSteps.campaignId, options.campaignId))
    .orderBy(asc(campaignSteps.position));
  if (steps.length === 0) return [];
  const variants = await options.db
    .select()
    .from(campaignStepVariants)
    .where(eq(campaignStepVariants.campaignId, options.campaignId));
  return steps.map((s) => toStepDto(s, variants));
}

async function ownCampaign(db: Database, userId: string, campaignId: string): Promise<CampaignRow> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.id, campaignId),
        eq(campaigns.userId, userId),
        eq(campaigns.kind, 'campaign'),
        isNull(campaigns.deletedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound(CAMPAIGN_MESSAGES.notFound);
  return row;
}

function assertStepsEditable(campaign: CampaignRow) {
  if (campaign.status === 'active') throw new AppError('conflict', CAMPAIGN_MESSAGES.pauseToEditSteps);
  if (campaign.status === 'completed' || campaign.status === 'stopped')
    throw new AppError('conflict', CAMPAIGN_MESSAGES.stepsNotEditable);
}

async function stepRow(db: Database, campaignId: string, stepId: string): Promise<StepRow> {
  const [row] = await db
    .select()
    .from(campaignSteps)
    .where(and(eq(campaignSteps.id, stepId), eq(campaignSteps.campaignId, campaignId)))
    .limit(1);
  if (!row) throw notFound(CAMPAIGN_MESSAGES.stepNotFound);
  return row;
}

async function stepDto(db: Database, step: StepRow): Promise<CampaignStep> {
  const variants = await db
    .select()
    .from(campaignStepVariants)
    .where(eq(campaignStepVariants.stepId, step.id));
  return toStepDto(step, variants);
}

function stepColumns(input: StepInput) {
  return {
    delayDays: input.delayDays,
    delayHours: input.delayHours,
    businessDays: input.businessDays,
    condition: input.condition,
    winnerMetric: input.winnerRule?.metric ?? null,
    winnerAfterSends: input.winnerRule?.afterSends ?? null,
  };
}

async function writeVariants(db: Database, campaignId: string, stepId: string, input: StepInput, at: Date) {
  await db.delete(campaignStepVariants).where(eq(campaignStepVariants.stepId, stepId));
  await db.insert(campaignStepVariants).values(
    input.variants.map((v) => ({
      stepId,
      campaignId,
      key: v.key,
      subject: v.subject,
      bodyHtml: v.bodyHtml,
      splitPercent: v.splitPercent,
      createdAt: at,
      updatedAt: at,
    })),
  );
}

/** Refuses a first step without a subject, on the fields of the variants at fault. */
function assertFirstStepSubjects(input: StepInput, isFirstStep: boolean): void {
  const missing = variantsMissingFirstSubject(input.variants, isFirstStep);
  if (missing.length === 0) return;
  throw new AppError('validation', THREAD_REPLY.firstStepNeedsSubject, {
    errors: missing.map((index) => ({
      path: `variants.${index}.subject`,
      message: THREAD_REPLY.firstStepNeedsSubject,
    })),
  });
}

/** Refuses to make `stepId` the first step when one of its variants has no subject. */
async function assertCanLead(db: Database, stepId: string): Promise<void> {
  const variants = await db
    .select({ subject: campaignStepVariants.subject })
    .from(campaignStepVariants)
    .where(eq(campaignStepVariants.stepId, stepId));
  if (variantsMissingFirstSubject(variants, true).length > 0) {
    throw new AppError('validation', THREAD_REPLY.firstStepMovedWithoutSubject);
  }
}

async function touch(db: Database, campaignId: string, at: Date) {
  await db.update(campaigns).set({ updatedAt: at }).where(eq(campaigns.id, campaignId));
}

export async function getStep(options: {
  db: Database;
  userId: string;
  campaignId: string;
  stepId: string;
}): Promise<CampaignStep> {
  await ownCampaign(options.db, options.userId, options.campaignId);
  return stepDto(options.db, await stepRow(options.db, options.campaignId, options.stepId));
}

/** Appends a step at the end of the sequence. */
export async function createStep(options: {
  db: Database;
  userId: string;
  campaignId: string;
  input: StepInput;
}): Promise<CampaignStep> {
  const { db } = options;
  const campaign = await ownCampaign(db, options.userId, options.campaignId);
  assertStepsEditable(campaign);
  const at = now();
  const created = await db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    // One writer per campaign at a time, so two appends cannot take the same position.
    await tx.execute(sql`SELECT id FROM campaigns WHERE id = ${campaign.id} FOR UPDATE`);
    const [existing] = await tx
      .select({ n: count() })
      .from(campaignSteps)
      .where(eq(campaignSteps.campaignId, campaign.id));
    const n = Number(existing?.n ?? 0);
    if (n >= MAX_STEPS) throw new AppError('conflict', CAMPAIGN_MESSAGES.tooManySteps);
    assertFirstStepSubjects(options.input, n === 0);
    const [step] = await tx
      .insert(campaignSteps)
      .values({
        campaignId: campaign.id,
        userId: campaign.userId,
        position: n + 1,
        ...stepColumns(options.input),
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await writeVariants(tx, campaign.id, step!.id, options.input, at);
    await touch(tx, campaign.id, at);
    return step!;
  });
  return stepDto(db, created);
}

export async function updateStep(options: {
  db: Database;
  userId: string;
  campaignId: string;
  stepId: string;
  input: StepInput;
}): Promise<CampaignStep> {
  const { db } = options;
  const campaign = await ownCampaign(db, options.userId, options.campaignId);
  const step = await stepRow(db, campaign.id, options.stepId);
  assertStepsEditable(campaign);
  assertFirstStepSubjects(options.input, step.position === 1);
  const at = now();
  const keys = new Set(options.input.variants.map((v) => v.key));
  const saved = await db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    const [updated] = await tx
      .update(campaignSteps)
      .set({
        ...stepColumns(options.input),
        // A winner that no longer exists (or a rule that was removed) is forgotten.
        winnerVariantKey:
          options.input.winnerRule && step.winnerVariantKey && keys.has(step.winnerVariantKey)
            ? step.winnerVariantKey
            : null,
        updatedAt: at,
      })
      .where(eq(campaignSteps.id, step.id))
      .returning();
    await writeVariants(tx, campaign.id, step.id, options.input, at);
    await touch(tx, campaign.id, at);
    return updated!;
  });
  return stepDto(db, saved);
}

export async function deleteStep(options: {
  db: Database;
  userId: string;
  campaignId: string;
  stepId: string;
}): Promise<void> {
  const { db } = options;
  const campaign = await ownCampaign(db, options.userId, options.campaignId);
  const step = await stepRow(db, campaign.id, options.stepId);
  assertStepsEditable(campaign);
  if (step.position === 1) {
    const [next] = await db
      .select({ id: campaignSteps.id })
      .from(campaignSteps)
      .where(and(eq(campaignSteps.campaignId, campaign.id), eq(campaignSteps.position, 2)));
    if (next) await assertCanLead(db, next.id);
  }
  const at = now();
  await db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    await tx.delete(campaignSteps).where(eq(campaignSteps.id, step.id));
    // Close the gap in two moves: the (campaign, position) key is checked row by row.
    await tx
      .update(campaignSteps)
      .set({ position: sql`-${campaignSteps.position}` })
      .where(and(eq(campaignSteps.campaignId, campaign.id), gt(campaignSteps.position, step.position)));
    await tx
      .update(campaignSteps)
      .set({ position: sql`-${campaignSteps.position} - 1`, updatedAt: at })
      .where(and(eq(campaignSteps.campaignId, campaign.id), sql`${campaignSteps.position} < 0`));
    // Contacts already past the removed step keep their place in what remains of the sequence.
    await tx
      .update(campaignContacts)
      .set({ currentStep: sql`${campaignContacts.currentStep} - 1` })
      .where(
        and(eq(campaignContacts.campaignId, campaign.id), gte(campaignContacts.currentStep, step.position)),
      );
    await touch(tx, campaign.id, at);
  });
}

/** Puts the steps in the given order (every step exactly once). Only before the campaign has contacts. */
export async function reorderSteps(options: {
  db: Database;
  userId: string;
  campaignId: string;
  stepIds: string[];
}): Promise<CampaignStep[]> {
  const { db } = options;
  const campaign = await ownCampaign(db, options.userId, options.campaignId);
  assertStepsEditable(campaign);
  const steps = await db
    .select({ id: campaignSteps.id })
    .from(campaignSteps)
    .where(eq(campaignSteps.campaignId, campaign.id));
  const known = new Set(steps.map((s) => s.id));
  const given = new Set(options.stepIds);
  if (
    given.size !== options.stepIds.length ||
    given.size !== known.size ||
    [...given].some((id) => !known.has(id))
  )
    throw new AppError('validation', CAMPAIGN_MESSAGES.reorderMismatch, {
      errors: [{ path: 'stepIds', message: CAMPAIGN_MESSAGES.reorderMismatch }],
    });
  const [started] = await db
    .select({ n: count() })
    .from(campaignContacts)
    .where(eq(campaignContacts.campaignId, campaign.id));
  if (Number(started?.n ?? 0) > 0)
    throw new AppError('conflict', 'Steps cannot be reordered once the campaign has started');
  if (options.stepIds[0] !== undefined) await assertCanLead(db, options.stepIds[0]);
  const at = now();
  await db.transaction(async (trx) => {
    const tx = trx as unknown as Database;
    await tx
      .update(campaignSteps)
      .set({ position: sql`-${campaignSteps.position}` })
      .where(and(eq(campaignSteps.campaignId, campaign.id), inArray(campaignSteps.id, options.stepIds)));
    for (const [i, id] of options.stepIds.entries()) {
      await tx
        .update(campaignSteps)
        .set({ position: i + 1, updatedAt: at })
        .where(eq(campaignSteps.id, id));
    }
    await touch(tx, campaign.id, at);
  });
  return loadSteps({ db, campaignId: campaign.id });
}
