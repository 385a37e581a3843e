import { orders } from '@server/db/schema/index';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import {
  type ChangePlanResponse,
  PAYMENT_MESSAGES,
  type Subscription,
  subscriptionSchema,
} from '@shared/payments';
import { getSubscriptionIssue } from '@shared/subscription';
import {
  activate,
  createPaymentsTestApp,
  initialize,
  type PaymentsTestContext,
  settledMailCount,
  subscribe,
} from '@tests/factories/payments';
import { createUser, type TestUser, userRow } from '@tests/factories/users';
import { waitForMail } from '@tests/setup/dev-mail';
import { as } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addInterval, DAY_MS } from './billing.service';
import { runSubscriptionRenewals } from './renewals.service';

describe('subscription lifecycle', () => {
  let ctx: PaymentsTestContext;

  beforeAll(async () => {
    ctx = await createPaymentsTestApp();
  });
  afterAll(() => ctx.close());
  afterEach(() => resetClock());

  const renew = (user: TestUser) =>
    runSubscriptionRenewals({ ...ctx.app.services }, { userIds: [user.user.id] });

  async function subscription(user: TestUser): Promise<Subscription> {
    const response = await as(ctx.app, user.cookie)({ method: 'GET', url: '/api/subscription' });
    expect(response.statusCode).toBe(200);
    return subscriptionSchema.parse(response.json());
  }

  const post = (user: TestUser, url: string, payload?: unknown) =>
    as(ctx.app, user.cookie)({ method: 'POST', url, ...(payload ? { payload } : {}) });

  /** Moves the test clock to just after the user's period end. */
  async function passPeriodEnd(user: TestUser) {
    const end = (await userRow(ctx.app, user.user.id))!.subscriptionCurrentPeriodEnd!;
    advanceClock(end.getTime() - now().getTime() + 60_000);
    return end;
  }

  const renewalOrders = (user: TestUser) =>
    ctx.app.services.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, user.user.id), eq(orders.kind, 'renewal')));

  describe('renewal', () => {
    it('charges the saved card at the period end and extends the period from it, with a receipt', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'starter', 'monthly');
      const chargesBefore = ctx.fake.charges.length;
      expect((await renew(user)).checked).toBe(0);

      const oldEnd = await passPeriodEnd(user);
      const summary = await renew(user);
      expect(summary.outcomes.renewed).toBe(1);
      const row = await userRow(ctx.app, user.user.id);
      expect(row).toMatchObject({ subscriptionStatus: 'active', subscriptionPlan: 'starter' });
      expect(row?.subscriptionCurrentPeriodEnd?.toISOString()).toBe(
        addInterval(oldEnd, 'monthly').toISOString(),
      );
      expect(ctx.fake.charges.length).toBe(chargesBefore + 1);
      expect(ctx.fake.charges.at(-1)).toMatchObject({
        amount: 15_000_00,
        email: user.email,
        currency: 'NGN',
      });
      const [order] = await renewalOrders(user);
      expect(order).toMatchObject({ status: 'success', amount: 15_000_00, kind: 'renewal' });
      expect(order?.periodStart?.toISOString()).toBe(oldEnd.toISOString());
      expect(await settledMailCount(ctx.app, user.email, 2)).toBe(2);

      // The sweep is idempotent: nothing is due any more.
      expect((await renew(user)).checked).toBe(0);
      expect(ctx.fake.charges.length).toBe(chargesBefore + 1);
    });

    it('goes past due on a declined renewal, retries on days 1, 2 and 3, then expires', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'professional', 'monthly');
      ctx.fake.failNextCharges(4);
      await passPeriodEnd(user);

      expect((await renew(user)).outcomes.failed).toBe(1);
      let sub = await subscription(user);
      expect(sub).toMatchObject({ status: 'past_due', renewalAttempts: 1, nextChargeAmount: 35_000_00 });
      expect(new Date(sub.nextRetryAt!).getTime()).toBeCloseTo(now().getTime() + DAY_MS, -4);
      expect(getSubscriptionIssue({ ...user.user, ...(await userMe(user)) }, now())).toBe('past_due');
      const notice = await waitForMail(ctx.app, user.email, {
        subject: 'Payment failed: update your payment method',
      });
      expect(notice.text).toContain('Insufficient Funds');

      // Not yet due again.
      expect((await renew(user)).checked).toBe(0);

      for (const attempt of [2, 3]) {
        advanceClock(DAY_MS + 1000);
        expect((await renew(user)).outcomes.failed).toBe(1);
        sub = await subscription(user);
        expect(sub).toMatchObject({ status: 'past_due', renewalAttempts: attempt });
      }
      advanceClock(DAY_MS + 1000);
      expect((await renew(user)).outcomes.expired).toBe(1);
      sub = await subscription(user);
      expect(sub).toMatchObject({ status: 'expired', nextRetryAt: null, nextChargeAmount: null });
      await waitForMail(ctx.app, user.email, { subject: 'Your Tambari subscription has expired' });
      expect((await renewalOrders(user)).map((o) => o.status)).toEqual([
        'failed',
        'failed',
        'failed',
        'failed',
      ]);

      advanceClock(DAY_MS * 5);
      expect((await renew(user)).checked).toBe(0);

      // Paying again starts a fresh period.
      const { activation } = await subscribe(ctx, user, 'professional', 'monthly');
      expect(activation.subscription).toMatchObject({
        status: 'active',
        renewalAttempts: 0,
        nextRetryAt: null,
      });
    });

    it('recovers when a retry succeeds: active again, period from the successful charge', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'starter', 'annual');
      ctx.fake.failNextCharges(1);
      await passPeriodEnd(user);
      expect((await renew(user)).outcomes.failed).toBe(1);
      advanceClock(DAY_MS + 1000);
      const retryAt = now();
      expect((await renew(user)).outcomes.renewed).toBe(1);
      const row = await userRow(ctx.app, user.user.id);
      expect(row?.subscriptionStatus).toBe('active');
      expect(row!.subscriptionCurrentPeriodEnd!.getTime()).toBeGreaterThanOrEqual(
        addInterval(retryAt, 'annual').getTime() - 1000,
      );
      expect((await subscription(user)).renewalAttempts).toBe(0);
      expect(ctx.fake.charges.at(-1)?.amount).toBe(150_000_00);
    });
  });

  describe('cancel and reactivate', () => {
    it('cancels at the period end, reactivates, and ends as cancelled without a charge', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'starter');
      const cancel = await post(user, '/api/subscription/cancel');
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json().message).toMatch(
        /^Your subscription will end on .+\. You keep full access until then\.$/,
      );
      expect(cancel.json().subscription).toMatchObject({
        cancelAtPeriodEnd: true,
        status: 'active',
        nextChargeAmount: null,
      });

      const reactivate = await post(user, '/api/subscription/reactivate');
      expect(reactivate.statusCode).toBe(200);
      expect(reactivate.json().subscription).toMatchObject({
        cancelAtPeriodEnd: false,
        nextChargeAmount: 15_000_00,
      });

      expect((await post(user, '/api/subscription/cancel')).statusCode).toBe(200);
      const charges = ctx.fake.charges.length;
      await passPeriodEnd(user);
      expect((await renew(user)).outcomes.cancelled).toBe(1);
      expect(ctx.fake.charges.length).toBe(charges);
      expect(await subscription(user)).toMatchObject({ status: 'cancelled', cancelAtPeriodEnd: false });
      expect(getSubscriptionIssue({ ...user.user, ...(await userMe(user)) }, now())).toBe('cancelled');
      await waitForMail(ctx.app, user.email, { subject: 'Your Tambari subscription has ended' });

      const late = await post(user, '/api/subscription/reactivate');
      expect(late.statusCode).toBe(400);
      expect(late.json()).toMatchObject({
        message: PAYMENT_MESSAGES.periodEnded,
        reason: 'payment_required',
      });
    });

    it('has nothing to cancel or reactivate on the free plan', async () => {
      const user = await createUser(ctx.app);
      const cancel = await post(user, '/api/subscription/cancel');
      expect(cancel.statusCode).toBe(400);
      expect(cancel.json().message).toBe(PAYMENT_MESSAGES.nothingToCancel);
      const reactivate = await post(user, '/api/subscription/reactivate');
      expect(reactivate.statusCode).toBe(400);
      expect(reactivate.json().message).toBe(PAYMENT_MESSAGES.nothingToReactivate);
    });

    it('cancels a past-due subscription at once and stops retrying', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'starter');
      ctx.fake.failNextCharges(1);
      await passPeriodEnd(user);
      await renew(user);
      const cancel = await post(user, '/api/subscription/cancel');
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json().subscription).toMatchObject({ status: 'cancelled', nextRetryAt: null });
      advanceClock(2 * DAY_MS);
      expect((await renew(user)).checked).toBe(0);
    });
  });

  describe('change plan', () => {
    it('upgrades now, crediting the unused part of the period', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'starter', 'monthly');
      const sub = await subscription(user);
      const start = new Date(sub.currentPeriodStart!).getTime();
      const end = new Date(sub.currentPeriodEnd!).getTime();
      advanceClock(Math.floor((end - start) / 2));
      const response = await post(user, '/api/subscription/change-plan', {
        planId: 'professional',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(200);
      const change = response.json<ChangePlanResponse>();
      expect(change.effect).toBe('payment_required');
      expect(change.credit).toBeGreaterThan(7_400_00);
      expect(change.credit).toBeLessThanOrEqual(7_500_00);
      expect(change.amountDue).toBe(35_000_00 - change.credit);
      expect(change.payment).toMatchObject({
        kind: 'upgrade',
        amount: change.amountDue,
        credit: change.credit,
        planId: 'professional',
      });
      // Nothing changes until the difference is paid.
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({ subscriptionPlan: 'starter' });

      ctx.fake.complete(change.payment!.reference, 'success');
      const paid = await activate(ctx.app, user, {
        paymentReference: change.payment!.reference,
        planId: 'professional',
        interval: 'monthly',
      });
      expect(paid.statusCode).toBe(200);
      expect(paid.json().user).toMatchObject({
        subscriptionPlan: 'professional',
        subscriptionStatus: 'active',
      });
      expect(new Date(paid.json().user.subscriptionCurrentPeriodEnd).getTime()).toBeGreaterThanOrEqual(
        addInterval(now(), 'monthly').getTime() - 5_000,
      );
      const history = await as(ctx.app, user.cookie)({ method: 'GET', url: '/api/subscription/payments' });
      expect(history.json().payments[0]).toMatchObject({
        kind: 'upgrade',
        credit: change.credit,
        status: 'success',
      });
    });

    it('switches at once when the credit covers the new plan (annual Growth → monthly Pro)', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'professional', 'annual');
      const response = await post(user, '/api/subscription/change-plan', {
        planId: 'enterprise',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(200);
      const change = response.json<ChangePlanResponse>();
      expect(change).toMatchObject({ effect: 'immediate', amountDue: 0, payment: null });
      expect(change.credit).toBeGreaterThan(349_000_00);
      expect(change.subscription).toMatchObject({
        planId: 'enterprise',
        interval: 'monthly',
        status: 'active',
      });
      const months =
        (new Date(change.subscription.currentPeriodEnd!).getTime() - now().getTime()) / (30.4 * DAY_MS);
      expect(months).toBeGreaterThan(4.4);
      expect(months).toBeLessThan(4.8);
    });

    it('schedules a downgrade for the period end and renews at the lower price', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'professional', 'monthly');
      const response = await post(user, '/api/subscription/change-plan', {
        planId: 'starter',
        interval: 'monthly',
      });
      expect(response.statusCode).toBe(200);
      const change = response.json<ChangePlanResponse>();
      expect(change).toMatchObject({ effect: 'scheduled', amountDue: 0, payment: null });
      expect(change.message).toMatch(
        /^Your plan changes to Starter \(monthly\) on .+\. You keep Growth until then\.$/,
      );
      expect(change.subscription).toMatchObject({
        planId: 'professional',
        pendingPlanId: 'starter',
        pendingInterval: 'monthly',
        nextChargeAmount: 15_000_00,
      });
      await passPeriodEnd(user);
      expect((await renew(user)).outcomes.renewed).toBe(1);
      expect(await subscription(user)).toMatchObject({
        planId: 'starter',
        pendingPlanId: null,
        status: 'active',
      });
      expect(ctx.fake.charges.at(-1)?.amount).toBe(15_000_00);
    });

    it('moves to Free at the period end without charging', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'starter', 'monthly');
      const change = (
        await post(user, '/api/subscription/change-plan', { planId: 'free' })
      ).json<ChangePlanResponse>();
      expect(change).toMatchObject({
        effect: 'scheduled',
        subscription: { pendingPlanId: 'free', nextChargeAmount: null },
      });
      const charges = ctx.fake.charges.length;
      await passPeriodEnd(user);
      expect((await renew(user)).outcomes.downgraded_to_free).toBe(1);
      expect(ctx.fake.charges.length).toBe(charges);
      expect(await userRow(ctx.app, user.user.id)).toMatchObject({
        subscriptionPlan: 'free',
        subscriptionStatus: null,
        subscriptionCurrentPeriodEnd: null,
      });
    });

    it('withdraws a scheduled change by choosing the current plan, and refuses the same plan otherwise', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'professional', 'monthly');
      const same = await post(user, '/api/subscription/change-plan', {
        planId: 'professional',
        interval: 'monthly',
      });
      expect(same.statusCode).toBe(400);
      expect(same.json().message).toBe(PAYMENT_MESSAGES.samePlan);
      await post(user, '/api/subscription/change-plan', { planId: 'starter', interval: 'annual' });
      const back = await post(user, '/api/subscription/change-plan', {
        planId: 'professional',
        interval: 'monthly',
      });
      expect(back.statusCode).toBe(200);
      expect(back.json().subscription).toMatchObject({ pendingPlanId: null, nextChargeAmount: 35_000_00 });
    });

    it('sends a downgrade through initialize back to change plan', async () => {
      const user = await createUser(ctx.app);
      await subscribe(ctx, user, 'enterprise', 'monthly');
      const response = await initialize(ctx.app, user, 'starter', 'monthly');
      expect(response.statusCode).toBe(409);
      expect(response.json().reason).toBe('use_change_plan');
    });

    it('starts a new payment when there is no running period, and validates plan and interval', async () => {
      const user = await createUser(ctx.app, { plan: 'starter', status: 'past_due' });
      const change = await post(user, '/api/subscription/change-plan', {
        planId: 'professional',
        interval: 'annual',
      });
      expect(change.statusCode).toBe(200);
      expect(change.json()).toMatchObject({ effect: 'payment_required', credit: 0, amountDue: 350_000_00 });
      expect((await post(user, '/api/subscription/change-plan', { planId: 'platinum' })).statusCode).toBe(
        400,
      );
      const weekly = await post(user, '/api/subscription/change-plan', {
        planId: 'starter',
        interval: 'weekly',
      });
      expect(weekly.statusCode).toBe(400);
      expect(weekly.json().message).toBe(PAYMENT_MESSAGES.unknownInterval);
    });
  });

  async function userMe(user: TestUser) {
    const response = await as(ctx.app, user.cookie)({ method: 'GET', url: '/api/user' });
    return response.json();
  }
});
