export const PLAN_IDS = ['free', 'starter', 'professional', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** Marketing names (PRODUCT.md): the `professional` id is sold as Growth, `enterprise` as Pro. */
export const PLAN_NAMES: Record<PlanId, string> = {
  free: 'Free',
  starter: 'Starter',
  professional: 'Growth',
  enterprise: 'Pro',
};

export const BILLING_INTERVALS = ['monthly', 'annual'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}

export function isBillingInterval(value: unknown): value is BillingInterval {
  return typeof value === 'string' && (BILLING_INTERVALS as readonly string[]).includes(value);
}
