import type { Database } from '@server/db/client';
import { pricingPlans } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError, notFound } from '@server/lib/errors';
import { DEFAULT_PRICING_PLANS as SHARED_DEFAULT_PLANS } from '@shared/default-pricing-plans';
import type { AdminUpdatePricingPlan, PricingPlan } from '@shared/payments';
import { type BillingInterval, isPlanId, type PlanId } from '@shared/plans';
import { asc, eq } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';

type PlanRow = typeof pricingPlans.$inferSelect;

const NAIRA = 100;
/** kobo; Paystack's smallest sensible NGN charge. */
export const MIN_PAID_PRICE = 100 * NAIRA;

/** The default plans as rows (src/shared/default-pricing-plans.ts, which the build prerenders /pricing with). */
export const DEFAULT_PRICING_PLANS: (typeof pricingPlans.$inferInsert)[] = SHARED_DEFAULT_PLANS.map(
  ({ currency: _currency, ...row }) => row,
);

/** Idempotent: inserts the default plans that are missing, never overwrites an admin's edits. */
export async function seedPricingPlans({ db }: { db: Database }): Promise<void> {
  await db
    .insert(pricingPlans)
    .values(DEFAULT_PRICING_PLANS)
    .onConflictDoNothing({ target: pricingPlans.id });
}

export function toPricingPlan(row: PlanRow): PricingPlan {
  return {
    id: row.id as PlanId,
    name: row.name,
    description: row.description,
    priceMonthly: row.priceMonthly,
    priceAnnual: row.priceAnnual,
    currency: 'NGN',
    recipientLimit: row.recipientLimit,
    campaignLimit: row.campaignLimit,
    newsletterLimit: row.newsletterLimit,
    senderAccountLimit: row.senderAccountLimit,
    countryLimit: row.countryLimit,
    categoryLimit: row.categoryLimit,
    downloadLimit: row.downloadLimit,
    verificationLimit: row.verificationLimit,
    sortOrder: row.sortOrder,
    active: row.active,
  };
}

export async function listPricingPlans({
  db,
  includeInactive = false,
}: {
  db: Database;
  includeInactive?: boolean;
}): Promise<PricingPlan[]> {
  const rows = await db
    .select()
    .from(pricingPlans)
    .where(includeInactive ? undefined : eq(pricingPlans.active, true))
    .orderBy(asc(pricingPlans.sortOrder), asc(pricingPlans.id));
  return rows.filter((row) => isPlanId(row.id)).map(toPricingPlan);
}

export async function getPricingPlan({ db, id }: { db: Database; id: string }): Promise<PricingPlan> {
  const [row] = await db.select().from(pricingPlans).where(eq(pricingPlans.id, id)).limit(1);
  if (!row) throw notFound('Plan not found');
  return toPricingPlan(row);
}

export function priceFor(plan: Pick<PricingPlan, 'priceMonthly' | 'priceAnnual'>, interval: BillingInterval) {
  return interval === 'annual' ? plan.priceAnnual : plan.priceMonthly;
}

/** What a plan is worth per month, for MRR and to tell an upgrade from a downgrade. */
export function monthlyValue(
  plan: Pick<PricingPlan, 'priceMonthly' | 'priceAnnual'>,
  interval: BillingInterval,
) {
  return interval === 'annual' ? Math.round(plan.priceAnnual / 12) : plan.priceMonthly;
}

export async function updatePricingPlan(options: {
  db: Database;
  actor: AuditActor;
  id: string;
  changes: AdminUpdatePricingPlan;
}): Promise<PricingPlan> {
  const before = await getPricingPlan({ db: options.db, id: options.id });
  const { changes } = options;
  if (before.id === 'free' && ((changes.priceMonthly ?? 0) > 0 || (changes.priceAnnual ?? 0) > 0)) {
    throw new AppError('bad_request', 'The Free plan has no price.');
  }
  if (before.id === 'free' && changes.active === false) {
    throw new AppError('bad_request', 'The Free plan cannot be turned off: every account falls back to it.');
  }
  for (const key of ['priceMonthly', 'priceAnnual'] as const) {
    const value = changes[key];
    if (before.id !== 'free' && value !== undefined && value < MIN_PAID_PRICE) {
      throw new AppError('bad_request', 'A paid plan needs a price of at least ₦100.');
    }
  }
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, value] of Object.entries(changes)) {
    const previous = before[key as keyof PricingPlan];
    if (value !== undefined && value !== previous) diff[key] = { from: previous, to: value };
  }
  await options.db.transaction(async (tx) => {
    await tx
      .update(pricingPlans)
      .set({ ...changes, updatedAt: now() })
      .where(eq(pricingPlans.id, options.id));
    await recordAuditEntry({
      db: tx as unknown as Database,
      actor: options.actor,
      action: 'pricing_plan.updated',
      targetType: 'pricing_plan',
      targetId: options.id,
      details: { changes: diff },
    });
  });
  return getPricingPlan({ db: options.db, id: options.id });
}

/** The plans in upgrade order, for "Upgrade to X" messages. */
export async function plansInOrder({ db }: { db: Database }): Promise<PricingPlan[]> {
  return listPricingPlans({ db, includeInactive: true });
}
