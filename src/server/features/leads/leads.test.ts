import { LEAD_COUNT_EXACT_CAP } from '@shared/contacts';
import type { Lead } from '@shared/leads';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DAY = 86_400_000;

describe('lead discovery API', () => {
  let app: FastifyInstance;
  let premium: TestUser;
  beforeAll(async () => {
    app = await createTestApp({ LEADS_RATE_LIMIT_MAX: '100000' });
    premium = await createUser(app, {
      plan: 'starter',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * DAY),
    });
  });
  afterAll(() => app.close());

  const query = (params: Record<string, string | string[] | boolean | number>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
    }
    return search.toString();
  };
  const search = async (user: TestUser, params: Record<string, string | string[] | boolean | number>) =>
    as(app, user.cookie)({ method: 'GET', url: `/api/leads/search?${query(params)}` });
  const count = async (user: TestUser, params: Record<string, string | string[] | boolean | number>) =>
    as(app, user.cookie)({ method: 'GET', url: `/api/leads/count?${query(params)}` });
  const companies = (items: Lead[]) => items.map((lead) => lead.companyName);

  /** Every page of a search, following nextCursor. */
  async function allPages(user: TestUser, params: Record<string, string | string[] | boolean | number>) {
    const seen: Lead[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await search(user, { ...params, ...(cursor ? { cursor } : {}) });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ items: Lead[]; nextCursor: string | null }>();
      seen.push(...body.items);
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    return { seen, pages };
  }

  it('answers 401 without a session', async () => {
    for (const url of ['/api/leads/search', '/api/leads/count', '/api/leads/free-plan-scope']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    const add = await app.inject({
      method: 'POST',
      url: '/api/leads/add-to-list',
      payload: { newListName: 'x', contactIds: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(add.statusCode).toBe(401);
  });

  describe('filters', () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    beforeAll(async () => {
      await insertDirectoryContacts(app, tag, [
        {
          companyName: `${tag} Alpha Haulage`,
          countryCode: 'NG',
          category: 'logistics',
          verificationStatus: 'verified',
          phone: '+234 803 000 0001',
          website: 'https://alpha.example.com',
        },
        {
          companyName: `${tag} Bravo Bank`,
          countryCode: 'NG',
          category: 'banking',
          phone: '+234 803 000 0002',
          website: 'https://bravo.example.com',
        },
        {
          companyName: `${tag} Charlie Couriers`,
          countryCode: 'GH',
          category: 'logistics',
          verificationStatus: 'verified',
          contactName: 'Kwame Mensah',
        },
        {
          companyName: `${tag} Delta Invalid`,
          countryCode: 'GH',
          category: 'banking',
          verificationStatus: 'invalid',
          invalidReason: 'bounced',
        },
        {
          companyName: `${tag} Echo Deleted`,
          countryCode: 'NG',
          category: 'logistics',
          deletedAt: new Date(),
        },
        {
          companyName: `${tag} Foxtrot Elsewhere`,
          countryCode: 'KE',
          category: 'logistics',
          city: `${tag}-other`,
        },
      ]);
    });

    const cases: [string, Record<string, string | string[] | boolean>, string[]][] = [
      [
        'city only (invalid and deleted contacts never show)',
        {},
        ['Alpha Haulage', 'Bravo Bank', 'Charlie Couriers'],
      ],
      ['one country', { country: 'GH' }, ['Charlie Couriers']],
      [
        'several countries, lower case',
        { country: ['ng', 'gh'] },
        ['Alpha Haulage', 'Bravo Bank', 'Charlie Couriers'],
      ],
      ['comma-separated countries', { country: 'GH,KE' }, ['Charlie Couriers']],
      ['one category', { category: 'logistics' }, ['Alpha Haulage', 'Charlie Couriers']],
      ['country and category', { country: ['NG', 'GH'], category: 'banking' }, ['Bravo Bank']],
      ['verified only', { verifiedOnly: true }, ['Alpha Haulage', 'Charlie Couriers']],
      ['has phone', { hasPhone: true }, ['Alpha Haulage', 'Bravo Bank']],
      ['has website', { hasWebsite: 'true' }, ['Alpha Haulage', 'Bravo Bank']],
      [
        'verified with phone and website',
        { verifiedOnly: true, hasPhone: true, hasWebsite: true },
        ['Alpha Haulage'],
      ],
      ['keyword on the company name, any case', { q: 'BRAVO' }, ['Bravo Bank']],
      ['keyword on the contact name', { q: 'mensah' }, ['Charlie Couriers']],
      ['keyword naming a category synonym', { q: 'haulage' }, ['Alpha Haulage', 'Charlie Couriers']],
      ['keyword with no match', { q: 'nothing-like-this' }, []],
    ];

    it.each(cases)('filters by %s, and the count agrees', async (_label, params, expected) => {
      const response = await search(premium, { city, ...params });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ items: Lead[]; nextCursor: string | null }>();
      expect(companies(body.items)).toEqual(expected.map((name) => `${tag} ${name}`));
      expect(body.nextCursor).toBeNull();
      const counted = await count(premium, { city, ...params });
      expect(counted.statusCode, counted.body).toBe(200);
      expect(counted.json()).toEqual({ count: expected.length, capped: false });
    });

    it('counts a category word as that whole category plus names in other categories', async () => {
      const other = uniqueTag();
      const otherCity = `${other}ville`;
      await insertDirectoryContacts(app, other, [
        { companyName: `${other} Kano Haulage`, category: 'logistics' },
        { companyName: `${other} Express Couriers`, category: 'logistics' },
        { companyName: `${other} Haulage Finance`, category: 'banking' },
        { companyName: `${other} Plain Bank`, category: 'banking' },
      ]);
      const expectations: [Record<string, string>, string[]][] = [
        [{ q: 'haulage' }, ['Express Couriers', 'Haulage Finance', 'Kano Haulage']],
        [{ q: 'haulage', category: 'banking' }, ['Haulage Finance']],
        [{ q: 'haulage', category: 'logistics' }, ['Express Couriers', 'Kano Haulage']],
      ];
      for (const [params, expected] of expectations) {
        const found = await search(premium, { city: otherCity, ...params });
        expect(companies(found.json().items)).toEqual(expected.map((name) => `${other} ${name}`));
        expect((await count(premium, { city: otherCity, ...params })).json()).toEqual({
          count: expected.length,
          capped: false,
        });
      }
    });

    it('finds a city in another country by its own name', async () => {
      const response = await search(premium, { city: `${tag}-other` });
      expect(companies(response.json().items)).toEqual([`${tag} Foxtrot Elsewhere`]);
      expect((await count(premium, { city: [`${tag}-other`, city] })).json().count).toBe(4);
    });

    it('shows the fields a user needs to judge a lead', async () => {
      const response = await search(premium, { city, q: 'alpha' });
      expect(response.json().items[0]).toMatchObject({
        companyName: `${tag} Alpha Haulage`,
        countryCode: 'NG',
        category: 'logistics',
        city,
        phone: '+234 803 000 0001',
        website: 'https://alpha.example.com',
        verified: true,
      });
    });

    it('refuses an unknown category, a bad country code and a keyword under 3 characters', async () => {
      expect((await search(premium, { category: 'astrology' })).statusCode).toBe(400);
      expect((await search(premium, { country: 'Nigeria' })).statusCode).toBe(400);
      const short = await search(premium, { q: 'ab' });
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toBe('Type at least 3 characters to search by name.');
      expect((await search(premium, { limit: 101 })).statusCode).toBe(400);
    });
  });

  describe('keyword counts stop at the cap', () => {
    /** Inserts `n` live contacts in one statement (the roll-up triggers run once for it). */
    const bulkInsert = async (options: {
      tag: string;
      from: number;
      n: number;
      name: string;
      category: string;
      city: string;
    }) => {
      await app.services.db.execute(sql`
        INSERT INTO directory_contacts (company_name, email, country_code, category, city, source)
        SELECT ${options.name} || ' ' || g, ${options.tag.toLowerCase()} || '-' || g || '@example.test', 'NG',
          ${options.category}, ${options.city}, 'seed'
        FROM generate_series(${options.from}::int, ${options.from + options.n - 1}::int) AS g`);
    };

    it('counts name matches exactly up to the cap, then says "at least", and pages on', async () => {
      const tag = uniqueTag();
      const city = `${tag}ville`;
      const params = { city, q: tag.toLowerCase() };
      await bulkInsert({
        tag,
        from: 1,
        n: LEAD_COUNT_EXACT_CAP,
        name: `${tag} Widget`,
        category: 'banking',
        city,
      });
      expect((await count(premium, params)).json()).toEqual({ count: LEAD_COUNT_EXACT_CAP, capped: false });

      await bulkInsert({
        tag,
        from: LEAD_COUNT_EXACT_CAP + 1,
        n: 1,
        name: `${tag} Widget`,
        category: 'banking',
        city,
      });
      expect((await count(premium, params)).json()).toEqual({ count: LEAD_COUNT_EXACT_CAP, capped: true });

      // The count stopping early does not stop the listing: the cursor still walks on.
      const first = (await search(premium, { ...params, limit: 100 })).json();
      const second = (await search(premium, { ...params, limit: 100, cursor: first.nextCursor })).json();
      expect(first.items).toHaveLength(100);
      expect(second.items).toHaveLength(100);
      expect(new Set([...first.items, ...second.items].map((lead: Lead) => lead.id)).size).toBe(200);
      expect(second.nextCursor).not.toBeNull();
    }, 120_000);

    it("adds names outside a category word's category only up to the cap; a larger category is a lower bound", async () => {
      const tag = uniqueTag();
      const city = `${tag}ville`;
      const params = { city, q: 'haulage' };
      const cap = LEAD_COUNT_EXACT_CAP;
      await bulkInsert({ tag, from: 1, n: cap - 1, name: `${tag} Movers`, category: 'logistics', city });
      await bulkInsert({ tag, from: cap, n: 1, name: `${tag} Haulage Finance`, category: 'banking', city });
      await bulkInsert({ tag, from: cap + 1, n: 1, name: `${tag} Plain Bank`, category: 'banking', city });
      expect((await count(premium, params)).json()).toEqual({ count: cap, capped: false });

      await bulkInsert({
        tag,
        from: cap + 2,
        n: 1,
        name: `${tag} Haulage Credit`,
        category: 'banking',
        city,
      });
      expect((await count(premium, params)).json()).toEqual({ count: cap, capped: true });

      // The category alone passes the cap: its exact size from the roll-up, as a lower bound.
      await bulkInsert({ tag, from: cap + 3, n: 2, name: `${tag} Movers`, category: 'logistics', city });
      expect((await count(premium, params)).json()).toEqual({ count: cap + 1, capped: true });
      const first = (await search(premium, { ...params, limit: 100 })).json();
      expect(first.items).toHaveLength(100);
      expect(first.nextCursor).not.toBeNull();
    }, 120_000);
  });

  describe('keyset paging', () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    beforeAll(async () => {
      // Shuffled names with ties, so paging must order by (name, id) to neither skip nor repeat.
      const names = Array.from(
        { length: 23 },
        (_, i) => `${tag} ${['Kola', 'Baobab', 'Ube', 'Agbalumo'][i % 4]} ${Math.floor(i / 8)}`,
      );
      await insertDirectoryContacts(
        app,
        tag,
        names.map((companyName) => ({ companyName })),
      );
    });

    it.each(['company_asc', 'company_desc', 'newest'])('walks every row once, sorted %s', async (sort) => {
      const { seen, pages } = await allPages(premium, { city, sort, limit: 5 });
      expect(pages).toBe(5);
      expect(seen).toHaveLength(23);
      expect(new Set(seen.map((lead) => lead.id)).size).toBe(23);
      const names = companies(seen);
      if (sort === 'company_asc')
        expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      if (sort === 'company_desc')
        expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
      if (sort === 'newest') {
        const times = seen.map((lead) => Date.parse(lead.createdAt));
        expect(times).toEqual([...times].sort((a, b) => b - a));
      }
    });

    it('refuses a cursor made for another sort or tampered with', async () => {
      const first = (await search(premium, { city, sort: 'company_asc', limit: 5 })).json();
      expect((await search(premium, { city, sort: 'newest', cursor: first.nextCursor })).statusCode).toBe(
        400,
      );
      expect((await search(premium, { city, cursor: 'not-a-cursor' })).statusCode).toBe(400);
    });
  });

  describe('free plan scope (one country, one category)', () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    beforeAll(async () => {
      await insertDirectoryContacts(app, tag, [
        { companyName: `${tag} Lagos Freight`, countryCode: 'NG', category: 'logistics' },
        { companyName: `${tag} Lagos Bank`, countryCode: 'NG', category: 'banking' },
        { companyName: `${tag} Accra Freight`, countryCode: 'GH', category: 'logistics' },
      ]);
    });

    it('asks a free user to choose a scope first', async () => {
      const free = await createUser(app);
      const scope = await as(app, free.cookie)({ method: 'GET', url: '/api/leads/free-plan-scope' });
      expect(scope.json()).toEqual({ restricted: true, scope: null, updatedAt: null });
      const response = await search(free, { city });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'forbidden', reason: 'free_scope_required' });
      expect((await count(free, { city })).statusCode).toBe(403);
    });

    it('keeps a free user inside the chosen country and category, and lets them change it', async () => {
      const free = await createUser(app);
      const put = await as(
        app,
        free.cookie,
      )({
        method: 'PUT',
        url: '/api/leads/free-plan-scope',
        payload: { countryCode: 'ng', category: 'logistics' },
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json()).toMatchObject({
        restricted: true,
        scope: { countryCode: 'NG', category: 'logistics' },
      });

      // No filters: the scope applies.
      expect(companies((await search(free, { city })).json().items)).toEqual([`${tag} Lagos Freight`]);
      expect((await count(free, { city })).json().count).toBe(1);
      expect((await search(free, { city, country: 'NG', category: 'logistics' })).statusCode).toBe(200);

      const outsideScope: Record<string, string | string[]>[] = [
        { country: 'GH' },
        { category: 'banking' },
        { country: ['NG', 'GH'] },
      ];
      for (const params of outsideScope) {
        const outside = await search(free, { city, ...params });
        expect(outside.statusCode).toBe(403);
        expect(outside.json().reason).toBe('plan_restricted');
        expect(outside.json().message).toContain('Nigeria · Logistics & Freight');
        expect(outside.json().message).toContain('Upgrade to Starter, Growth or Pro');
        expect((await count(free, { city, ...params })).statusCode).toBe(403);
      }

      await as(
        app,
        free.cookie,
      )({
        method: 'PUT',
        url: '/api/leads/free-plan-scope',
        payload: { countryCode: 'GH', category: 'logistics' },
      });
      expect(companies((await search(free, { city })).json().items)).toEqual([`${tag} Accra Freight`]);
      expect((await search(free, { city, country: 'NG' })).statusCode).toBe(403);
    });

    it('refuses an unknown category as a scope', async () => {
      const free = await createUser(app);
      const put = await as(
        app,
        free.cookie,
      )({
        method: 'PUT',
        url: '/api/leads/free-plan-scope',
        payload: { countryCode: 'NG', category: 'nope' },
      });
      expect(put.statusCode).toBe(400);
    });

    it('restricts a paid plan whose subscription lapsed, and nobody on a valid paid plan or staff', async () => {
      const lapsed = await createUser(app, {
        plan: 'starter',
        status: 'past_due',
        periodEnd: new Date(Date.now() - DAY),
      });
      expect((await search(lapsed, { city, country: 'GH' })).statusCode).toBe(403);

      const scope = await as(app, premium.cookie)({ method: 'GET', url: '/api/leads/free-plan-scope' });
      expect(scope.json().restricted).toBe(false);
      expect((await search(premium, { city })).json().items).toHaveLength(3);

      const admin = await createUser(app, { role: 'super_admin' });
      expect((await search(admin, { city, country: ['NG', 'GH'] })).json().items).toHaveLength(3);
    });
  });

  describe('add to list', () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    let ids: string[];
    beforeAll(async () => {
      const rows = await insertDirectoryContacts(app, tag, [
        {
          companyName: `${tag} One`,
          contactName: 'Ngozi Adeyemi Okoro',
          email: `info@${tag.toLowerCase()}.example.com`,
        },
        { companyName: `${tag} Two`, contactName: 'Sipho', phone: '+27 21 000 0000' },
        { companyName: `${tag} Three`, countryCode: 'GH' },
        { companyName: `${tag} Four`, countryCode: 'GH', verificationStatus: 'verified' },
      ]);
      ids = rows.map((row) => row.id);
    });

    const add = (user: TestUser, payload: Record<string, unknown>) =>
      as(app, user.cookie)({ method: 'POST', url: '/api/leads/add-to-list', payload });

    it('copies chosen contacts into a new list, then skips the ones already there', async () => {
      const user = await createUser(app, {
        plan: 'starter',
        status: 'active',
        periodEnd: new Date(Date.now() + DAY),
      });
      const first = await add(user, { newListName: `${tag} prospects`, contactIds: ids.slice(0, 2) });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({
        listName: `${tag} prospects`,
        added: 2,
        skippedDuplicates: 0,
        contactCount: 2,
      });
      const listId = first.json().listId;

      const again = await add(user, { listId, contactIds: ids.slice(0, 3) });
      expect(again.json()).toMatchObject({ added: 1, skippedDuplicates: 2, contactCount: 3 });

      const members = await as(app, user.cookie)({ method: 'GET', url: `/api/lists/${listId}/contacts` });
      const byCompany = Object.fromEntries(
        members.json().items.map((c: { company: string }) => [c.company, c]),
      );
      expect(byCompany[`${tag} One`]).toMatchObject({
        email: `info@${tag.toLowerCase()}.example.com`,
        firstName: 'Ngozi',
        lastName: 'Adeyemi Okoro',
        roleAddress: true,
        source: 'lead_discovery',
        directoryContactId: ids[0],
        countryCode: 'NG',
        city,
      });
      expect(byCompany[`${tag} Two`]).toMatchObject({
        firstName: 'Sipho',
        lastName: null,
        phone: '+27 21 000 0000',
        roleAddress: false,
      });
      const list = await as(app, user.cookie)({ method: 'GET', url: `/api/lists/${listId}` });
      expect(list.json().contactCount).toBe(3);
    });

    it('adds all contacts matching the filters', async () => {
      const user = await createUser(app, {
        plan: 'starter',
        status: 'active',
        periodEnd: new Date(Date.now() + DAY),
      });
      const response = await add(user, {
        newListName: `${tag} ghana`,
        allMatching: { city: [city], country: ['GH'] },
      });
      expect(response.json()).toMatchObject({ added: 2, skippedDuplicates: 0 });
      const verified = await add(user, {
        listId: response.json().listId,
        allMatching: { city: [city], verifiedOnly: true },
      });
      expect(verified.json()).toMatchObject({ added: 0, skippedDuplicates: 1, contactCount: 2 });
    });

    it("answers 404 for another user's list and 409 for a list name already taken", async () => {
      const owner = await createUser(app, {
        plan: 'starter',
        status: 'active',
        periodEnd: new Date(Date.now() + DAY),
      });
      const other = await createUser(app, {
        plan: 'starter',
        status: 'active',
        periodEnd: new Date(Date.now() + DAY),
      });
      const created = await add(owner, { newListName: 'Mine', contactIds: [ids[0]] });
      const stolen = await add(other, { listId: created.json().listId, contactIds: [ids[1]] });
      expect(stolen.statusCode).toBe(404);
      const taken = await add(owner, { newListName: 'MINE', contactIds: [ids[1]] });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe('You already have a list with this name.');
    });

    it('needs exactly one target list and one source of contacts', async () => {
      const user = await createUser(app, {
        plan: 'starter',
        status: 'active',
        periodEnd: new Date(Date.now() + DAY),
      });
      expect((await add(user, { contactIds: [ids[0]] })).statusCode).toBe(400);
      expect((await add(user, { newListName: 'x' })).statusCode).toBe(400);
      expect((await add(user, { newListName: 'x', contactIds: [ids[0]], allMatching: {} })).statusCode).toBe(
        400,
      );
    });

    it('keeps a free user inside their scope when adding', async () => {
      const free = await createUser(app);
      await as(
        app,
        free.cookie,
      )({
        method: 'PUT',
        url: '/api/leads/free-plan-scope',
        payload: { countryCode: 'GH', category: 'logistics' },
      });
      const outside = await add(free, { newListName: 'Nigeria', allMatching: { country: ['NG'] } });
      expect(outside.statusCode).toBe(403);
      // Chosen ids outside the scope are not copied.
      const mixed = await add(free, { newListName: 'Mixed', contactIds: ids });
      expect(mixed.json()).toMatchObject({ added: 2, skippedDuplicates: 0 });
    });
  });

  it('refuses to pass the Free plan recipient limit (500) and adds nothing', async () => {
    const tag = uniqueTag();
    await insertDirectoryContacts(
      app,
      tag,
      Array.from({ length: 501 }, () => ({})),
    );
    const free = await createUser(app);
    await as(
      app,
      free.cookie,
    )({
      method: 'PUT',
      url: '/api/leads/free-plan-scope',
      payload: { countryCode: 'NG', category: 'logistics' },
    });
    const response = await as(
      app,
      free.cookie,
    )({
      method: 'POST',
      url: '/api/leads/add-to-list',
      payload: { newListName: 'Too many', allMatching: { city: [`${tag}ville`] } },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ reason: 'plan_limit', limit: 'recipients', allowed: 500 });
    expect(response.json().message).toContain('500');
    const lists = await as(app, free.cookie)({ method: 'GET', url: '/api/lists' });
    expect(lists.json().lists).toEqual([]);

    const fits = await as(
      app,
      free.cookie,
    )({
      method: 'POST',
      url: '/api/leads/add-to-list',
      payload: { newListName: 'Fits', allMatching: { city: [`${tag}ville`], q: `${tag} Company 00` } },
    });
    expect(fits.json()).toMatchObject({ added: 10 });
  });

  it('rate-limits searches', async () => {
    const limited = await createTestApp({ LEADS_RATE_LIMIT_MAX: '3' });
    try {
      const user = await createUser(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await as(limited, user.cookie)({ method: 'GET', url: '/api/leads/count?country=NG' })).statusCode,
        );
      }
      expect(statuses.slice(0, 3)).not.toContain(429);
      expect(statuses[3]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
