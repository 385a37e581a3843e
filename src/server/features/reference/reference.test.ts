import { BUSINESS_CATEGORIES, categoriesMatching } from '@shared/categories';
import type { Country } from '@shared/reference';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('reference data API', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('lists every ISO country with flag, currency and time zones, marking those with contacts', async () => {
    // Antarctica: no other test puts contacts there. Inserted before the first request (counts are cached).
    await insertDirectoryContacts(app, uniqueTag(), [{ countryCode: 'AQ' }, { countryCode: 'AQ' }]);
    const response = await app.inject({ method: 'GET', url: '/api/reference/countries' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    const countries = response.json<{ countries: Country[] }>().countries;
    expect(countries.length).toBeGreaterThanOrEqual(249);
    const nigeria = countries.find((c) => c.code === 'NG');
    expect(nigeria).toMatchObject({
      name: 'Nigeria',
      flag: '🇳🇬',
      currency: 'NGN',
      phoneCode: '+234',
      timezones: ['Africa/Lagos'],
    });
    const antarctica = countries.find((c) => c.code === 'AQ')!;
    expect(antarctica.active).toBe(true);
    expect(antarctica.contactCount).toBeGreaterThanOrEqual(2);
    expect(countries.find((c) => c.code === 'TV')).toMatchObject({ active: false, contactCount: 0 });
    const names = countries.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it("lists a country's cities, sorted, with an accent-insensitive prefix filter and a cap", async () => {
    const all = await app.inject({ method: 'GET', url: '/api/reference/countries/ng/cities' });
    expect(all.statusCode).toBe(200);
    expect(all.headers['cache-control']).toBe('public, max-age=86400');
    const body = all.json<{ countryCode: string; cities: { name: string }[]; truncated: boolean }>();
    expect(body.countryCode).toBe('NG');
    const names = body.cities.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['Lagos', 'Abuja', 'Kano', 'Ibadan', 'Port Harcourt']));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));

    const filtered = await app.inject({ method: 'GET', url: '/api/reference/countries/NG/cities?q=lag' });
    expect(filtered.json().cities.map((c: { name: string }) => c.name)).toContain('Lagos');
    expect(
      filtered.json().cities.every((c: { name: string }) => c.name.toLowerCase().startsWith('lag')),
    ).toBe(true);

    const accents = await app.inject({ method: 'GET', url: '/api/reference/countries/BR/cities?q=sao%20pa' });
    expect(accents.json().cities.map((c: { name: string }) => c.name)).toContain('São Paulo');

    const capped = await app.inject({ method: 'GET', url: '/api/reference/countries/US/cities?limit=20' });
    expect(capped.json().cities).toHaveLength(20);
    expect(capped.json().truncated).toBe(true);

    expect((await app.inject({ method: 'GET', url: '/api/reference/countries/XX/cities' })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: 'GET', url: '/api/reference/countries/NGA/cities' })).statusCode).toBe(
      400,
    );
  });

  it('lists 90+ business categories in groups, with synonyms', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/reference/categories' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    const body = response.json<{
      groups: string[];
      categories: { slug: string; group: string; synonyms: string[] }[];
    }>();
    expect(body.categories.length).toBeGreaterThanOrEqual(90);
    expect(new Set(body.categories.map((c) => c.slug)).size).toBe(body.categories.length);
    for (const category of body.categories) expect(body.groups).toContain(category.group);
    expect(body.categories.find((c) => c.slug === 'logistics')?.synonyms).toEqual(
      expect.arrayContaining(['haulage', 'freight', 'courier']),
    );
  });

  it('maps free text to categories through names and synonyms', () => {
    expect(categoriesMatching('Haulage')).toEqual(['logistics']);
    expect(categoriesMatching('solar')).toEqual(['renewable-energy']);
    expect(categoriesMatching('ab')).toEqual([]);
    expect(BUSINESS_CATEGORIES.every((c) => /^[a-z0-9-]+$/.test(c.slug))).toBe(true);
  });
});
