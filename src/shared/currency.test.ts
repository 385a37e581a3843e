import { describe, expect, it } from 'vitest';
import {
  annualSaving,
  CURRENCY_CODES,
  convertFromNgn,
  countryToCurrency,
  FALLBACK_RATES,
  formatMoney,
  getCurrencyInfo,
  isCurrencyCode,
  koboToNaira,
  SUPPORTED_CURRENCIES,
} from './currency';

describe('currencies', () => {
  it('lists the five supported currencies with symbol, name, flag and group', () => {
    expect(SUPPORTED_CURRENCIES.map((c) => [c.code, c.symbol, c.group])).toEqual([
      ['NGN', '₦', 'Africa'],
      ['ZAR', 'R', 'Africa'],
      ['KES', 'KSh', 'Africa'],
      ['GHS', '₵', 'Africa'],
      ['USD', '$', 'International'],
    ]);
    for (const currency of SUPPORTED_CURRENCIES) {
      expect(currency.name.length).toBeGreaterThan(3);
      expect(currency.flag).toMatch(/\p{Regional_Indicator}{2}/u);
    }
    expect(getCurrencyInfo('KES').name).toBe('Kenyan Shilling');
  });

  it('accepts only supported codes', () => {
    for (const code of CURRENCY_CODES) expect(isCurrencyCode(code)).toBe(true);
    for (const code of ['EUR', 'ngn', '', null, 5, undefined]) expect(isCurrencyCode(code)).toBe(false);
  });

  it('maps countries to currencies, anything else to USD', () => {
    expect(countryToCurrency('NG')).toBe('NGN');
    expect(countryToCurrency('ZA')).toBe('ZAR');
    expect(countryToCurrency('KE')).toBe('KES');
    expect(countryToCurrency('GH')).toBe('GHS');
    expect(countryToCurrency('ng')).toBe('NGN');
    expect(countryToCurrency('GB')).toBe('USD');
    expect(countryToCurrency('US')).toBe('USD');
    expect(countryToCurrency(null)).toBe('USD');
    expect(countryToCurrency(undefined)).toBe('USD');
  });

  it('keeps the fixed fallback rates against NGN', () => {
    expect(FALLBACK_RATES).toEqual({ NGN: 1, USD: 0.0006, ZAR: 0.012, KES: 0.082, GHS: 0.0096 });
  });

  it('converts from naira, returning the naira amount when a rate is missing or unusable', () => {
    expect(convertFromNgn(15_000, 'USD', FALLBACK_RATES)).toBeCloseTo(9);
    expect(convertFromNgn(15_000, 'KES', FALLBACK_RATES)).toBeCloseTo(1230);
    expect(convertFromNgn(15_000, 'NGN', {})).toBe(15_000);
    expect(convertFromNgn(15_000, 'GHS', {})).toBe(15_000);
    expect(convertFromNgn(15_000, 'ZAR', { ZAR: Number.NaN })).toBe(15_000);
    expect(convertFromNgn(15_000, 'ZAR', { ZAR: 0 })).toBe(15_000);
  });

  it('formats NGN, KES and GHS without decimals, ZAR and USD with two', () => {
    expect(formatMoney(15_000, 'NGN')).toBe('₦15,000');
    expect(formatMoney(1_230.4, 'KES')).toBe('KSh1,230');
    expect(formatMoney(144.5, 'GHS')).toBe('₵145');
    expect(formatMoney(9, 'USD')).toBe('$9.00');
    expect(formatMoney(180.456, 'ZAR')).toBe('R180.46');
    expect(formatMoney(0, 'NGN')).toBe('₦0');
    expect(formatMoney(-5, 'USD')).toBe('-$5.00');
  });

  it('computes the annual saving as 12 × monthly − annual and converts kobo to naira', () => {
    expect(annualSaving(15_000, 150_000)).toBe(30_000);
    expect(annualSaving(1_500_000, 15_000_000)).toBe(3_000_000);
    expect(annualSaving(0, 0)).toBe(0);
    expect(koboToNaira(1_500_000)).toBe(15_000);
  });
});
