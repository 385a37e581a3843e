import { randomUUID } from 'node:crypto';
import { devMailMessages, orders } from '@server/db/schema/index';
import { type FakePaystack, startFakePaystack } from '@server/features/payments/dev-paystack';
import type { ActivateSubscriptionResponse, InitializePaymentResponse, PaidPlanId } from '@shared/payments';
import type { BillingInterval } from '@shared/plans';
import { and, eq, ilike } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { as, createTestApp } from '../setup/test-app';
import type { TestUser } from './users';

export interface PaymentsTestContext {
  app: FastifyInstance;
  fake: FakePaystack;
  close(): Promise<void>;
}

/** An app wired to a fake Paystack on loopback (plus any extra environment). */
export async function createPaymentsTestApp(env: Record<string, string> = {}): Promise<PaymentsTestContext> {
  const fake = await startFakePaystack();
  const app = await createTestApp({
    PAYSTACK_SECRET_KEY: fake.secretKey,
    PAYSTACK_PUBLIC_KEY: fake.publicKey,
    PAYSTACK_BASE_URL: fake.url,
    PAYSTACK_INLINE_SCRIPT_URL: fake.inlineScriptUrl,
    ...env,
  });
  return {
    app,
    fake,
    close: async () => {
      await app.close();
      await fake.close();
    },
  };
}

export async function initialize(
  app: FastifyInstance,
  user: TestUser,
  planId: string,
  interval: string = 'monthly',
): Promise<LightMyRequestResponse> {
  return as(
    app,
    user.cookie,
  )({ method: 'POST', url: '/api/payments/initialize', payload: { planId, interval } });
}

export function activate(
  app: FastifyInstance,
  user: TestUser,
  payload: { paymentReference: string; planId: string; interval: string },
): Promise<LightMyRequestResponse> {
  return as(app, user.cookie)({ method: 'POST', url: '/api/activate-subscription', payload });
}

/** Initialize → settle on the fake (as the popup would) → activate: a paid plan, as a user gets one. */
export async function subscribe(
  ctx: PaymentsTestContext,
  user: TestUser,
  planId: PaidPlanId,
  interval: BillingInterval = 'monthly',
): Promise<{ payment: InitializePaymentResponse; activation: ActivateSubscriptionResponse }> {
  const init = await initialize(ctx.app, user, planId, interval);
  if (init.statusCode !== 200) throw new Error(`initialize failed ${init.statusCode}: ${init.body}`);
  const payment = init.json<InitializePaymentResponse>();
  ctx.fake.complete(payment.reference, 'success');
  const response = await activate(ctx.app, user, { paymentReference: payment.reference, planId, interval });
  if (response.statusCode !== 200)
    throw new Error(`activate failed ${response.statusCode}: ${response.body}`);
  return { payment, activation: response.json<ActivateSubscriptionResponse>() };
}

/** Sends a webhook body signed with `secret` (the app's key unless a test forges one). */
export function postWebhook(
  app: FastifyInstance,
  body: string,
  signature: string | undefined,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/paystack',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'x-paystack-signature': signature }),
    },
    payload: body,
  });
}

export async function orderByReference(app: FastifyInstance, reference: string) {
  const [row] = await app.services.db.select().from(orders).where(eq(orders.reference, reference)).limit(1);
  return row ?? null;
}

/** Receipts that reached the development mailbox for this address. */
export async function receiptsFor(app: FastifyInstance, email: string) {
  return app.services.db
    .select()
    .from(devMailMessages)
    .where(
      and(
        ilike(devMailMessages.toAddress, `%${email}%`),
        ilike(devMailMessages.subject, 'Your Tambari receipt%'),
      ),
    );
}

/** Mail is sent after the answer; give it a moment, then count. */
export async function settledMailCount(
  app: FastifyInstance,
  email: string,
  expectAtLeast: number,
  // Ends as soon as the mail is there. 5 s was once not enough on a loaded two-core CI machine (a new
  // SMTP connection to the development mailbox, then its database write, behind two test files at once).
  timeoutMs = 15_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let found = (await receiptsFor(app, email)).length;
  while (found < expectAtLeast && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    found = (await receiptsFor(app, email)).length;
  }
  // A little longer, so a duplicate that was going to arrive has arrived.
  await new Promise((r) => setTimeout(r, 300));
  return (await receiptsFor(app, email)).length;
}

/** An order row for a monthly Professional payment, to insert directly (amount in kobo). */
export function paidOrderRow(userId: string, amount: number, status = 'success') {
  return {
    userId,
    reference: `T-${randomUUID()}`,
    planId: 'professional',
    interval: 'monthly',
    amount,
    status,
    paidAt: new Date(),
  };
}
