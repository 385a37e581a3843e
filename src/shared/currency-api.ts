import { z } from 'zod';
import { CURRENCY_CODES } from './currency';

/** The answers of GET /api/currency/rates and GET /api/geo (the display currency and its rates). */

export const currencyRatesSchema = z.object({
  base: z.literal('NGN'),
  rates: z.object({
    NGN: z.number(),
    USD: z.number(),
    ZAR: z.number(),
    KES: z.number(),
    GHS: z.number(),
  }),
  source: z.enum(['live', 'fallback']),
  fetchedAt: z.string(),
});
export type CurrencyRates = z.infer<typeof currencyRatesSchema>;

export const geoSchema = z.object({
  country: z.string().nullable(),
  currency: z.enum(CURRENCY_CODES),
});
export type GeoAnswer = z.infer<typeof geoSchema>;
