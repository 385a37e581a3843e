import { orders } from '@server/db/schema/index';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import {
  type InitializePaymentResponse,
  PAYMENT_MESSAGES,
  type Payment,
  paymentsConfigSchema,
  type Subscription,
  subscriptionSchema,
} from '@shared/payments';
import {
  activate,
  createPaymentsTestApp,
  initialize,
  orderByReference,
  type PaymentsTestContext,
  receiptsFor,
  settledMailCount,
  subscribe,
} from '@tests/factories/payments';
import { createUser, userRow } from '@tests/factories/users';
import { waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addInterval } from './billing.service';
import { CHECKOUT_EXPIRED_REASON, CHECKOUT_EXPIRY_MS, expireAbandonedCheckouts } from './payments.service';

describe('payments API', () => {
  let ctx: PaymentsTestContext;

  beforeAll(async () => {
    ctx = await createPaymentsTestApp();
  });
  afterAll(() => ctx.close());
  afterEach(() => resetClock());

  const subscription = async (cookie: string): Promise<Subscription> => {
    const response = await as(ctx.app, cookie)({ method: 'GET', url: '/api/subscription' });
    expect(response.statusCode).toBe(200);
    return subscriptionSchema.parse(response.json());
  };

  describe('configuration', () => {
    it('hands the web the public key and the inline script of the configured Paystack', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/payments/config' });
      expect(response.statusCode).toBe(200);
      expect(paymentsConfigSchema.parse(response.json())).toEqual({
        publicKey: ctx.fake.publicKey,
        inlineScriptUrl: ctx.fake.inlineScriptUrl,
        testMode: true,
        currency: 'NGN',
      });
    });

    it('allows the Paystack popup and the fake in the content security policy', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/payments/config' });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toMatch(/script-src [^;]*https:\/\/js\.paystack\.co/);
      expect(csp).toMatch(/frame-src [^;]*https:\/\/checkout\.paystack\.com/);
      expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.paystack\.co/);
      expect(csp).toContain(new URL(ctx.fake.url).origin);
    });

    it('answers 503 with a clear message when no Paystack key is configured', async () => {
      const app = await createTestApp();
      try {
        const user = await createUser(app);
        const response = await initialize(app, user, 'starter');
        expect(response.statusCode).toBe(503);
        expect(response.json().message).toBe(PAYMENT_MESSAGES.notConfigured);
      } finally {
        await app.close();
      }
    });
  });

  describe('initialize', () => {
    it('prices the order from the database and records it pending', async () => {
      const user = await createUser(ctx.app);
      const response = await initialize(ctx.app, user, 'starter', 'annual');
      expect(response.statusCode).toBe(200);
      const body = response.json<InitializePaymentResponse>();
      expect(body).toMatchObject({
        amount: 150_000_00,
        credit: 0,
        currency: 'NGN',
        planId: 'starter',
        interval: 'annual',
        kind: 'new',
        email: user.email,
        publicKey: ctx.fake.publicKey,
        inlineScriptUrl: ctx.fake.inlineScriptUrl,
      });
      expect(body.reference).toMatch(/^tmb_/);
      expect(body.accessCode).toMatch(/^ac_/);
      const order = await orderByReference(ctx.app, body.reference);
      expect(order).toMatchObject({
        status: 'pending',
        amount: 150_000_00,
        userId: user.user.id,
        planId: 'starter',
      });
      const tx = ctx.fake.transactions.get(body.reference)!;
      expect(tx).toMatchObject({ amount: 150_000_00, currency: 'NGN', email: user.email });
      expect(tx.metadata).toMatchObject({
        orderId: body.orderId,
        userId: user.user.id,
        planId: 'starter',
        interval: 'annual',
      });
    });

    it('refuses an amount sent by the client (the server prices every order)', async () => {
      const user = await createUser(ctx.app);
      const response = await as(
        ctx.app,
        user.cookie,
      )({
        method: 'POST',
        url: '/api/payments/initialize',
        payload: { planId: 'enterprise', interval: 'monthly', amount: 100 },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('amount');
      const history = await as(ctx.app, user.cookie)({ method: 'GET', url: '/api/subscription/payments' });
      expect(history.json().payments).toEqual([]);
    });

    it('refuses an unknown plan, another interval and the free plan with clear 400s', async () => {
      const user = await createUser(ctx.app);
      const unknown = await initialize(ctx.app, user, 'gold');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe(PAYMENT_MESSAGES.unknownPlan);
      const weekly = await initialize(ctx.app, user, 'starter', 'weekly');
      expect(weekly.statusCode).toBe(400);
      expect(weekly.json().message).toBe(PAYMENT_MESSAGES.unknownInterval);
      const free = await initialize(ctx.app, user, 'free');
      expect(free.statusCode).toBe(400);
      expect(free.json().message).toBe(PAYMENT_MESSAGES.freeNeedsNoPayment);
    });

    it('needs a session', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/initialize',
        payload: { planId: 'starter', interval: 'monthly' },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('activate-subscription', () => {
    it('activates after Paystack confirms: plan, status, interval, period end, card, receipt', async () => {
      const user = await createUser(ctx.app, { plan: 'professional', status: 'incomplete' });
      const before = now();
      const { payment, activation } = await subscribe(ctx, user, 'professional', 'monthly');
      expect(activation.alreadyActivated).toBe(false);
      expect(activation.message).toBe(PAYMENT_MESSAGES.activated);
      expect(activation.user).toMatchObject({
        subscriptionPlan: 'professional',
        plan: 'premium',
        subscriptionStatus: 'active',
        subscriptionInterval: 'monthly',
      });
      const end = new Date(activation.user.subscriptionCurrentPeriodEnd!);
      expect(end.getTime()).toBeGreaterThanOrEqual(addInterval(before, 'monthly').getTime() - 1000);
      expect(end.getTime()).toBeLessThanOrEqual(addInterval(now(), 'monthly').getTime());
      expect(activation.subscription).toMatchObject({
        planId: 'professional',
        status: 'active',
        cancelAtPeriodEnd: false,
        nextChargeAmount: 35_000_00,
        nextChargeDate: end.toISOString(),
        card: { brand: 'visa', last4: '4081', expMonth: '12', expYear: '2030' },
      });
      const order = await orderByReference(ctx.app, payment.reference);
      expect(order).toMatchObject({ status: 'success', cardLast4: '4081', channel: 'card' });
      expect(order?.authorizationCode).toMatch(/^AUTH_/);

      const mail = await waitForMail(ctx.app, user.email, {
        subject: 'Your Tambari receipt — Growth (monthly)',
      });
      expect(mail.text).toContain(payment.reference);
      expect(mail.text).toContain('Amount paid: ₦35,000 (NGN)');
      expect(mail.text).toContain('VISA ending 4081');

      const login = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: user.password },
      });
      expect(login.json().subscriptionInfo).toBeUndefined();
    });

    it('is idempotent: a second call answers the same and extends nothing', async () => {
      const user = await createUser(ctx.app);
      const { payment, activation } = await subscribe(ctx, user, 'starter', 'annual');
      const again = await activate(ctx.app, user, {
        paymentReference: payment.reference,
        planId: 'starter',
        interval: 'annual',
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({
        alreadyActivated: true,
        message: PAYMENT_MESSAGES.activated,
        user: { subscriptionCurrentPeriodEnd: activation.user.subscriptionCurrentPeriodEnd },
      });
      expect((await userRow(ctx.app, user.user.id))?.subscriptionCurrentPeriodEnd?.toISOString()).toBe(
        activation.user.subscriptionCurrentPeriodEnd,
      );
      expect(await settledMailCount(ctx.app, user.email, 1)).toBe(1);
    });

    it('refuses a tampered amount and activates nothing', async () => {
      const user = await createUser(ctx.app, { plan: 'enterprise', status: 'incomplete' });
      const payment = (await initialize(ctx.app, user, 'enterprise')).json<InitializePaymentResponse>();
      ctx.fake.complete(payment.reference, 'success', 100);
      const response = await activate(ctx.app, user, {
        paymentReference: payment.reference,
        planId: 'enterprise',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: PAYMENT_MESSAGES.amountMismatch,
        reason: 'amount_mismatch',
      });
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({
        subscriptionPlan: 'enterprise',
        subscriptionStatus: 'incomplete',
        subscriptionCurrentPeriodEnd: null,
      });
      expect(await orderByReference(ctx.app, payment.reference)).toMatchObject({ status: 'failed' });
      expect(await receiptsFor(ctx.app, user.email)).toHaveLength(0);
    });

    it('refuses a payment that was not made in Naira and activates nothing', async () => {
      const user = await createUser(ctx.app, { plan: 'starter', status: 'incomplete' });
      const payment = (await initialize(ctx.app, user, 'starter')).json<InitializePaymentResponse>();
      // The amount matches the order, the currency does not (Paystack answers what was charged).
      const pending = ctx.fake.transactions.get(payment.reference);
      expect(pending).toBeDefined();
      if (pending) pending.currency = 'USD';
      ctx.fake.complete(payment.reference, 'success');
      const response = await activate(ctx.app, user, {
        paymentReference: payment.reference,
        planId: 'starter',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: PAYMENT_MESSAGES.currencyMismatch,
        reason: 'currency_mismatch',
      });
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({
        subscriptionStatus: 'incomplete',
        subscriptionCurrentPeriodEnd: null,
      });
      expect(await orderByReference(ctx.app, payment.reference)).toMatchObject({ status: 'failed' });
    });

    it("answers 404 for another user's reference and for an unknown one", async () => {
      const owner = await createUser(ctx.app);
      const thief = await createUser(ctx.app);
      const payment = (await initialize(ctx.app, owner, 'starter')).json<InitializePaymentResponse>();
      ctx.fake.complete(payment.reference, 'success');
      const stolen = await activate(ctx.app, thief, {
        paymentReference: payment.reference,
        planId: 'starter',
        interval: 'monthly',
      });
      expect(stolen.statusCode).toBe(404);
      expect(stolen.json().message).toBe(PAYMENT_MESSAGES.paymentNotFound);
      expect(await userRow(ctx.app, thief.user.id)).toMatchObject({
        subscriptionPlan: 'free',
        subscriptionStatus: null,
      });
      expect(await orderByReference(ctx.app, payment.reference)).toMatchObject({ status: 'pending' });
      const unknown = await activate(ctx.app, thief, {
        paymentReference: 'tmb_does_not_exist',
        planId: 'starter',
        interval: 'monthly',
      });
      expect(unknown.statusCode).toBe(404);
    });

    it('says clearly when the payment was abandoned, and activates nothing', async () => {
      const user = await createUser(ctx.app, { plan: 'starter', status: 'incomplete' });
      const payment = (await initialize(ctx.app, user, 'starter')).json<InitializePaymentResponse>();
      ctx.fake.complete(payment.reference, 'abandoned');
      const response = await activate(ctx.app, user, {
        paymentReference: payment.reference,
        planId: 'starter',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: PAYMENT_MESSAGES.abandoned, reason: 'abandoned' });
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionStatus: 'incomplete' });
      expect(await orderByReference(ctx.app, payment.reference)).toMatchObject({ status: 'abandoned' });
    });

    it('says clearly when the card was declined', async () => {
      const user = await createUser(ctx.app);
      const payment = (await initialize(ctx.app, user, 'starter')).json<InitializePaymentResponse>();
      ctx.fake.complete(payment.reference, 'failed');
      const response = await activate(ctx.app, user, {
        paymentReference: payment.reference,
        planId: 'starter',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: PAYMENT_MESSAGES.failed, reason: 'failed' });
      expect(await orderByReference(ctx.app, payment.reference)).toMatchObject({ status: 'failed' });
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionPlan: 'free' });
    });

    it('expires a checkout left pending for a day, after asking Paystack, and applies one paid late', async () => {
      const backdate = (reference: string) =>
        ctx.app.services.db
          .update(orders)
          .set({ createdAt: new Date(now().getTime() - CHECKOUT_EXPIRY_MS - 60_000) })
          .where(eq(orders.reference, reference));
      const sweep = () => {
        const { db, paystack, mailer, env } = ctx.app.services;
        return expireAbandonedCheckouts({ db, paystack, mailer, env });
      };
      const walkedAway = await createUser(ctx.app);
      const left = (await initialize(ctx.app, walkedAway, 'starter')).json<InitializePaymentResponse>();
      const paidLate = await createUser(ctx.app);
      const late = (await initialize(ctx.app, paidLate, 'starter')).json<InitializePaymentResponse>();
      ctx.fake.complete(late.reference, 'success');
      const fresh = (
        await initialize(ctx.app, await createUser(ctx.app), 'starter')
      ).json<InitializePaymentResponse>();
      await backdate(left.reference);
      await backdate(late.reference);

      const first = await sweep();
      expect(first).toMatchObject({ expired: 1, paid: 1 });
      expect(await orderByReference(ctx.app, left.reference)).toMatchObject({
        status: 'abandoned',
        failureReason: CHECKOUT_EXPIRED_REASON,
      });
      expect(await orderByReference(ctx.app, late.reference)).toMatchObject({ status: 'success' });
      expect(await userRow(ctx.app, paidLate.user.id)).toMatchObject({ subscriptionPlan: 'starter' });
      // A checkout younger than a day is still open.
      expect(await orderByReference(ctx.app, fresh.reference)).toMatchObject({ status: 'pending' });
      // Running it again changes nothing.
      expect(await sweep()).toMatchObject({ checked: 0 });
    });

    it('answers 409 while Paystack still processes the payment', async () => {
      const user = await createUser(ctx.app);
      const payment = (await initialize(ctx.app, user, 'starter')).json<InitializePaymentResponse>();
      const response = await activate(ctx.app, user, {
        paymentReference: payment.reference,
        planId: 'starter',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ message: PAYMENT_MESSAGES.pending, reason: 'pending' });
    });

    it('refuses a payload whose plan or interval differs from the order', async () => {
      const user = await createUser(ctx.app);
      const payment = (await initialize(ctx.app, user, 'starter')).json<InitializePaymentResponse>();
      ctx.fake.complete(payment.reference, 'success');
      const response = await activate(ctx.app, user, {
        paymentReference: payment.reference,
        planId: 'enterprise',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        reason: 'plan_mismatch',
        message: 'This payment was for the Starter plan (monthly), not Pro (monthly).',
      });
      const annual = await activate(ctx.app, user, {
        paymentReference: payment.reference,
        planId: 'starter',
        interval: 'annual',
      });
      expect(annual.statusCode).toBe(400);
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionPlan: 'free' });
    });

    it('validates the activation payload', async () => {
      const user = await createUser(ctx.app);
      const bad = [
        [{ planId: 'starter', interval: 'monthly' }, 'A payment reference is required.'],
        [{ paymentReference: 'x', planId: 'gold', interval: 'monthly' }, PAYMENT_MESSAGES.unknownPlan],
        [{ paymentReference: 'x', planId: 'starter', interval: 'weekly' }, PAYMENT_MESSAGES.unknownInterval],
      ] as const;
      for (const [payload, message] of bad) {
        const response = await as(
          ctx.app,
          user.cookie,
        )({
          method: 'POST',
          url: '/api/activate-subscription',
          payload,
        });
        expect(response.statusCode, JSON.stringify(payload)).toBe(400);
        expect(response.json().message).toBe(message);
      }
    });

    it('pays again for the running plan: the new period follows the current one', async () => {
      const user = await createUser(ctx.app);
      const first = await subscribe(ctx, user, 'starter', 'monthly');
      const firstEnd = new Date(first.activation.user.subscriptionCurrentPeriodEnd!);
      const second = await subscribe(ctx, user, 'starter', 'monthly');
      expect(second.payment.kind).toBe('new');
      expect(second.activation.user.subscriptionCurrentPeriodEnd).toBe(
        addInterval(firstEnd, 'monthly').toISOString(),
      );
    });
  });

  describe('subscription and payment history', () => {
    it('shows the free plan without a subscription', async () => {
      const user = await createUser(ctx.app);
      expect(await subscription(user.cookie)).toMatchObject({
        planId: 'free',
        planName: 'Free',
        status: null,
        interval: null,
        nextChargeAmount: null,
        card: null,
      });
    });

    it('lists payments newest first with receipt data, only the caller’s', async () => {
      const user = await createUser(ctx.app);
      const other = await createUser(ctx.app);
      const { payment } = await subscribe(ctx, user, 'starter', 'monthly');
      advanceClock(1000);
      const failed = (
        await initialize(ctx.app, user, 'starter', 'monthly')
      ).json<InitializePaymentResponse>();
      ctx.fake.complete(failed.reference, 'failed');
      await activate(ctx.app, user, {
        paymentReference: failed.reference,
        planId: 'starter',
        interval: 'monthly',
      });
      await subscribe(ctx, other, 'enterprise');

      const response = await as(ctx.app, user.cookie)({ method: 'GET', url: '/api/subscription/payments' });
      expect(response.statusCode).toBe(200);
      const payments = response.json<{ payments: Payment[] }>().payments;
      expect(payments.map((p) => [p.reference, p.status])).toEqual([
        [failed.reference, 'failed'],
        [payment.reference, 'success'],
      ]);
      expect(payments[1]).toMatchObject({
        planName: 'Starter',
        amount: 15_000_00,
        currency: 'NGN',
        cardBrand: 'visa',
        cardLast4: '4081',
        kind: 'new',
      });
      expect(payments[1]?.periodStart).not.toBeNull();
      expect(payments[1]?.paidAt).not.toBeNull();
    });
  });

  describe('select-plan (registration with a plan)', () => {
    it('records a paid plan as incomplete and free as free', async () => {
      const user = await createUser(ctx.app);
      const chosen = await as(
        ctx.app,
        user.cookie,
      )({
        method: 'POST',
        url: '/api/subscription/select-plan',
        payload: { planId: 'professional', interval: 'annual' },
      });
      expect(chosen.statusCode).toBe(200);
      expect(chosen.json()).toMatchObject({
        subscriptionPlan: 'professional',
        subscriptionStatus: 'incomplete',
        subscriptionInterval: 'annual',
      });
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: user.password },
      });
      expect(login.json().subscriptionInfo).toMatchObject({
        needsPayment: true,
        subscriptionPlan: 'professional',
      });

      const back = await as(
        ctx.app,
        user.cookie,
      )({
        method: 'POST',
        url: '/api/subscription/select-plan',
        payload: { planId: 'free' },
      });
      expect(back.json()).toMatchObject({ subscriptionPlan: 'free', subscriptionStatus: null });
    });

    it('will not overwrite a running paid plan', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'starter');
      const response = await as(
        ctx.app,
        user.cookie,
      )({
        method: 'POST',
        url: '/api/subscription/select-plan',
        payload: { planId: 'free' },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().reason).toBe('use_change_plan');
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({
        subscriptionPlan: 'starter',
        subscriptionStatus: 'active',
      });
    });
  });
});
