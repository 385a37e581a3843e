import type { PricingPlan } from './payments';
import { PLAN_NAMES } from './plans';

const NAIRA = 100;

/**
 * PRODUCT.md defaults: the server seeds them (an admin edits them afterwards) and the build prerenders
 * /pricing with them (issue #19 section 3). Annual = 10 x monthly (two months free). Prices in kobo.
 */
export const DEFAULT_PRICING_PLANS: readonly PricingPlan[] = [
  {
    id: 'free',
    name: PLAN_NAMES.free,
    description: 'Reach your first prospects. No card needed.',
    priceMonthly: 0,
    priceAnnual: 0,
    currency: 'NGN',
    recipientLimit: 500,
    campaignLimit: 3,
    newsletterLimit: 5,
    senderAccountLimit: 1,
    countryLimit: 1,
    categoryLimit: 1,
    downloadLimit: 0,
    verificationLimit: 100,
    sortOrder: 0,
    active: true,
  },
  {
    id: 'starter',
    name: PLAN_NAMES.starter,
    description: 'For founders and sales reps starting outbound across Africa.',
    priceMonthly: 15_000 * NAIRA,
    priceAnnual: 150_000 * NAIRA,
    currency: 'NGN',
    recipientLimit: 10_000,
    campaignLimit: 20,
    newsletterLimit: 20,
    senderAccountLimit: 3,
    countryLimit: -1,
    categoryLimit: -1,
    downloadLimit: 2_000,
    verificationLimit: 5_000,
    sortOrder: 1,
    active: true,
  },
  {
    id: 'professional',
    name: PLAN_NAMES.professional,
    description: 'For growing teams running campaigns and newsletters at scale.',
    priceMonthly: 35_000 * NAIRA,
    priceAnnual: 350_000 * NAIRA,
    currency: 'NGN',
    recipientLimit: 50_000,
    campaignLimit: -1,
    newsletterLimit: -1,
    senderAccountLimit: 10,
    countryLimit: -1,
    categoryLimit: -1,
    downloadLimit: 10_000,
    verificationLimit: 25_000,
    sortOrder: 2,
    active: true,
  },
  {
    id: 'enterprise',
    name: PLAN_NAMES.enterprise,
    description: 'For agencies and high-volume senders rotating many sender accounts.',
    priceMonthly: 75_000 * NAIRA,
    priceAnnual: 750_000 * NAIRA,
    currency: 'NGN',
    recipientLimit: -1,
    campaignLimit: -1,
    newsletterLimit: -1,
    senderAccountLimit: 40,
    countryLimit: -1,
    categoryLimit: -1,
    downloadLimit: -1,
    verificationLimit: 100_000,
    sortOrder: 3,
    active: true,
  },
];

/**
 * The same for two plan lists exactly when they show the same thing: every field of every plan, in order,
 * whatever order the fields were written in.
 */
export function pricingPlansFingerprint(plans: readonly PricingPlan[]): string {
  return JSON.stringify(
    plans.map((plan) => Object.fromEntries(Object.entries(plan).sort(([a], [b]) => a.localeCompare(b)))),
  );
}
