import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth';

/** The four plans (ids fixed; prices in kobo and limits editable by super admins). -1 = unlimited / all. */
export const pricingPlans = pgTable('pricing_plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  priceMonthly: integer('price_monthly').notNull(),
  priceAnnual: integer('price_annual').notNull(),
  recipientLimit: integer('recipient_limit').notNull(),
  campaignLimit: integer('campaign_limit').notNull(),
  newsletterLimit: integer('newsletter_limit').notNull(),
  senderAccountLimit: integer('sender_account_limit').notNull(),
  countryLimit: integer('country_limit').notNull(),
  categoryLimit: integer('category_limit').notNull(),
  /** Directory records a month through /database-download; 0 = not included, -1 = unlimited. */
  downloadLimit: integer('download_limit').notNull().default(0),
  /** Addresses a month through "Verify list"; 0 = not included, -1 = unlimited. */
  verificationLimit: integer('verification_limit').notNull().default(0),
  sortOrder: integer('sort_order').notNull().default(0),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Billing state beside the user's subscription columns (plan, status, interval, period end stay on `user`,
 * where sessions and guards read them). One row per user who has ever started a payment.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    pendingPlan: text('pending_plan'),
    pendingInterval: text('pending_interval'),
    paystackCustomerCode: text('paystack_customer_code'),
    /** Paystack's reusable card authorization, charged for renewals. */
    authorizationCode: text('authorization_code'),
    authorizationEmail: text('authorization_email'),
    authorizationReusable: boolean('authorization_reusable').notNull().default(false),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpMonth: text('card_exp_month'),
    cardExpYear: text('card_exp_year'),
    /** Failed renewal charges in the current past_due spell; retried daily, expired after the third retry. */
    renewalAttempts: integer('renewal_attempts').notNull().default(0),
    nextRetryAt: timestamp('next_retry_at', { withTimezone: true }),
    /** When the subscription last became cancelled or expired (churn). */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscriptions_ended_at_idx').on(t.endedAt)],
);

/** One Paystack transaction we initialized or charged. Amounts in kobo. */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reference: text('reference').notNull(),
    kind: text('kind').notNull().default('new'),
    planId: text('plan_id').notNull(),
    interval: text('interval').notNull(),
    amount: integer('amount').notNull(),
    creditAmount: integer('credit_amount').notNull().default(0),
    currency: text('currency').notNull().default('NGN'),
    status: text('status').notNull().default('pending'),
    accessCode: text('access_code'),
    authorizationUrl: text('authorization_url'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    channel: text('channel'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    authorizationCode: text('authorization_code'),
    gatewayResponse: text('gateway_response'),
    failureReason: text('failure_reason'),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundReason: text('refund_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_reference_idx').on(t.reference),
    index('orders_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('orders_status_created_at_idx').on(t.status, t.createdAt),
    index('orders_created_at_idx').on(t.createdAt),
  ],
);

/** Every signed Paystack webhook, stored once: a replay finds its row and changes nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    event: text('event').notNull(),
    reference: text('reference').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    outcome: text('outcome'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_events_event_reference_idx').on(t.event, t.reference),
    index('payment_events_user_id_idx').on(t.userId),
    index('payment_events_received_at_idx').on(t.receivedAt),
  ],
);
