import type { PricingPlan } from '@shared/payments';
import { useQuery } from '@tanstack/react-query';

/** The public plan list, used on the pricing, payment and plan-change screens. */
export const PRICING_PLANS_QUERY_KEY = ['/api/pricing-plans'] as const;

export function usePricingPlans() {
  return useQuery<PricingPlan[]>({ queryKey: PRICING_PLANS_QUERY_KEY });
}
