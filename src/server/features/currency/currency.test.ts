import { advanceClock, resetClock } from '@server/lib/clock';
import { FALLBACK_RATES } from '@shared/currency';
import { type CurrencyRates, currencyRatesSchema } from '@shared/currency-api';
import { type FakeRateServer, startFakeRateServer } from '@tests/fakes/rates';
import { createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRatesCache, isPublicAddress, lookupGeo } from './currency.service';

const LIVE_FILE = {
  date: '2026-05-01',
  ngn: { usd: 0.00065, zar: 0.0118, kes: 0.084, ghs: 0.0101, eur: 0.0006 },
};

describe('currency rates', () => {
  let rates: FakeRateServer;
  let app: FastifyInstance;

  beforeAll(async () => {
    rates = await startFakeRateServer(LIVE_FILE);
    app = await createTestApp({ CURRENCY_RATES_URL: rates.url });
  });
  afterAll(async () => {
    await app.close();
    await rates.close();
  });
  afterEach(() => resetClock());

  it('serves the live NGN-keyed rates and caches them for an hour', async () => {
    const hitsBefore = rates.hits();
    const response = await app.inject({ method: 'GET', url: '/api/currency/rates' });
    expect(response.statusCode).toBe(200);
    const body = currencyRatesSchema.parse(response.json());
    expect(body).toMatchObject({
      base: 'NGN',
      source: 'live',
      rates: { NGN: 1, USD: 0.00065, ZAR: 0.0118, KES: 0.084, GHS: 0.0101 },
    });
    for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/api/currency/rates' });
    expect(rates.hits() - hitsBefore).toBe(1);

    rates.respondWith({ ngn: { usd: 0.0007, zar: 0.012, kes: 0.09, ghs: 0.011 } });
    advanceClock(59 * 60 * 1000);
    expect(
      (await app.inject({ method: 'GET', url: '/api/currency/rates' })).json<CurrencyRates>().rates.USD,
    ).toBe(0.00065);
    advanceClock(2 * 60 * 1000);
    expect(
      (await app.inject({ method: 'GET', url: '/api/currency/rates' })).json<CurrencyRates>().rates.USD,
    ).toBe(0.0007);
    expect(rates.hits() - hitsBefore).toBe(2);
    rates.respondWith(LIVE_FILE);
  });

  it('falls back to the fixed rates when the file cannot be fetched', async () => {
    const offline = await createTestApp({ CURRENCY_RATES_URL: 'http://127.0.0.1:9/ngn.json' });
    try {
      const response = await offline.inject({ method: 'GET', url: '/api/currency/rates' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        base: 'NGN',
        source: 'fallback',
        rates: { NGN: 1, USD: 0.0006, ZAR: 0.012, KES: 0.082, GHS: 0.0096 },
      });
    } finally {
      await offline.close();
    }
  });

  it('falls back on an error status or a file without every rate, and tries again later', async () => {
    const server = await startFakeRateServer('not json');
    try {
      const cache = createRatesCache({ url: server.url, ttlMs: 60 * 60 * 1000 });
      expect((await cache.getRates()).source).toBe('fallback');
      server.respondWith({ ngn: { usd: 0.0006 } });
      advanceClock(6 * 60 * 1000);
      expect(await cache.getRates()).toMatchObject({ source: 'fallback', rates: FALLBACK_RATES });
      server.respondWith(LIVE_FILE, 503);
      advanceClock(6 * 60 * 1000);
      expect((await cache.getRates()).source).toBe('fallback');
      server.respondWith(LIVE_FILE);
      expect((await cache.getRates()).source).toBe('fallback');
      advanceClock(6 * 60 * 1000);
      expect((await cache.getRates()).source).toBe('live');
      expect(server.hits()).toBe(4);
    } finally {
      await server.close();
    }
  });

  it('gives up on a slow rate file after its timeout', async () => {
    const hanging = createRatesCache({
      url: 'http://127.0.0.1:9/never',
      timeoutMs: 50,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    expect((await hanging.getRates()).source).toBe('fallback');
  });

  it('shares one fetch between concurrent callers', async () => {
    const server = await startFakeRateServer(LIVE_FILE);
    try {
      const cache = createRatesCache({ url: server.url });
      const answers = await Promise.all([cache.getRates(), cache.getRates(), cache.getRates()]);
      expect(new Set(answers.map((a) => a.fetchedAt)).size).toBe(1);
      expect(server.hits()).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('geo', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp({ CURRENCY_RATES_URL: 'http://127.0.0.1:9/ngn.json' });
  });
  afterAll(() => app.close());

  it('answers null (and USD) for a loopback caller', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/geo' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ country: null, currency: 'USD' });
  });

  it('finds the country of a public address', async () => {
    const nigeria = await app.inject({ method: 'GET', url: '/api/geo', remoteAddress: '105.112.0.1' });
    expect(nigeria.json()).toEqual({ country: 'NG', currency: 'NGN' });
    const kenya = await app.inject({ method: 'GET', url: '/api/geo', remoteAddress: '196.201.214.1' });
    expect(kenya.json()).toEqual({ country: 'KE', currency: 'KES' });
    const usa = await app.inject({ method: 'GET', url: '/api/geo', remoteAddress: '8.8.8.8' });
    expect(usa.json()).toEqual({ country: 'US', currency: 'USD' });
  });

  it('does not trust a forged X-Forwarded-For outside production', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/geo',
      headers: { 'x-forwarded-for': '105.112.0.1' },
    });
    expect(response.json()).toEqual({ country: null, currency: 'USD' });
  });

  it('treats private, link-local and loopback addresses as having no country', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.1.1',
      '100.64.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      'nonsense',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
      expect(lookupGeo(ip)).toEqual({ country: null, currency: 'USD' });
    }
    expect(isPublicAddress('::ffff:105.112.0.1')).toBe(true);
    expect(lookupGeo('::ffff:105.112.0.1')).toEqual({ country: 'NG', currency: 'NGN' });
  });
});
