import { isIP } from 'node:net';
import { type CacheView, createCacheCounters } from '@server/lib/cache-registry';
import { now } from '@server/lib/clock';
import { type CurrencyRates, countryToCurrency, FALLBACK_RATES, type GeoAnswer } from '@shared/currency';
import geoip from 'geoip-country';

export const RATES_TTL_MS = 60 * 60 * 1000;
/** After a failed fetch the fallback is served this long before the next try, so a dead CDN costs little. */
export const FALLBACK_TTL_MS = 5 * 60 * 1000;
export const RATES_TIMEOUT_MS = 3_000;

export interface RatesCache {
  getRates(): Promise<CurrencyRates>;
  /** Size, hits, misses, age and clear() for the cache registry. */
  registryView(): CacheView;
}

/**
 * Display-currency rates keyed on NGN, from a public rate file (`{ "date": …, "ngn": { "usd": 0.00065, … } }`),
 * cached in memory for an hour; the fixed FALLBACK_RATES when the file cannot be fetched or read.
 * Concurrent callers share one fetch.
 */
export function createRatesCache(options: {
  url: string;
  ttlMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  log?: { warn: (obj: object, msg: string) => void };
}): RatesCache {
  const ttl = options.ttlMs ?? RATES_TTL_MS;
  const doFetch = options.fetch ?? fetch;
  let cached: { value: CurrencyRates; expiresAt: number } | null = null;
  let inflight: Promise<CurrencyRates> | null = null;
  const counters = createCacheCounters();

  async function load(): Promise<CurrencyRates> {
    const fetchedAt = now();
    try {
      const response = await doFetch(options.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? RATES_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`rate file answered ${response.status}`);
      const rates = parseRateFile(await response.json());
      const value: CurrencyRates = { base: 'NGN', rates, source: 'live', fetchedAt: fetchedAt.toISOString() };
      cached = { value, expiresAt: fetchedAt.getTime() + ttl };
      return value;
    } catch (error) {
      options.log?.warn({ err: error, url: options.url }, 'currency rates unavailable; using fallback rates');
      const value: CurrencyRates = {
        base: 'NGN',
        rates: { ...FALLBACK_RATES },
        source: 'fallback',
        fetchedAt: fetchedAt.toISOString(),
      };
      cached = { value, expiresAt: fetchedAt.getTime() + Math.min(ttl, FALLBACK_TTL_MS) };
      return value;
    }
  }

  return {
    async getRates() {
      if (cached && cached.expiresAt > now().getTime()) {
        counters.hit();
        return cached.value;
      }
      counters.miss();
      inflight ??= load().finally(() => {
        inflight = null;
      });
      return inflight;
    },
    registryView: () => ({
      size: () => (cached ? 1 : 0),
      hits: counters.hits,
      misses: counters.misses,
      oldestEntryAt: () => (cached ? new Date(cached.value.fetchedAt) : null),
      clear: () => {
        cached = null;
      },
    }),
  };
}

/** Reads the NGN-keyed file; every supported currency must be a positive number or the file is refused. */
export function parseRateFile(json: unknown): CurrencyRates['rates'] {
  const table = (json as { ngn?: Record<string, unknown> } | null)?.ngn;
  if (!table || typeof table !== 'object') throw new Error('rate file has no "ngn" table');
  const read = (code: string) => {
    const value = table[code];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new Error(`rate file has no usable ${code.toUpperCase()} rate`);
    }
    return value;
  };
  return { NGN: 1, USD: read('usd'), ZAR: read('zar'), KES: read('kes'), GHS: read('ghs') };
}

/** Loopback, private, link-local and unique-local addresses have no country. */
export function isPublicAddress(ip: string): boolean {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const kind = isIP(address);
  if (kind === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    if (a === 10 || a === 127 || a === 0) return false;
    if (a === 172 && b >= 16 && b <= 31) return false;
    if (a === 192 && b === 168) return false;
    if (a === 169 && b === 254) return false;
    if (a === 100 && b >= 64 && b <= 127) return false;
    return a < 224;
  }
  if (kind === 6) {
    const lower = address.toLowerCase();
    return !(lower === '::1' || lower === '::' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower));
  }
  return false;
}

/** The visitor's country from their address (the server's own copy of GeoLite2 country data). */
export function lookupGeo(ip: string | undefined): GeoAnswer {
  if (!ip || !isPublicAddress(ip)) return { country: null, currency: countryToCurrency(null) };
  const country = geoip.lookup(ip)?.country ?? null;
  return { country, currency: countryToCurrency(country) };
}
