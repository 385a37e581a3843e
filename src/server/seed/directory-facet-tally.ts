import { SEED_COLUMNS, type SeedRow } from './directory-generator';

/*
 * The audience roll-up (directory_facet_counts) of a bulk load, counted while the rows are generated.
 * Scanning ten million freshly loaded rows to rebuild it cost minutes; counting them here costs a map
 * update per row. The rules are directory_facets_rebuild()'s: invalid and deleted rows are left out,
 * every row counts under its city and under the country-and-category total (city ''), an empty city
 * counts only in that total.
 */

const column = (name: (typeof SEED_COLUMNS)[number]) => SEED_COLUMNS.indexOf(name);
const CITY = column('city');
const COUNTRY = column('country_code');
const CATEGORY = column('category');
const STATUS = column('verification_status');
const PHONE = column('phone');
const WEBSITE = column('website');

/** total, verified, with_phone, with_website, verified_phone, verified_website, phone_website, verified_phone_website */
type Counts = [number, number, number, number, number, number, number, number];

export const FACET_COUNT_COLUMNS = [
  'total',
  'verified',
  'with_phone',
  'with_website',
  'verified_phone',
  'verified_website',
  'phone_website',
  'verified_phone_website',
] as const;

interface CategoryTally {
  /** The country-and-category total (city ''). */
  all: Counts;
  cities: Map<string, Counts>;
}

const zero = (): Counts => [0, 0, 0, 0, 0, 0, 0, 0];

export class FacetTally {
  // Nested maps keyed by the generator's own strings: a composite key built per row cost more than
  // generating the row.
  private readonly countries = new Map<string, Map<string, CategoryTally>>();

  add(row: SeedRow): void {
    const status = row[STATUS];
    if (status === 'invalid') return;
    const v = status === 'verified';
    const p = (row[PHONE] ?? '') !== '';
    const w = (row[WEBSITE] ?? '') !== '';
    const country = row[COUNTRY]!;
    const category = row[CATEGORY]!;
    let categories = this.countries.get(country);
    if (!categories) {
      categories = new Map();
      this.countries.set(country, categories);
    }
    let tally = categories.get(category);
    if (!tally) {
      tally = { all: zero(), cities: new Map() };
      categories.set(category, tally);
    }
    bump(tally.all, v, p, w);
    const city = row[CITY];
    if (city) {
      let counts = tally.cities.get(city);
      if (!counts) {
        counts = zero();
        tally.cities.set(city, counts);
      }
      bump(counts, v, p, w);
    }
  }

  /** One entry per (country, category, city), in the roll-up's column order. */
  rows(): { country: string; category: string; city: string; counts: Counts }[] {
    const out: { country: string; category: string; city: string; counts: Counts }[] = [];
    for (const [country, categories] of this.countries) {
      for (const [category, tally] of categories) {
        out.push({ country, category, city: '', counts: tally.all });
        for (const [city, counts] of tally.cities) out.push({ country, category, city, counts });
      }
    }
    return out;
  }
}

function bump(counts: Counts, v: boolean, p: boolean, w: boolean): void {
  counts[0]++;
  if (v) counts[1]++;
  if (p) counts[2]++;
  if (w) counts[3]++;
  if (v && p) counts[4]++;
  if (v && w) counts[5]++;
  if (p && w) counts[6]++;
  if (v && p && w) counts[7]++;
}

/**
 * Adds a tally to the roll-up in one statement, as the insert trigger would have: rows already counted
 * (a bulk load into a non-empty directory) keep their figures.
 */
export function facetTallyStatement(tally: FacetTally): { text: string; values: unknown[] } {
  const rows = tally.rows();
  const arrays: unknown[][] = [[], [], [], ...FACET_COUNT_COLUMNS.map(() => [])];
  for (const row of rows) {
    arrays[0]!.push(row.country);
    arrays[1]!.push(row.category);
    arrays[2]!.push(row.city);
    for (const [i, n] of row.counts.entries()) arrays[3 + i]!.push(n);
  }
  const columns = FACET_COUNT_COLUMNS.join(', ');
  const casts = ['text[]', 'text[]', 'text[]', ...FACET_COUNT_COLUMNS.map(() => 'bigint[]')];
  return {
    text: `INSERT INTO directory_facet_counts AS f (country_code, category, city, ${columns})
      SELECT * FROM unnest(${casts.map((cast, i) => `$${i + 1}::${cast}`).join(', ')})
      ON CONFLICT (country_code, category, city) DO UPDATE SET
        ${FACET_COUNT_COLUMNS.map((name) => `${name} = f.${name} + excluded.${name}`).join(',\n        ')}`,
    values: arrays,
  };
}
