import { pricingPlans } from '@server/db/schema/index';
import { AppError } from '@server/lib/errors';
import type { AuditEntry } from '@shared/admin';
import {
  DEFAULT_PRICING_PLANS as PRERENDERED_PLANS,
  pricingPlansFingerprint,
} from '@shared/default-pricing-plans';
import { PAYMENT_MESSAGES, type PricingPlan, pricingPlanSchema, userPlanSchema } from '@shared/payments';
import { createPaymentsTestApp } from '@tests/factories/payments';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { assertWithinLimit, getPlanLimits, limitMessage } from './plan-limits.service';
import { DEFAULT_PRICING_PLANS, seedPricingPlans } from './plans.service';

describe('pricing plans', () => {
  let app: FastifyInstance;
  let admin: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
  });
  afterAll(() => app.close());

  const future = () => new Date(Date.now() + 20 * 24 * 60 * 60 * 1000);

  describe('GET /api/pricing-plans', () => {
    it('answers, field for field, the default plans the build prerenders /pricing with', async () => {
      // The server sends that page only while this holds (src/server/lib/public-site.ts).
      const response = await app.inject({ method: 'GET', url: '/api/pricing-plans' });
      expect(pricingPlansFingerprint(response.json<PricingPlan[]>())).toBe(
        pricingPlansFingerprint(PRERENDERED_PLANS),
      );
    });

    it('lists the four plans with PRODUCT.md prices (kobo) and limits, publicly', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/pricing-plans' });
      expect(response.statusCode).toBe(200);
      const plans = response.json<PricingPlan[]>().map((p) => pricingPlanSchema.parse(p));
      const byId = Object.fromEntries(plans.map((p) => [p.id, p]));
      expect(plans.map((p) => p.id)).toEqual(['free', 'starter', 'professional', 'enterprise']);
      expect(byId.free).toMatchObject({
        name: 'Free',
        priceMonthly: 0,
        priceAnnual: 0,
        campaignLimit: 3,
        newsletterLimit: 5,
        recipientLimit: 500,
        senderAccountLimit: 1,
        countryLimit: 1,
        categoryLimit: 1,
        currency: 'NGN',
      });
      expect(byId.starter).toMatchObject({
        name: 'Starter',
        priceMonthly: 1_500_000,
        priceAnnual: 15_000_000,
        campaignLimit: 20,
        newsletterLimit: 20,
        recipientLimit: 10_000,
        senderAccountLimit: 3,
        countryLimit: -1,
        categoryLimit: -1,
      });
      expect(byId.professional).toMatchObject({
        name: 'Growth',
        priceMonthly: 3_500_000,
        priceAnnual: 35_000_000,
        campaignLimit: -1,
        newsletterLimit: -1,
        recipientLimit: 50_000,
        senderAccountLimit: 10,
      });
      expect(byId.enterprise).toMatchObject({
        name: 'Pro',
        priceMonthly: 7_500_000,
        priceAnnual: 75_000_000,
        recipientLimit: -1,
        senderAccountLimit: 40,
      });
    });

    it('seeds idempotently and never overwrites an edit', async () => {
      await app.services.db
        .update(pricingPlans)
        .set({ description: 'Edited' })
        .where(eq(pricingPlans.id, 'enterprise'));
      await seedPricingPlans({ db: app.services.db });
      await seedPricingPlans({ db: app.services.db });
      const rows = await app.services.db.select().from(pricingPlans);
      expect(rows.filter((r) => r.id === 'enterprise')).toHaveLength(1);
      expect(rows.find((r) => r.id === 'enterprise')?.description).toBe('Edited');
      await app.services.db
        .update(pricingPlans)
        .set({ description: DEFAULT_PRICING_PLANS[3]!.description })
        .where(eq(pricingPlans.id, 'enterprise'));
    });
  });

  describe('GET /api/user/plan', () => {
    it('answers 401 signed out', async () => {
      expect((await app.inject({ method: 'GET', url: '/api/user/plan' })).statusCode).toBe(401);
    });

    it('gives a free user the free limits', async () => {
      const user = await createUser(app);
      const response = await as(app, user.cookie)({ method: 'GET', url: '/api/user/plan' });
      expect(response.statusCode).toBe(200);
      expect(userPlanSchema.parse(response.json())).toMatchObject({
        planId: 'free',
        name: 'Free',
        limitsPlanId: 'free',
        newsletterLimit: 5,
        campaignLimit: 3,
        countryLimit: 1,
        categoryLimit: 1,
      });
    });

    it('gives an active paid user the plan limits, an unpaid one the free limits', async () => {
      const paid = await createUser(app, { plan: 'professional', status: 'active', periodEnd: future() });
      const paidPlan = (await as(app, paid.cookie)({ method: 'GET', url: '/api/user/plan' })).json();
      expect(paidPlan).toMatchObject({
        planId: 'professional',
        name: 'Growth',
        limitsPlanId: 'professional',
        newsletterLimit: -1,
        campaignLimit: -1,
        recipientLimit: 50_000,
        subscriptionStatus: 'active',
      });
      const unpaid = await createUser(app, { plan: 'professional', status: 'incomplete' });
      const unpaidPlan = (await as(app, unpaid.cookie)({ method: 'GET', url: '/api/user/plan' })).json();
      expect(unpaidPlan).toMatchObject({ planId: 'professional', limitsPlanId: 'free', campaignLimit: 3 });
    });
  });

  describe('plan limits service', () => {
    it('returns the limits of the plan in force', async () => {
      const user = await createUser(app, { plan: 'starter', status: 'active', periodEnd: future() });
      expect(await getPlanLimits({ db: app.services.db, userId: user.user.id })).toEqual({
        planId: 'starter',
        planName: 'Starter',
        campaigns: 20,
        newsletters: 20,
        recipients: 10_000,
        senderAccounts: 3,
        countries: -1,
        categories: -1,
        downloads: 2_000,
        verifications: 5_000,
      });
    });

    async function refusal(
      userId: string,
      limit: Parameters<typeof assertWithinLimit>[0]['limit'],
      used: number,
      adding = 1,
    ) {
      try {
        await assertWithinLimit({ db: app.services.db, userId, limit, used, adding });
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('forbidden');
        return (error as AppError).message;
      }
      return null;
    }

    it('allows what fits and refuses the rest with a message naming the limit and the upgrade', async () => {
      const free = await createUser(app);
      const id = free.user.id;
      expect(await refusal(id, 'campaigns', 2)).toBeNull();
      expect(await refusal(id, 'campaigns', 3)).toBe(
        'Your Free plan allows 3 campaigns a month. Upgrade to Starter for 20.',
      );
      expect(await refusal(id, 'newsletters', 5)).toBe(
        'Your Free plan allows 5 newsletters a month. Upgrade to Starter for 20.',
      );
      expect(await refusal(id, 'recipients', 400, 200)).toBe(
        'Your Free plan allows 500 recipients. Upgrade to Starter for 10,000.',
      );
      expect(await refusal(id, 'recipients', 0, 20_000)).toBe(
        'Your Free plan allows 500 recipients. Upgrade to Growth for 50,000.',
      );
      expect(await refusal(id, 'countries', 1)).toBe(
        'Your Free plan allows 1 country. Upgrade to Starter for all countries.',
      );
      expect(await refusal(id, 'categories', 1)).toBe(
        'Your Free plan allows 1 business category. Upgrade to Starter for all categories.',
      );
      expect(await refusal(id, 'senderAccounts', 1)).toBe(
        'Your Free plan allows 1 sender account. Upgrade to Starter for 3.',
      );

      const starter = await createUser(app, { plan: 'starter', status: 'active', periodEnd: future() });
      expect(await refusal(starter.user.id, 'campaigns', 20)).toBe(
        'Your Starter plan allows 20 campaigns a month. Upgrade to Growth for unlimited campaigns.',
      );
      expect(await refusal(starter.user.id, 'countries', 500)).toBeNull();

      const pro = await createUser(app, { plan: 'enterprise', status: 'active', periodEnd: future() });
      expect(await refusal(pro.user.id, 'senderAccounts', 40)).toBe(
        'Your Pro plan allows 40 sender accounts. Contact us if you need more.',
      );
      expect(await refusal(pro.user.id, 'recipients', 5_000_000)).toBeNull();
    });

    it('formats singular and unlimited limits', () => {
      expect(limitMessage({ kind: 'campaigns', plan: { name: 'Free' }, limit: 1, next: null })).toBe(
        'Your Free plan allows 1 campaign a month. Contact us if you need more.',
      );
    });
  });

  describe('admin editing', () => {
    it('lets a super admin edit a plan, audited, and the public list follows', async () => {
      const response = await as(
        app,
        admin.cookie,
      )({
        method: 'PATCH',
        url: '/api/admin/pricing-plans/professional',
        payload: { newsletterLimit: 1000, description: 'Now with more' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: 'professional',
        newsletterLimit: 1000,
        description: 'Now with more',
      });
      const list = (await app.inject({ method: 'GET', url: '/api/pricing-plans' })).json<PricingPlan[]>();
      expect(list.find((p) => p.id === 'professional')).toMatchObject({ newsletterLimit: 1000 });

      const audit = await as(app, admin.cookie)({ method: 'GET', url: '/api/admin/audit-log?pageSize=100' });
      const entry = audit
        .json<{ entries: AuditEntry[] }>()
        .entries.find((e) => e.action === 'pricing_plan.updated' && e.targetId === 'professional');
      expect(entry).toMatchObject({ actorEmail: admin.email, targetType: 'pricing_plan' });
      expect(entry?.details).toMatchObject({ changes: { newsletterLimit: { from: -1, to: 1000 } } });

      await as(
        app,
        admin.cookie,
      )({
        method: 'PATCH',
        url: '/api/admin/pricing-plans/professional',
        payload: { newsletterLimit: -1, description: DEFAULT_PRICING_PLANS[2]!.description },
      });
    });

    // Prices and availability are read by every payment test; on the shared PostgreSQL database another file
    // could see the edit mid-flight, so these run on the per-file PGlite only.
    it.skipIf(Boolean(inject('databaseUrl')))(
      'prices new payments from the edited plan and hides an inactive plan from the public list',
      async () => {
        const payments = await createPaymentsTestApp();
        const paid = payments.app;
        try {
          const boss = await createUser(paid, { role: 'super_admin' });
          const edit = await as(
            paid,
            boss.cookie,
          )({
            method: 'PATCH',
            url: '/api/admin/pricing-plans/starter',
            payload: { priceMonthly: 1_800_000 },
          });
          expect(edit.statusCode).toBe(200);
          const user = await createUser(paid);
          const init = await as(
            paid,
            user.cookie,
          )({
            method: 'POST',
            url: '/api/payments/initialize',
            payload: { planId: 'starter', interval: 'monthly' },
          });
          expect(init.json()).toMatchObject({ amount: 1_800_000 });

          await as(
            paid,
            boss.cookie,
          )({ method: 'PATCH', url: '/api/admin/pricing-plans/enterprise', payload: { active: false } });
          const list = (await paid.inject({ method: 'GET', url: '/api/pricing-plans' })).json<
            PricingPlan[]
          >();
          expect(list.map((p) => p.id)).not.toContain('enterprise');
          const all = (await as(paid, boss.cookie)({ method: 'GET', url: '/api/admin/pricing-plans' })).json<
            PricingPlan[]
          >();
          expect(all.find((p) => p.id === 'enterprise')?.active).toBe(false);
          const refused = await as(
            paid,
            user.cookie,
          )({
            method: 'POST',
            url: '/api/payments/initialize',
            payload: { planId: 'enterprise', interval: 'monthly' },
          });
          expect(refused.statusCode).toBe(400);
          expect(refused.json().message).toBe(PAYMENT_MESSAGES.planUnavailable);
        } finally {
          await payments.close();
        }
      },
    );

    it('refuses nonsense: unknown plan 404, empty change, a price on Free, a paid plan under ₦100', async () => {
      const patch = (id: string, payload: Record<string, unknown>) =>
        as(app, admin.cookie)({ method: 'PATCH', url: `/api/admin/pricing-plans/${id}`, payload });
      expect((await patch('platinum', { name: 'X' })).statusCode).toBe(404);
      expect((await patch('starter', {})).statusCode).toBe(400);
      expect((await patch('free', { priceMonthly: 100_00 })).statusCode).toBe(400);
      expect((await patch('free', { active: false })).statusCode).toBe(400);
      expect((await patch('starter', { priceMonthly: 50 })).statusCode).toBe(400);
      expect((await patch('starter', { campaignLimit: -5 })).statusCode).toBe(400);
      expect((await patch('starter', { priceMonthly: 12.5 })).statusCode).toBe(400);
    });

    it('is for super admins only', async () => {
      const user = await createUser(app);
      const dataEntry = await createUser(app, { role: 'data_entry' });
      const request = {
        method: 'PATCH' as const,
        url: '/api/admin/pricing-plans/starter',
        payload: { name: 'Hacked' },
      };
      expect((await app.inject(request)).statusCode).toBe(401);
      expect((await as(app, user.cookie)(request)).statusCode).toBe(403);
      expect((await as(app, dataEntry.cookie)(request)).statusCode).toBe(403);
      expect(
        (await as(app, user.cookie)({ method: 'GET', url: '/api/admin/pricing-plans' })).statusCode,
      ).toBe(403);
      const list = (await app.inject({ method: 'GET', url: '/api/pricing-plans' })).json<PricingPlan[]>();
      expect(list.find((p) => p.id === 'starter')?.name).toBe('Starter');
    });
  });
});
