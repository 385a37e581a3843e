import { pricingPlans } from '@server/db/schema/index';
import type { UserStats } from '@shared/campaign-stats';
import type { Lead } from '@shared/leads';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const DAY = 86_400_000;

/*
 * The plan's countryLimit and categoryLimit are real limits: -1 every one, 0 none, N the N a user chose.
 * These tests set the Growth plan's limits (and put them back afterwards).
 */
describe('plan country and category limits', () => {
  let app: FastifyInstance;
  let original: { countryLimit: number; categoryLimit: number };
  let admin: TestUser;
  const tag = uniqueTag();
  const city = `${tag}ville`;

  const setGrowthLimits = async (countryLimit: number, categoryLimit: number) => {
    await app.services.db
      .update(pricingPlans)
      .set({ countryLimit, categoryLimit })
      .where(eq(pricingPlans.id, 'professional'));
  };
  const growthUser = () =>
    createUser(app, { plan: 'professional', status: 'active', periodEnd: new Date(Date.now() + 30 * DAY) });
  const request = (user: TestUser) => as(app, user.cookie);
  const search = (user: TestUser, params: Record<string, string>) =>
    request(user)({ method: 'GET', url: `/api/leads/search?${new URLSearchParams({ city, ...params })}` });
  const count = (user: TestUser, params: Record<string, string>) =>
    request(user)({ method: 'GET', url: `/api/leads/count?${new URLSearchParams({ city, ...params })}` });
  const choose = (user: TestUser, payload: Record<string, unknown>) =>
    request(user)({ method: 'PUT', url: '/api/leads/free-plan-scope', payload });
  const companies = (items: Lead[]) => items.map((lead) => lead.companyName).sort();
  const stats = async (user: TestUser) =>
    (await request(user)({ method: 'GET', url: '/api/user/stats' })).json<UserStats>();

  beforeAll(async () => {
    app = await createTestApp({ LEADS_RATE_LIMIT_MAX: '100000' });
    admin = await createUser(app, { role: 'super_admin' });
    const [growth] = await app.services.db
      .select()
      .from(pricingPlans)
      .where(eq(pricingPlans.id, 'professional'));
    original = { countryLimit: growth!.countryLimit, categoryLimit: growth!.categoryLimit };
    await insertDirectoryContacts(app, tag, [
      { companyName: `${tag} Lagos Freight`, countryCode: 'NG', category: 'logistics' },
      { companyName: `${tag} Lagos Bank`, countryCode: 'NG', category: 'banking' },
      { companyName: `${tag} Accra Freight`, countryCode: 'GH', category: 'logistics' },
      { companyName: `${tag} Nairobi Freight`, countryCode: 'KE', category: 'logistics' },
      { companyName: `${tag} Durban Freight`, countryCode: 'ZA', category: 'logistics' },
    ]);
  });
  afterAll(async () => {
    await setGrowthLimits(original.countryLimit, original.categoryLimit);
    await app.close();
  });

  describe('a plan with 3 countries and every category', () => {
    beforeEach(() => setGrowthLimits(3, -1));

    it('asks for the choice first, naming how many the plan includes', async () => {
      const user = await growthUser();
      const scope = await request(user)({ method: 'GET', url: '/api/leads/free-plan-scope' });
      expect(scope.json()).toEqual({ restricted: true, scope: null, updatedAt: null });
      const refused = await search(user, {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ reason: 'free_scope_required' });
      expect(refused.json().message).toBe(
        'Choose the 3 countries your Growth plan includes before searching the directory.',
      );
    });

    it('searches the 3 chosen countries, narrows within them, and refuses a 4th', async () => {
      const user = await growthUser();
      const saved = await choose(user, { countryCodes: ['NG', 'GH', 'KE'] });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().scope).toMatchObject({ countryCodes: ['NG', 'GH', 'KE'], categories: [] });

      // Every chosen country, every category (the plan does not limit categories).
      expect(companies((await search(user, {})).json().items)).toEqual([
        `${tag} Accra Freight`,
        `${tag} Lagos Bank`,
        `${tag} Lagos Freight`,
        `${tag} Nairobi Freight`,
      ]);
      expect((await count(user, {})).json().count).toBe(4);
      expect(companies((await search(user, { country: 'GH,KE' })).json().items)).toEqual([
        `${tag} Accra Freight`,
        `${tag} Nairobi Freight`,
      ]);
      expect((await search(user, { category: 'banking' })).json().items).toHaveLength(1);

      const outside = await search(user, { country: 'ZA' });
      expect(outside.statusCode).toBe(403);
      expect(outside.json().reason).toBe('plan_restricted');
      expect(outside.json().message).toContain('Your Growth plan includes 3 countries');
      expect(outside.json().message).toContain('Nigeria, Ghana, Kenya · all categories');
      expect((await count(user, { country: 'NG,ZA' })).statusCode).toBe(403);

      const fourth = await choose(user, { countryCodes: ['NG', 'GH', 'KE', 'ZA'] });
      expect(fourth.statusCode).toBe(403);
      expect(fourth.json()).toMatchObject({ reason: 'plan_limit', limit: 'countries', allowed: 3 });
      expect(fourth.json().message).toBe(
        'Your Growth plan allows 3 countries. Upgrade to Pro for all countries.',
      );
      // The refused choice changed nothing.
      expect((await search(user, {})).json().items).toHaveLength(4);
    });

    it('adds only contacts of the chosen countries to a list, and counts them as available', async () => {
      const user = await growthUser();
      await choose(user, { countryCodes: ['NG', 'GH', 'KE'] });
      const add = (payload: Record<string, unknown>) =>
        request(user)({ method: 'POST', url: '/api/leads/add-to-list', payload });
      expect((await add({ newListName: 'South Africa', allMatching: { country: ['ZA'] } })).statusCode).toBe(
        403,
      );

      const all = await request(admin)({
        method: 'GET',
        url: `/api/leads/search?${new URLSearchParams({ city })}`,
      });
      const ids = all.json().items.map((lead: Lead) => lead.id);
      expect(ids).toHaveLength(5);
      const added = await add({ newListName: 'Chosen', contactIds: ids });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json()).toMatchObject({ added: 4 });

      expect(await stats(user)).toMatchObject({ availableContactsScope: 'plan_scope' });
    });
  });

  it('lets a plan with every country (-1) search everything without a choice', async () => {
    await setGrowthLimits(-1, -1);
    const user = await growthUser();
    const scope = await request(user)({ method: 'GET', url: '/api/leads/free-plan-scope' });
    expect(scope.json().restricted).toBe(false);
    expect((await search(user, { country: 'ZA' })).json().items).toHaveLength(1);
    expect((await search(user, {})).json().items).toHaveLength(5);
    expect((await stats(user)).availableContactsScope).toBe('all');
  });

  it('refuses the directory to a plan with no country (0), with the plan-limit reason', async () => {
    await setGrowthLimits(0, -1);
    const user = await growthUser();
    for (const response of [await search(user, {}), await count(user, {})]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ reason: 'plan_limit', limit: 'countries', allowed: 0 });
      expect(response.json().message).toContain('Your Growth plan does not include any country');
      expect(response.json().message).toContain('Upgrade to Pro');
    }
    const chosen = await choose(user, { countryCodes: ['NG'] });
    expect(chosen.statusCode).toBe(403);
    expect(chosen.json().reason).toBe('plan_limit');
    expect(await stats(user)).toMatchObject({ availableContacts: 0, availableContactsScope: 'plan_scope' });
  });

  it('limits categories the same way', async () => {
    await setGrowthLimits(-1, 2);
    const user = await growthUser();
    expect((await choose(user, { categories: ['logistics', 'banking', 'bakeries'] })).statusCode).toBe(403);
    expect((await choose(user, { countryCodes: ['NG'] })).statusCode).toBe(400);
    expect((await choose(user, { categories: ['banking'] })).statusCode).toBe(200);
    expect(companies((await search(user, {})).json().items)).toEqual([`${tag} Lagos Bank`]);
    expect((await search(user, { category: 'logistics' })).json().reason).toBe('plan_restricted');
  });
});
