import { createHash } from 'node:crypto';
import type { Database } from '@server/db/client';
import { paymentEvents, subscriptions, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import { assertStorableText } from '@server/lib/input-hygiene';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { BillingServices } from './billing.service';
import { applySuccessfulCharge } from './payments.service';
import { isValidPaystackSignature, type PaystackTransaction } from './paystack.client';

export const INVALID_SIGNATURE_MESSAGE = 'Invalid webhook signature.';

interface PaystackEvent {
  event?: unknown;
  data?: Record<string, unknown> & {
    reference?: unknown;
    subscription_code?: unknown;
    invoice_code?: unknown;
    id?: unknown;
    customer?: { email?: unknown; customer_code?: unknown } | null;
    subscription?: { subscription_code?: unknown } | null;
    transaction?: { reference?: unknown } | null;
  };
}

const str = (v: unknown) =>
  typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : null;

/** What makes two deliveries the same event: its reference, else the subscription/invoice code, else the body. */
function eventKey(event: PaystackEvent, rawBody: Buffer): string {
  const data = event.data ?? {};
  return (
    str(data.reference) ??
    str(data.transaction?.reference) ??
    str(data.invoice_code) ??
    str(data.subscription_code) ??
    str(data.subscription?.subscription_code) ??
    str(data.id) ??
    `sha256:${createHash('sha256').update(rawBody).digest('hex')}`
  );
}

async function findUserForEvent(db: Database, event: PaystackEvent): Promise<string | null> {
  const customer = event.data?.customer;
  const code = str(customer?.customer_code);
  if (code) {
    const [row] = await db
      .select({ userId: subscriptions.userId })
      .from(subscriptions)
      .where(eq(subscriptions.paystackCustomerCode, code))
      .limit(1);
    if (row) return row.userId;
  }
  const email = str(customer?.email);
  if (email) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .limit(1);
    if (row) return row.id;
  }
  return null;
}

/**
 * A signed Paystack webhook: checked, stored once (a replay is answered 200 and changes nothing), then
 * acted on. If acting fails the stored row is removed again, so Paystack's retry is processed.
 */
export async function handlePaystackWebhook(
  services: BillingServices,
  input: { rawBody: Buffer; signature: string | undefined },
): Promise<{ duplicate: boolean; outcome: string }> {
  const secret = services.env.PAYSTACK_SECRET_KEY;
  if (!secret || !isValidPaystackSignature(input.rawBody, input.signature, secret)) {
    throw new AppError('unauthorized', INVALID_SIGNATURE_MESSAGE);
  }
  let event: PaystackEvent;
  try {
    event = JSON.parse(input.rawBody.toString('utf8')) as PaystackEvent;
  } catch {
    throw new AppError('bad_request', 'The webhook body is not valid JSON.');
  }
  assertStorableText(event, 'body');
  const name = str(event.event);
  if (!name) throw new AppError('bad_request', 'The webhook has no event name.');
  const reference = eventKey(event, input.rawBody);
  const { db } = services;
  const [stored] = await db
    .insert(paymentEvents)
    .values({
      event: name,
      reference,
      payload: event as Record<string, unknown>,
      receivedAt: now(),
    })
    .onConflictDoNothing({ target: [paymentEvents.event, paymentEvents.reference] })
    .returning({ id: paymentEvents.id });
  if (!stored) return { duplicate: true, outcome: 'duplicate' };

  try {
    const { outcome, userId } = await actOnEvent(services, name, event);
    await db
      .update(paymentEvents)
      .set({ outcome, userId, processedAt: now() })
      .where(eq(paymentEvents.id, stored.id));
    services.log?.info({ event: name, reference, outcome }, 'Paystack webhook processed');
    return { duplicate: false, outcome };
  } catch (error) {
    await db.delete(paymentEvents).where(eq(paymentEvents.id, stored.id));
    throw error;
  }
}

async function actOnEvent(
  services: BillingServices,
  name: string,
  event: PaystackEvent,
): Promise<{ outcome: string; userId: string | null }> {
  const { db } = services;
  const at = now();
  switch (name) {
    case 'charge.success': {
      const data = (event.data ?? {}) as unknown as PaystackTransaction;
      const reference = str(data.reference);
      if (!reference) return { outcome: 'no_reference', userId: null };
      const { outcome, order } = await applySuccessfulCharge(services, {
        reference,
        transaction: { ...data, status: str(data.status) ?? 'success', amount: Number(data.amount) },
      });
      return { outcome, userId: order?.userId ?? null };
    }
    case 'invoice.payment_failed': {
      const userId = await findUserForEvent(db, event);
      if (!userId) return { outcome: 'unknown_customer', userId: null };
      await db
        .update(users)
        .set({ subscriptionStatus: 'past_due', updatedAt: at })
        .where(and(eq(users.id, userId), sql`${users.subscriptionPlan} <> 'free'`));
      return { outcome: 'past_due', userId };
    }
    case 'subscription.disable': {
      const userId = await findUserForEvent(db, event);
      if (!userId) return { outcome: 'unknown_customer', userId: null };
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ subscriptionStatus: 'cancelled', updatedAt: at })
          .where(
            and(
              eq(users.id, userId),
              sql`${users.subscriptionPlan} <> 'free'`,
              inArray(users.subscriptionStatus, ['active', 'past_due', 'incomplete']),
            ),
          );
        await tx
          .update(subscriptions)
          .set({ endedAt: at, nextRetryAt: null, updatedAt: at })
          .where(eq(subscriptions.userId, userId));
      });
      return { outcome: 'cancelled', userId };
    }
    case 'subscription.not_renew': {
      const userId = await findUserForEvent(db, event);
      if (!userId) return { outcome: 'unknown_customer', userId: null };
      await db
        .insert(subscriptions)
        .values({ userId, cancelAtPeriodEnd: true })
        .onConflictDoUpdate({
          target: subscriptions.userId,
          set: { cancelAtPeriodEnd: true, updatedAt: at },
        });
      return { outcome: 'cancel_at_period_end', userId };
    }
    default:
      return { outcome: 'ignored', userId: null };
  }
}
