import { z } from 'zod';
import { CITY_RESULTS_MAX, countryCode, pageSize } from './contacts';

/* Reference data for the contact screens: countries (with the directory's counts), cities, categories. */

export const countrySchema = z.object({
  code: z.string(),
  name: z.string(),
  flag: z.string(),
  currency: z.string(),
  phoneCode: z.string(),
  timezones: z.array(z.string()),
  /** The directory holds contacts in this country. */
  active: z.boolean(),
  contactCount: z.number().int(),
});
export type Country = z.infer<typeof countrySchema>;
export const countryListSchema = z.object({ countries: z.array(countrySchema) });

export const cityListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  limit: pageSize(CITY_RESULTS_MAX, CITY_RESULTS_MAX),
});
export const cityParamsSchema = z.object({ code: countryCode });
export const citySchema = z.object({ name: z.string(), stateCode: z.string() });
export const cityListSchema = z.object({
  countryCode: z.string(),
  cities: z.array(citySchema),
  /** More cities matched than were returned: narrow with `q`. */
  truncated: z.boolean(),
});

export const categorySchema = z.object({
  slug: z.string(),
  name: z.string(),
  group: z.string(),
  synonyms: z.array(z.string()),
});
export const categoryListSchema = z.object({
  groups: z.array(z.string()),
  categories: z.array(categorySchema),
});
