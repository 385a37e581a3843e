import { randomUUID } from 'node:crypto';
import { paymentEvents, subscriptions } from '@server/db/schema/index';
import type { InitializePaymentResponse } from '@shared/payments';
import {
  activate,
  createPaymentsTestApp,
  initialize,
  orderByReference,
  type PaymentsTestContext,
  postWebhook,
  settledMailCount,
  subscribe,
} from '@tests/factories/payments';
import { createUser, userRow } from '@tests/factories/users';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_SIGNATURE_MESSAGE } from './webhooks.service';

describe('Paystack webhooks', () => {
  let ctx: PaymentsTestContext;

  beforeAll(async () => {
    ctx = await createPaymentsTestApp();
  });
  afterAll(() => ctx.close());

  const eventsFor = (reference: string) =>
    ctx.app.services.db.select().from(paymentEvents).where(eq(paymentEvents.reference, reference));

  async function settledPayment(planId: 'starter' | 'professional' = 'starter') {
    const user = await createUser(ctx.app, { plan: planId, status: 'incomplete' });
    const payment = (await initialize(ctx.app, user, planId)).json<InitializePaymentResponse>();
    ctx.fake.complete(payment.reference, 'success');
    return { user, payment };
  }

  it('activates the plan on a signed charge.success, without a verify call', async () => {
    const { user, payment } = await settledPayment('professional');
    const { body, signature } = ctx.fake.chargeSuccessEvent(payment.reference);
    const response = await postWebhook(ctx.app, body, signature);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(await userRow(ctx.app, user.user.id)).toMatchObject({
      subscriptionPlan: 'professional',
      subscriptionStatus: 'active',
      subscriptionInterval: 'monthly',
    });
    expect(await orderByReference(ctx.app, payment.reference)).toMatchObject({ status: 'success' });
    const [event] = await eventsFor(payment.reference);
    expect(event).toMatchObject({ event: 'charge.success', outcome: 'applied', userId: user.user.id });
    expect(await settledMailCount(ctx.app, user.email, 1)).toBe(1);
  });

  it('stores a replayed webhook once and changes nothing', async () => {
    const { user, payment } = await settledPayment();
    const { body, signature } = ctx.fake.chargeSuccessEvent(payment.reference);
    expect((await postWebhook(ctx.app, body, signature)).statusCode).toBe(200);
    const after = await userRow(ctx.app, user.user.id);
    for (let i = 0; i < 3; i++) expect((await postWebhook(ctx.app, body, signature)).statusCode).toBe(200);
    expect(await eventsFor(payment.reference)).toHaveLength(1);
    expect((await userRow(ctx.app, user.user.id))?.subscriptionCurrentPeriodEnd).toEqual(
      after?.subscriptionCurrentPeriodEnd,
    );
    expect(await settledMailCount(ctx.app, user.email, 1)).toBe(1);
  });

  it('refuses an unsigned or badly signed webhook with 401 and stores nothing', async () => {
    const { user, payment } = await settledPayment();
    const { body, signature } = ctx.fake.chargeSuccessEvent(payment.reference);
    const forged = await startForgery(body);
    const cases: (string | undefined)[] = [
      undefined,
      '',
      'abc',
      forged,
      signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    ];
    for (const candidate of cases) {
      const response = await postWebhook(ctx.app, body, candidate);
      expect(response.statusCode, String(candidate)).toBe(401);
      expect(response.json().message).toBe(INVALID_SIGNATURE_MESSAGE);
    }
    // A body changed after signing is refused too.
    const tampered = body.replace(`"amount":${1_500_000}`, '"amount":100');
    expect(tampered).not.toBe(body);
    expect((await postWebhook(ctx.app, tampered, signature)).statusCode).toBe(401);
    expect(await eventsFor(payment.reference)).toHaveLength(0);
    expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionStatus: 'incomplete' });
  });

  it('is exempt from the Origin check (Paystack sends none) but still needs the signature', async () => {
    const { payment } = await settledPayment();
    const { body, signature } = ctx.fake.chargeSuccessEvent(payment.reference);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/webhooks/paystack',
      headers: {
        'content-type': 'application/json',
        'x-paystack-signature': signature,
        origin: 'https://evil.example',
      },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a charge.success whose amount differs from the order', async () => {
    const user = await createUser(ctx.app, { plan: 'starter', status: 'incomplete' });
    const payment = (await initialize(ctx.app, user, 'starter')).json<InitializePaymentResponse>();
    ctx.fake.complete(payment.reference, 'success', 500);
    const { body, signature } = ctx.fake.chargeSuccessEvent(payment.reference);
    expect((await postWebhook(ctx.app, body, signature)).statusCode).toBe(200);
    expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionStatus: 'incomplete' });
    const [event] = await eventsFor(payment.reference);
    expect(event?.outcome).toBe('amount_mismatch');
  });

  it('ignores a charge for a reference it never issued', async () => {
    const body = JSON.stringify({
      event: 'charge.success',
      data: { reference: `other_${randomUUID()}`, status: 'success', amount: 100, currency: 'NGN' },
    });
    const response = await postWebhook(ctx.app, body, ctx.fake.sign(body));
    expect(response.statusCode).toBe(200);
  });

  describe('verify and webhook racing', () => {
    it.each(['webhook first', 'verify first', 'at once'] as const)(
      'applies the payment once (%s)',
      async (order) => {
        const { user, payment } = await settledPayment('professional');
        const { body, signature } = ctx.fake.chargeSuccessEvent(payment.reference);
        const verify = () =>
          activate(ctx.app, user, {
            paymentReference: payment.reference,
            planId: 'professional',
            interval: 'monthly',
          });
        const webhook = () => postWebhook(ctx.app, body, signature);
        let answers: Awaited<ReturnType<typeof verify>>[];
        if (order === 'webhook first') answers = [await webhook(), await verify()];
        else if (order === 'verify first') answers = [await verify(), await webhook()];
        else answers = await Promise.all([verify(), webhook()]);
        for (const answer of answers) expect(answer.statusCode).toBe(200);
        const activation = answers.find((a) => a.json().user)!.json();
        expect(activation.user.subscriptionStatus).toBe('active');
        if (order === 'webhook first') expect(activation.alreadyActivated).toBe(true);
        if (order === 'verify first') expect(activation.alreadyActivated).toBe(false);
        const row = await userRow(ctx.app, user.user.id);
        expect(row?.subscriptionCurrentPeriodEnd?.toISOString()).toBe(
          activation.user.subscriptionCurrentPeriodEnd,
        );
        expect(await settledMailCount(ctx.app, user.email, 1)).toBe(1);
        const [event] = await eventsFor(payment.reference);
        if (order === 'webhook first') expect(event?.outcome).toBe('applied');
        else if (order === 'verify first') expect(event?.outcome).toBe('already_applied');
        else expect(['applied', 'already_applied']).toContain(event?.outcome);
      },
    );
  });

  describe('subscription events', () => {
    async function subscribed() {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'starter');
      const [sub] = await ctx.app.services.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, user.user.id));
      return { user, customerCode: sub!.paystackCustomerCode! };
    }

    const send = (event: string, data: Record<string, unknown>) => {
      const body = JSON.stringify({ event, data });
      return postWebhook(ctx.app, body, ctx.fake.sign(body));
    };

    it('invoice.payment_failed makes the subscription past due', async () => {
      const { user, customerCode } = await subscribed();
      const response = await send('invoice.payment_failed', {
        invoice_code: `INV_${randomUUID()}`,
        customer: { customer_code: customerCode, email: user.email },
      });
      expect(response.statusCode).toBe(200);
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionStatus: 'past_due' });
    });

    it('subscription.disable cancels it', async () => {
      const { user, customerCode } = await subscribed();
      await send('subscription.disable', {
        subscription_code: `SUB_${randomUUID()}`,
        customer: { customer_code: customerCode },
      });
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionStatus: 'cancelled' });
    });

    it('subscription.not_renew sets cancel at period end, matching the customer by email', async () => {
      const { user } = await subscribed();
      await send('subscription.not_renew', {
        subscription_code: `SUB_${randomUUID()}`,
        customer: { email: user.email.toUpperCase() },
      });
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionStatus: 'active' });
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/subscription',
        headers: { cookie: user.cookie },
      });
      expect(response.json()).toMatchObject({ cancelAtPeriodEnd: true, nextChargeAmount: null });
    });
  });
});

/** A signature made with another secret key: right shape, wrong key. */
async function startForgery(body: string): Promise<string> {
  const { createHmac } = await import('node:crypto');
  return createHmac('sha512', 'sk_test_not_the_key').update(body).digest('hex');
}
