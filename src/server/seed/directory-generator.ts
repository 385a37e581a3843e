import * as fakerLocales from '@faker-js/faker';
import { seededRandom } from '@server/lib/seeded-random';
import { BUSINESS_CATEGORIES } from '@shared/categories';
import { City, Country } from 'country-state-city';
import {
  BRAND_WORDS,
  CATEGORY_NAME_WORDS,
  COMPANY_SUFFIXES,
  INVALID_REASONS,
  JOB_TITLES,
  MAJOR_CITIES,
  NAME_SOURCE,
  PHONE_PREFIXES,
  REGIONAL_NAMES,
  SEED_COUNTRIES,
  STREET_TYPES,
  STREET_WORDS,
  SUFFIX_GROUP,
} from './directory-data';

/*
 * Synthetic businesses for demos and benchmarks. Fast enough for a million rows in well under a minute of
 * CPU: faker only fills name pools once per locale; rows are then drawn with a seeded PRNG, so the same
 * seed gives the same directory. Emails and websites are under example.com, never a real domain.
 */

/** The columns a generated row fills, in COPY order. */
export const SEED_COLUMNS = [
  'company_name',
  'contact_name',
  'job_title',
  'email',
  'phone',
  'website',
  'address',
  'city',
  'country_code',
  'category',
  'source',
  'synthetic',
  'verification_status',
  'verified_at',
  'invalid_reason',
  'created_at',
  'updated_at',
] as const;

export type SeedRow = (string | null)[];

/** Seeded (lib/seeded-random.ts): the same seed gives the same synthetic directory. */
export function createRandom(seed: number) {
  const next = seededRandom(seed);
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)]!;
    },
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof createRandom>;

/** Cumulative weights for O(log n) weighted picks. */
function weighted<T>(entries: readonly (readonly [T, number])[]) {
  const values = entries.map(([value]) => value);
  const cumulative: number[] = [];
  let total = 0;
  for (const [, weight] of entries) {
    total += weight;
    cumulative.push(total);
  }
  return (random: Random): T => {
    const target = random.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return values[lo]!;
  };
}

const ascii = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^\x20-\x7e]/g, '');
const slug = (value: string) =>
  ascii(value)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/*
 * Unicode normalisation per row was a third of the generator's time. The words a name is made of come
 * from small pools, so each is slugged once; a name's slug is its words' slugs joined by '-', which is
 * what slug() gives for the words joined by spaces.
 */
const slugCache = new Map<string, string>();
const slugOf = (word: string) => {
  let cached = slugCache.get(word);
  if (cached === undefined) {
    cached = slug(word);
    slugCache.set(word, cached);
  }
  return cached;
};
const slugWords = (words: string[]) => {
  let out = '';
  for (const word of words) {
    const part = slugOf(word);
    if (part) out = out ? `${out}-${part}` : part;
  }
  return out;
};
const emailWordCache = new Map<string, string>();
/** A name as one email word: slugged, without its dashes. */
const emailWord = (name: string) => {
  let cached = emailWordCache.get(name);
  if (cached === undefined) {
    cached = slug(name).replace(/-/g, '');
    emailWordCache.set(name, cached);
  }
  return cached;
};

interface NamePool {
  first: string[];
  last: string[];
}

function fakerPool(localeKey: string, random: Random): NamePool {
  const first: string[] = [];
  const last: string[] = [];
  for (const key of localeKey.split('+')) {
    const faker = (fakerLocales as unknown as Record<string, typeof fakerLocales.faker>)[`faker${key}`];
    if (!faker) continue;
    faker.seed(random.int(1_000_000_000));
    for (let i = 0; i < 300; i++) {
      first.push(faker.person.firstName());
      last.push(faker.person.lastName());
    }
  }
  // Names must read in Latin script here: a directory searched with Latin keywords.
  const latin = (names: string[]) => [...new Set(names.filter((n) => /^[\p{Script=Latin}' .-]+$/u.test(n)))];
  return { first: latin(first), last: latin(last) };
}

interface CountryProfile {
  code: string;
  /** The email and website domain under which its businesses live. */
  domain: string;
  names: NamePool;
  cities: (random: Random) => string | null;
  suffixes: readonly string[];
  phoneCode: string;
}

function buildCountry(code: string, random: Random, poolCache: Map<string, NamePool>): CountryProfile {
  const source = NAME_SOURCE[code] ?? 'EN_GB';
  let names = poolCache.get(source);
  if (!names) {
    const regional = REGIONAL_NAMES[source];
    names = regional ? { first: [...regional.first], last: [...regional.last] } : fakerPool(source, random);
    if (names.first.length === 0 || names.last.length === 0) names = fakerPool('EN_GB', random);
    poolCache.set(source, names);
  }

  const all = City.getCitiesOfCountry(code) ?? [];
  const known = new Set(all.map((c) => c.name));
  let main = (MAJOR_CITIES[code] ?? []).filter((name) => known.has(name));
  if (main.length === 0 && all.length > 0) {
    // No curated list: a fixed sample of the country's real towns stands in for its business centres.
    const shuffled = [...new Set(all.map((c) => c.name))];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    main = shuffled.slice(0, 12);
  }
  // Business is concentrated: the first city of the list gets the most contacts (Zipf-like weights).
  const pickCity =
    main.length > 0 ? weighted(main.map((name, i) => [name, 1 / (i + 1) ** 0.9] as const)) : null;

  const group = SUFFIX_GROUP[code];
  const suffixes =
    COMPANY_SUFFIXES[code] ??
    (group ? (COMPANY_SUFFIXES[group] ?? COMPANY_SUFFIXES.default!) : COMPANY_SUFFIXES.default!);
  const phoneCode = (Country.getCountryByCode(code)?.phonecode ?? '1').replace(/^\+/, '').split(/[-\s]/)[0]!;
  return {
    code,
    domain: `${code.toLowerCase()}.example.com`,
    names,
    cities: (r) => (pickCity ? pickCity(r) : null),
    suffixes,
    phoneCode,
  };
}

const digits = (random: Random, n: number) => {
  let out = '';
  for (let i = 0; i < n; i++) out += random.int(10);
  return out;
};

function phoneFor(country: CountryProfile, random: Random): string {
  switch (country.code) {
    case 'NG':
      return `+234 ${random.pick(PHONE_PREFIXES.NG!)} ${digits(random, 3)} ${digits(random, 4)}`;
    case 'GH':
      return `+233 ${random.pick(PHONE_PREFIXES.GH!)} ${digits(random, 3)} ${digits(random, 4)}`;
    case 'KE':
      return `+254 ${random.pick(PHONE_PREFIXES.KE!)}${digits(random, 1)} ${digits(random, 3)} ${digits(random, 3)}`;
    case 'ZA':
      return `+27 ${random.pick(PHONE_PREFIXES.ZA!)} ${digits(random, 3)} ${digits(random, 4)}`;
    // Fictional ranges reserved for drama and examples.
    case 'GB':
      return `+44 20 7946 0${digits(random, 3)}`;
    case 'US':
    case 'CA':
    case 'JM':
    case 'TT':
      return `+1 ${random.pick(['212', '404', '713', '416', '305', '617', '876', '868'])} 555 01${digits(random, 2)}`;
    case 'AU':
      return `+61 491 570 ${digits(random, 3)}`;
    default:
      return `+${country.phoneCode} ${1 + random.int(9)}${digits(random, 1)} ${digits(random, 3)} ${digits(random, 4)}`;
  }
}

const categoryWords = new Map(
  BUSINESS_CATEGORIES.map((c) => [
    c.slug,
    CATEGORY_NAME_WORDS[c.slug] ??
      c.name
        .split(/\s*[&,(]\s*/)[0]!
        .split(' ')
        .slice(0, 2)
        .join(' '),
  ]),
);
const pickCategory = weighted(
  BUSINESS_CATEGORIES.map((c) => {
    // Everyday trades are more numerous than banks and airlines.
    const common = [
      'retail',
      'restaurants',
      'logistics',
      'construction',
      'real-estate',
      'fashion-design',
      'beauty-salons',
      'schools',
      'hospitals-clinics',
      'software-it',
      'wholesale-distribution',
      'agriculture',
      'hotels',
      'auto-repair',
      'pharmacies',
    ];
    const rare = [
      'banking',
      'aviation',
      'government-agencies',
      'data-centres-cloud',
      'cybersecurity',
      'maritime',
      'mining',
      'oil-gas',
      'insurance',
    ];
    return [c.slug, common.includes(c.slug) ? 2.5 : rare.includes(c.slug) ? 0.4 : 1] as const;
  }),
);

function companyName(country: CountryProfile, category: string, city: string | null, random: Random) {
  const wordsOrWord = categoryWords.get(category)!;
  const word = typeof wordsOrWord === 'string' ? wordsOrWord : random.pick(wordsOrWord);
  const suffix = random.chance(0.75) ? ` ${random.pick(country.suffixes)}` : '';
  const surname = random.pick(country.names.last);
  const roll = random.next();
  // The words of the name's core, for its slug (the email domain).
  let words: string[];
  if (word.startsWith('&')) words = [surname, word];
  else if (roll < 0.35) words = [surname, word];
  else if (roll < 0.7) words = [random.pick(BRAND_WORDS), word];
  else if (roll < 0.8 && city) words = [city, word];
  else if (roll < 0.9) words = [surname, '&', random.pick(country.names.last), word];
  else {
    const letters = 'ABCDEFGHJKLMNOPRSTUW';
    words = [
      `${letters[random.int(letters.length)]}${letters[random.int(letters.length)]}${random.chance(0.5) ? `&${letters[random.int(letters.length)]}` : ''}`,
      word,
    ];
  }
  const core = words.join(' ');
  return { name: `${core}${word.startsWith('&') ? '' : suffix}`, coreSlug: slugWords(words) };
}

function emailLocal(first: string, last: string, random: Random): string {
  const f = emailWord(first);
  const l = emailWord(last);
  const roll = random.next();
  if (roll < 0.2 || !f)
    return random.pick(['info', 'sales', 'contact', 'hello', 'enquiries', 'admin', 'office']);
  if (roll < 0.55 && l) return `${f}.${l}`;
  if (roll < 0.7) return f;
  if (roll < 0.85 && l) return `${f[0]}${l}`;
  return l ? `${f}_${l}` : f;
}

/**
 * A generator of directory rows. `offset` makes the email domains unique across runs (pass the number of
 * rows already seeded); `now` anchors created_at in the two years before it.
 */
export function createDirectoryGenerator(options: { seed?: number; offset?: number; now?: Date } = {}) {
  const random = createRandom(options.seed ?? 20_260_101);
  const pools = new Map<string, NamePool>();
  const countries = new Map<string, CountryProfile>();
  const pickCountry = weighted(SEED_COUNTRIES);
  const nowMs = (options.now ?? new Date()).getTime();
  const span = 730 * 86_400_000;
  let index = options.offset ?? 0;

  return function nextRow(): SeedRow {
    const code = pickCountry(random);
    let country = countries.get(code);
    if (!country) {
      country = buildCountry(code, random, pools);
      countries.set(code, country);
    }
    const category = pickCategory(random);
    const city = country.cities(random);
    const { name, coreSlug } = companyName(country, category, city, random);
    const first = random.pick(country.names.first);
    const last = random.pick(country.names.last);
    const hasContact = random.chance(0.85);
    const domain = `${coreSlug.slice(0, 40).replace(/-+$/, '')}-${(index++).toString(36)}.${country.domain}`;
    const email = `${hasContact ? emailLocal(first, last, random) : random.pick(['info', 'sales', 'contact'])}@${domain}`;
    const createdMs = nowMs - Math.floor(random.next() * span);
    // Sample data is never "verified": nobody checked it (PRODUCT.md: "Verified" means evidence). A few
    // rows are invalid so the admin screens have something to show; the draw keeps the old sequence.
    const draw = random.chance(0.03) ? 'invalid' : random.chance(0.58) ? 'checked' : 'unverified';
    const status = draw === 'invalid' ? 'invalid' : 'unverified';
    const checkedAt =
      status === 'unverified'
        ? null
        : new Date(Math.min(nowMs, createdMs + random.int(60 * 86_400_000))).toISOString();
    const created = new Date(createdMs).toISOString();
    return [
      name,
      hasContact ? `${first} ${last}` : null,
      hasContact ? random.pick(JOB_TITLES) : null,
      email,
      random.chance(0.78) ? phoneFor(country, random) : null,
      random.chance(0.64) ? `https://www.${domain}` : null,
      random.chance(0.6)
        ? `${1 + random.int(250)} ${random.pick(STREET_WORDS)} ${random.pick(STREET_TYPES)}`
        : null,
      city,
      code,
      category,
      'seed',
      'true',
      status,
      checkedAt,
      status === 'invalid' ? random.pick(INVALID_REASONS) : null,
      created,
      checkedAt ?? created,
    ];
  };
}
