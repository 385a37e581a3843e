// The API's answers are typed by their schemas in ./currency-api.ts; this file stays free of zod, as the
// browser's first load (the public site's prices) reads it.
import { numberFormat } from './number-format';

export type { CurrencyRates, GeoAnswer } from './currency-api';

/** The display currencies, with rates keyed on NGN. Prices are always charged in NGN. */
export const CURRENCY_CODES = ['NGN', 'ZAR', 'KES', 'GHS', 'USD'] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

export interface CurrencyInfo {
  code: CurrencyCode;
  symbol: string;
  name: string;
  flag: string;
  group: 'Africa' | 'International';
}

export const SUPPORTED_CURRENCIES: readonly CurrencyInfo[] = [
  { code: 'NGN', symbol: '₦', name: 'Nigerian Naira', flag: '🇳🇬', group: 'Africa' },
  { code: 'ZAR', symbol: 'R', name: 'South African Rand', flag: '🇿🇦', group: 'Africa' },
  { code: 'KES', symbol: 'KSh', name: 'Kenyan Shilling', flag: '🇰🇪', group: 'Africa' },
  { code: 'GHS', symbol: '₵', name: 'Ghanaian Cedi', flag: '🇬🇭', group: 'Africa' },
  { code: 'USD', symbol: '$', name: 'US Dollar', flag: '🇺🇸', group: 'International' },
];

export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === 'string' && (CURRENCY_CODES as readonly string[]).includes(value);
}

export function getCurrencyInfo(code: CurrencyCode): CurrencyInfo {
  return SUPPORTED_CURRENCIES.find((c) => c.code === code) ?? SUPPORTED_CURRENCIES[0]!;
}

/** The product's fixed rates, used when the rate file cannot be fetched. Units of each currency per 1 NGN. */
export const FALLBACK_RATES: Record<CurrencyCode, number> = {
  NGN: 1,
  USD: 0.0006,
  ZAR: 0.012,
  KES: 0.082,
  GHS: 0.0096,
};

/** Country to display currency: NG → NGN, ZA → ZAR, KE → KES, GH → GHS, anything else (or unknown) → USD. */
export function countryToCurrency(country: string | null | undefined): CurrencyCode {
  switch (country?.toUpperCase()) {
    case 'NG':
      return 'NGN';
    case 'ZA':
      return 'ZAR';
    case 'KE':
      return 'KES';
    case 'GH':
      return 'GHS';
    default:
      return 'USD';
  }
}

/** Converts an amount in naira (major units) to `currency`. A missing rate returns the NGN amount unchanged. */
export function convertFromNgn(
  amountNgn: number,
  currency: CurrencyCode,
  rates: Partial<Record<string, number>>,
): number {
  if (currency === 'NGN') return amountNgn;
  const rate = rates[currency];
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) return amountNgn;
  return amountNgn * rate;
}

/** NGN, KES and GHS are shown without decimals; the others with 2. `amount` is in major units. */
export function currencyDecimals(currency: CurrencyCode): number {
  return currency === 'NGN' || currency === 'KES' || currency === 'GHS' ? 0 : 2;
}

export function formatMoney(amount: number, currency: CurrencyCode): string {
  const decimals = currencyDecimals(currency);
  const { symbol } = getCurrencyInfo(currency);
  const formatted = numberFormat('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(Math.abs(amount));
  return `${amount < 0 ? '-' : ''}${symbol}${formatted}`;
}

/** Kobo (minor units, as the API sends every amount) to naira. */
export function koboToNaira(kobo: number): number {
  return kobo / 100;
}

/** The annual saving shown to buyers: 12 × monthly price − annual price (same units as the inputs). */
export function annualSaving(priceMonthly: number, priceAnnual: number): number {
  return 12 * priceMonthly - priceAnnual;
}
