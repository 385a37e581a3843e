import {
  type CurrencyCode,
  type CurrencyInfo,
  type CurrencyRates,
  convertFromNgn,
  countryToCurrency,
  DEFAULT_CURRENCY,
  FALLBACK_RATES,
  formatMoney,
  type GeoAnswer,
  getCurrencyInfo,
  isCurrencyCode,
  koboToNaira,
  SUPPORTED_CURRENCIES,
} from '@shared/currency';
import { useQuery } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
} from 'react';

import { hydratingPrerenderedPage, useHydrationSettled } from '@/lib/prerender-state';

/** Browser storage key of the saved display currency. */
export const CURRENCY_STORAGE_KEY = 'tambari.currency';

/** Exchange rates are cached one hour. */
export const RATES_STALE_TIME = 60 * 60 * 1000;

export const RATES_QUERY_KEY = ['/api/currency/rates'] as const;
export const GEO_QUERY_KEY = ['/api/geo'] as const;

export interface CurrencyContextValue {
  /** The display currency; prices are still charged in NGN. */
  currency: CurrencyCode;
  currencyInfo: CurrencyInfo;
  setCurrency: (code: string) => boolean;
  supportedCurrencies: readonly CurrencyInfo[];
  /** True until the currency is known (saved choice, or the visitor's country looked up). */
  isLoading: boolean;
  rates: Record<CurrencyCode, number>;
  /** Naira (major units) in the display currency. */
  convert: (amountNgn: number) => number;
  /** Kobo from the API, converted and formatted in the display currency (NGN, KES, GHS without decimals). */
  formatKobo: (kobo: number) => string;
  /** Kobo formatted in naira, the currency every payment is charged in. */
  formatNgnKobo: (kobo: number) => string;
}

const CurrencyContext = createContext<CurrencyContextValue | null>(null);

function readSavedCurrency(): CurrencyCode | null {
  try {
    const saved = window.localStorage.getItem(CURRENCY_STORAGE_KEY);
    return isCurrencyCode(saved) ? saved : null;
  } catch {
    return null;
  }
}

function saveCurrency(code: CurrencyCode): void {
  try {
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, code);
  } catch {
    // Without storage the choice lasts for this visit only.
  }
}

/** Rates keyed on NGN; any rate the answer lacks or gets wrong falls back to FALLBACK_RATES. */
export function mergeRates(answer: Partial<CurrencyRates> | undefined | null): Record<CurrencyCode, number> {
  const merged = { ...FALLBACK_RATES };
  const rates = answer?.rates as Partial<Record<string, unknown>> | undefined;
  if (!rates) return merged;
  for (const code of Object.keys(merged) as CurrencyCode[]) {
    const value = rates[code];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) merged[code] = value;
  }
  return merged;
}

/**
 * The starting currency: the saved code if it is supported; otherwise the visitor's country (looked up by
 * our server, not by a third party from the browser) mapped to a currency and saved; otherwise USD.
 */
export function CurrencyProvider({ children }: { children: ReactNode }) {
  // A prerendered page hydrates as it was rendered (no currency yet) and reads the saved one just after.
  const [saved, setSaved] = useState<CurrencyCode | null | undefined>(() =>
    hydratingPrerenderedPage ? undefined : readSavedCurrency(),
  );
  const [chosen, setChosen] = useState<CurrencyCode | null>(saved ?? null);

  useEffect(() => {
    if (saved !== undefined) return;
    const stored = readSavedCurrency();
    // Every price on the page re-renders with the currency: as a transition, React splits that render
    // into short tasks instead of one long one while the page is loading.
    startTransition(() => {
      setSaved(stored);
      if (stored) setChosen(stored);
    });
  }, [saved]);

  // On a prerendered page the lookups wait until it has hydrated (see useHydrationSettled).
  const settled = useHydrationSettled();
  const geoQuery = useQuery<GeoAnswer>({
    queryKey: GEO_QUERY_KEY,
    enabled: settled && saved === null,
    retry: false,
  });

  const ratesQuery = useQuery<CurrencyRates>({
    queryKey: RATES_QUERY_KEY,
    enabled: settled,
    staleTime: RATES_STALE_TIME,
    gcTime: RATES_STALE_TIME,
    retry: false,
  });

  // The detected currency is saved once, so later visits skip the lookup; a manual choice wins over it.
  useEffect(() => {
    if (chosen !== null || !geoQuery.data) return;
    const detected = isCurrencyCode(geoQuery.data.currency)
      ? geoQuery.data.currency
      : countryToCurrency(geoQuery.data.country);
    startTransition(() => setChosen(detected));
    saveCurrency(detected);
  }, [chosen, geoQuery.data]);

  const setCurrency = useCallback((code: string) => {
    // Only supported codes are accepted, whether set or restored.
    if (!isCurrencyCode(code)) return false;
    setChosen(code);
    saveCurrency(code);
    return true;
  }, []);

  const currency: CurrencyCode = chosen ?? DEFAULT_CURRENCY;
  const isLoading = chosen === null && !geoQuery.isError;
  // The rates arrive while the page loads; the prices they change re-render as a transition (see above).
  const ratesAnswer = useDeferredValue(ratesQuery.data);
  const rates = useMemo(() => mergeRates(ratesAnswer), [ratesAnswer]);

  const value = useMemo<CurrencyContextValue>(() => {
    const convert = (amountNgn: number) => convertFromNgn(amountNgn, currency, rates);
    return {
      currency,
      currencyInfo: getCurrencyInfo(currency),
      setCurrency,
      supportedCurrencies: SUPPORTED_CURRENCIES,
      isLoading,
      rates,
      convert,
      formatKobo: (kobo) => formatMoney(convert(koboToNaira(kobo)), currency),
      formatNgnKobo: (kobo) => formatMoney(koboToNaira(kobo), 'NGN'),
    };
  }, [currency, rates, isLoading, setCurrency]);

  return <CurrencyContext.Provider value={value}>{children}</CurrencyContext.Provider>;
}

export function useCurrency(): CurrencyContextValue {
  const context = useContext(CurrencyContext);
  if (!context) throw new Error('useCurrency must be used within a CurrencyProvider');
  return context;
}
