import { FALLBACK_RATES } from '@shared/currency';
import { describe, expect, it } from 'vitest';

import { mergeRates, RATES_STALE_TIME } from './use-currency';

describe('mergeRates', () => {
  it('uses the fixed fallback rates when the answer is missing', () => {
    expect(mergeRates(undefined)).toEqual(FALLBACK_RATES);
  });

  it('takes good rates from the answer and keeps the fallback for bad or missing ones', () => {
    const merged = mergeRates({ rates: { NGN: 1, USD: 0.00065, ZAR: 0, KES: Number.NaN } as never });
    expect(merged.USD).toBe(0.00065);
    expect(merged.ZAR).toBe(FALLBACK_RATES.ZAR);
    expect(merged.KES).toBe(FALLBACK_RATES.KES);
    expect(merged.GHS).toBe(FALLBACK_RATES.GHS);
  });

  it('caches rates for an hour', () => {
    expect(RATES_STALE_TIME).toBe(60 * 60 * 1000);
  });
});
