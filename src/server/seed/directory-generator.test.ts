import { BUSINESS_CATEGORIES } from '@shared/categories';
import { describe, expect, it } from 'vitest';
import { createDirectoryGenerator, SEED_COLUMNS } from './directory-generator';

const column = (name: (typeof SEED_COLUMNS)[number]) => SEED_COLUMNS.indexOf(name);

describe('the synthetic directory generator', () => {
  const next = createDirectoryGenerator({ seed: 7, now: new Date('2026-01-01T00:00:00Z') });
  const rows = Array.from({ length: 20_000 }, () => next());

  it('puts every address and website on a reserved domain, each address once', () => {
    const emails = rows.map((row) => row[column('email')]!);
    for (const email of emails) expect(email).toMatch(/@([a-z0-9-]+\.)+(example\.com|test)$/);
    for (const row of rows) {
      const website = row[column('website')];
      if (website) expect(new URL(website).hostname).toMatch(/\.(example\.com|test)$/);
    }
    expect(new Set(emails).size).toBe(emails.length);
  });

  it('spreads businesses over 70+ countries and 90+ known categories', () => {
    const countries = new Set(rows.map((row) => row[column('country_code')]));
    const categories = new Set(rows.map((row) => row[column('category')]));
    expect(countries.size).toBeGreaterThanOrEqual(70);
    expect(categories.size).toBeGreaterThanOrEqual(90);
    const known = new Set<string>(BUSINESS_CATEGORIES.map((category) => category.slug));
    for (const slug of categories) expect(known.has(slug!)).toBe(true);
  });

  it('gives the same rows for the same seed', () => {
    const again = createDirectoryGenerator({ seed: 7, now: new Date('2026-01-01T00:00:00Z') });
    expect(Array.from({ length: 50 }, () => again())).toEqual(rows.slice(0, 50));
  });
});
