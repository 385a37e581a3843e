import { z } from 'zod';
import { userSchema } from './auth';
import { BILLING_INTERVALS, PLAN_IDS } from './plans';

/** Every amount is in kobo (minor units; divide by 100 for naira). The charge currency is always NGN. */
export const PAYMENT_CURRENCY = 'NGN' as const;
export const PAID_PLAN_IDS = ['starter', 'professional', 'enterprise'] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

export const PAYMENT_MESSAGES = {
  unknownPlan: 'Choose one of the plans: free, starter, professional or enterprise.',
  unknownInterval: 'Choose a billing interval: monthly or annual.',
  freeNeedsNoPayment: 'The Free plan needs no payment.',
  planUnavailable: 'This plan is not available at the moment. Please choose another plan.',
  notConfigured: 'Payments are not configured on this server. Please contact support.',
  providerUnavailable:
    'We could not reach the payment provider. Please try again in a moment; if you were charged, your plan will be activated automatically.',
  paymentNotFound: 'Payment not found.',
  abandoned: 'The payment was not completed, so nothing was charged. You can try again at any time.',
  failed: 'The payment did not go through. Please try again or use another card.',
  pending: 'Your payment is still being processed. Your plan will be activated as soon as it is confirmed.',
  amountMismatch:
    'The amount paid does not match this order, so the plan was not activated. Please contact support.',
  currencyMismatch:
    'The payment was not made in Naira, so the plan was not activated. Please contact support.',
  refunded: 'This payment was refunded and can no longer activate a plan.',
  activated: 'Your subscription is active.',
  cancelScheduled: 'Your subscription will end at the end of the current period.',
  reactivated: 'Your subscription will renew as usual.',
  nothingToCancel: 'You have no active paid subscription to cancel.',
  nothingToReactivate: 'Your subscription is not scheduled to end.',
  periodEnded: 'Your subscription period has ended. Complete a payment to reactivate it.',
  samePlan: 'You are already on this plan and billing interval.',
} as const;

/** Rejects anything but the four plan ids with one clear message (bad input → 400). */
export const planIdSchema = z.enum(PLAN_IDS, { error: PAYMENT_MESSAGES.unknownPlan });
export const billingIntervalSchema = z.enum(BILLING_INTERVALS, { error: PAYMENT_MESSAGES.unknownInterval });

// ---------------------------------------------------------------------------------------------------
// Pricing plans

export const pricingPlanSchema = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  description: z.string(),
  /** kobo */
  priceMonthly: z.number().int(),
  /** kobo; 10 × monthly by default (two months free) */
  priceAnnual: z.number().int(),
  currency: z.literal(PAYMENT_CURRENCY),
  /** -1 = unlimited */
  recipientLimit: z.number().int(),
  /** per month; -1 = unlimited */
  campaignLimit: z.number().int(),
  /** per month; -1 = unlimited */
  newsletterLimit: z.number().int(),
  senderAccountLimit: z.number().int(),
  /** -1 = all countries */
  countryLimit: z.number().int(),
  /** -1 = all categories */
  categoryLimit: z.number().int(),
  /** directory records a month through /database-download; 0 = not included, -1 = unlimited */
  downloadLimit: z.number().int(),
  /** addresses a month through "Verify list"; 0 = not included, -1 = unlimited */
  verificationLimit: z.number().int(),
  sortOrder: z.number().int(),
  active: z.boolean(),
});
export type PricingPlan = z.infer<typeof pricingPlanSchema>;

const limit = z.number().int().min(-1).max(100_000_000);
const kobo = z.number().int('Prices are whole kobo').min(0).max(100_000_000_00);

export const adminUpdatePricingPlanSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'Name is required').max(60).optional(),
    description: z.string().trim().max(500).optional(),
    priceMonthly: kobo.optional(),
    priceAnnual: kobo.optional(),
    recipientLimit: limit.optional(),
    campaignLimit: limit.optional(),
    newsletterLimit: limit.optional(),
    senderAccountLimit: z.number().int().min(1).max(1000).optional(),
    countryLimit: limit.optional(),
    categoryLimit: limit.optional(),
    downloadLimit: limit.optional(),
    verificationLimit: limit.optional(),
    sortOrder: z.number().int().min(0).max(1000).optional(),
    active: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change' });
export type AdminUpdatePricingPlan = z.infer<typeof adminUpdatePricingPlanSchema>;

/** GET /api/user/plan: the newsletter and campaign limits (-1 is unlimited), plus the rest of the caller's limits. */
export const userPlanSchema = z.object({
  planId: z.enum(PLAN_IDS),
  name: z.string(),
  /** The plan whose limits apply now: a paid plan without a valid subscription falls back to free. */
  limitsPlanId: z.enum(PLAN_IDS),
  newsletterLimit: z.number().int(),
  campaignLimit: z.number().int(),
  recipientLimit: z.number().int(),
  senderAccountLimit: z.number().int(),
  countryLimit: z.number().int(),
  categoryLimit: z.number().int(),
  downloadLimit: z.number().int(),
  verificationLimit: z.number().int(),
  subscriptionStatus: z.string().nullable(),
  subscriptionInterval: z.enum(BILLING_INTERVALS).nullable(),
  subscriptionCurrentPeriodEnd: z.string().nullable(),
});
export type UserPlan = z.infer<typeof userPlanSchema>;

export const PLAN_LIMIT_KINDS = [
  'campaigns',
  'newsletters',
  'recipients',
  'senderAccounts',
  'countries',
  'categories',
  'downloads',
  'verifications',
] as const;
export type PlanLimitKind = (typeof PLAN_LIMIT_KINDS)[number];

// ---------------------------------------------------------------------------------------------------
// Payments

export const paymentsConfigSchema = z.object({
  publicKey: z.string(),
  inlineScriptUrl: z.string(),
  /** true with test keys or the built-in fake Paystack: no real card is charged */
  testMode: z.boolean(),
  currency: z.literal(PAYMENT_CURRENCY),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

export const selectPlanSchema = z.strictObject({
  planId: planIdSchema,
  interval: billingIntervalSchema.default('monthly'),
});
export type SelectPlanInput = z.infer<typeof selectPlanSchema>;

export const initializePaymentSchema = z.strictObject({
  planId: planIdSchema,
  interval: billingIntervalSchema.default('monthly'),
});
export type InitializePaymentInput = z.infer<typeof initializePaymentSchema>;

export const ORDER_KINDS = ['new', 'upgrade', 'renewal'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

export const initializePaymentResponseSchema = z.object({
  orderId: z.string(),
  reference: z.string(),
  accessCode: z.string(),
  /** Paystack's hosted page, for a browser that cannot open the popup */
  authorizationUrl: z.string().nullable(),
  publicKey: z.string(),
  inlineScriptUrl: z.string(),
  /** kobo, what will be charged (after any upgrade credit) */
  amount: z.number().int(),
  /** kobo credited from the unused part of the current period (upgrades) */
  credit: z.number().int(),
  currency: z.literal(PAYMENT_CURRENCY),
  email: z.string(),
  planId: z.enum(PAID_PLAN_IDS),
  interval: z.enum(BILLING_INTERVALS),
  kind: z.enum(ORDER_KINDS),
});
export type InitializePaymentResponse = z.infer<typeof initializePaymentResponseSchema>;

/** The activation payload: the payment reference, the plan id and the billing interval. */
export const activateSubscriptionSchema = z.strictObject({
  paymentReference: z
    .string({ error: 'A payment reference is required.' })
    .trim()
    .min(1, 'A payment reference is required.')
    .max(100),
  planId: planIdSchema,
  interval: billingIntervalSchema.default('monthly'),
});
export type ActivateSubscriptionInput = z.infer<typeof activateSubscriptionSchema>;

export const cardSchema = z.object({
  brand: z.string().nullable(),
  last4: z.string().nullable(),
  expMonth: z.string().nullable(),
  expYear: z.string().nullable(),
});
export type Card = z.infer<typeof cardSchema>;

/** GET /api/subscription */
export const subscriptionSchema = z.object({
  planId: z.enum(PLAN_IDS),
  planName: z.string(),
  /** stored status; null on the free plan */
  status: z.string().nullable(),
  interval: z.enum(BILLING_INTERVALS).nullable(),
  currentPeriodStart: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** a downgrade (or interval change) waiting for the period end */
  pendingPlanId: z.enum(PLAN_IDS).nullable(),
  pendingInterval: z.enum(BILLING_INTERVALS).nullable(),
  /** kobo; null when nothing will be charged (free, cancelling, switching to free) */
  nextChargeAmount: z.number().int().nullable(),
  nextChargeDate: z.string().nullable(),
  card: cardSchema.nullable(),
  /** failed renewal attempts in the current past_due spell (0–3) */
  renewalAttempts: z.number().int(),
  nextRetryAt: z.string().nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const activateSubscriptionResponseSchema = z.object({
  message: z.string(),
  alreadyActivated: z.boolean(),
  user: userSchema,
  subscription: subscriptionSchema,
});
export type ActivateSubscriptionResponse = z.infer<typeof activateSubscriptionResponseSchema>;

export const subscriptionActionResponseSchema = z.object({
  message: z.string(),
  subscription: subscriptionSchema,
});

export const changePlanSchema = z.strictObject({
  planId: planIdSchema,
  interval: billingIntervalSchema.default('monthly'),
});
export type ChangePlanInput = z.infer<typeof changePlanSchema>;

export const changePlanResponseSchema = z.object({
  /** immediate: switched now (payment may be needed: see `payment`); scheduled: at the period end */
  effect: z.enum(['payment_required', 'immediate', 'scheduled']),
  message: z.string(),
  /** kobo credited from the unused part of the current period */
  credit: z.number().int(),
  /** kobo still to pay (0 when the credit covers it or the change is scheduled) */
  amountDue: z.number().int(),
  effectiveAt: z.string(),
  payment: initializePaymentResponseSchema.nullable(),
  subscription: subscriptionSchema,
});
export type ChangePlanResponse = z.infer<typeof changePlanResponseSchema>;

export const ORDER_STATUSES = ['pending', 'success', 'failed', 'abandoned', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** One payment as its receipt shows it. */
export const paymentSchema = z.object({
  id: z.string(),
  reference: z.string(),
  kind: z.enum(ORDER_KINDS),
  planId: z.enum(PLAN_IDS),
  planName: z.string(),
  interval: z.enum(BILLING_INTERVALS),
  /** kobo charged */
  amount: z.number().int(),
  /** kobo credited (upgrades) */
  credit: z.number().int(),
  currency: z.literal(PAYMENT_CURRENCY),
  status: z.enum(ORDER_STATUSES),
  channel: z.string().nullable(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  failureReason: z.string().nullable(),
  paidAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const paymentListSchema = z.object({ payments: z.array(paymentSchema) });

// ---------------------------------------------------------------------------------------------------
// Admin

export const adminOrderSchema = paymentSchema.extend({
  userId: z.string(),
  userEmail: z.string().nullable(),
  userName: z.string().nullable(),
  refundReason: z.string().nullable(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

const isoDate = z.iso.date({ error: 'Use a date like 2026-01-31' });

export const adminOrderListQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  plan: z.enum(PLAN_IDS).optional(),
  /** inclusive, by creation day (UTC) */
  from: isoDate.optional(),
  to: isoDate.optional(),
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  format: z.enum(['json', 'csv']).default('json'),
});
export type AdminOrderListQuery = z.infer<typeof adminOrderListQuerySchema>;

export const adminOrderListSchema = z.object({
  orders: z.array(adminOrderSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  /** kobo: successful minus refunded, over the filtered orders */
  revenue: z.number(),
});

export const adminRefundSchema = z.strictObject({
  reason: z
    .string({ error: 'A reason is required' })
    .trim()
    .min(1, 'A reason is required')
    .max(500, 'Reason must be at most 500 characters'),
  /** also end the subscription the order paid for, now */
  endSubscription: z.boolean().default(false),
});

export const adminSubscriptionSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  planId: z.enum(PLAN_IDS),
  status: z.string().nullable(),
  interval: z.enum(BILLING_INTERVALS).nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  pendingPlanId: z.enum(PLAN_IDS).nullable(),
  renewalAttempts: z.number().int(),
  /** kobo per month this subscription contributes to MRR (0 unless active) */
  monthlyValue: z.number().int(),
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
});
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>;

export const ADMIN_SUBSCRIPTION_STATES = [
  'active',
  'incomplete',
  'past_due',
  'cancelled',
  'expired',
] as const;

export const adminSubscriptionListQuerySchema = z.object({
  status: z.enum(ADMIN_SUBSCRIPTION_STATES).optional(),
  plan: z.enum(PAID_PLAN_IDS).optional(),
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
});
export type AdminSubscriptionListQuery = z.infer<typeof adminSubscriptionListQuerySchema>;

export const adminSubscriptionListSchema = z.object({
  subscriptions: z.array(adminSubscriptionSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  summary: z.object({
    byStatus: z.record(z.string(), z.number()),
    byPlan: z.record(z.string(), z.number()),
    /** kobo: active monthly prices + active annual prices / 12 */
    mrr: z.number(),
    activeCount: z.number(),
    /** subscriptions that became cancelled or expired in the last 30 days */
    churnedLast30Days: z.number(),
    /** churned / (active + churned), 0–1 */
    churnRate: z.number(),
  }),
});

export const adminExtendSubscriptionSchema = z.strictObject({
  days: z
    .number({ error: 'Days must be a whole number from 1 to 366' })
    .int('Days must be a whole number from 1 to 366')
    .min(1, 'Days must be a whole number from 1 to 366')
    .max(366, 'Days must be a whole number from 1 to 366'),
  reason: z
    .string({ error: 'A reason is required' })
    .trim()
    .min(1, 'A reason is required')
    .max(500, 'Reason must be at most 500 characters'),
});
