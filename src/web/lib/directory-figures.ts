import type { DirectoryStats } from '@shared/leads';
import { formatNumber } from './format';

/**
 * The directory figure marketing may quote, from live counts of real verified records:
 * "12,400+ verified contacts in 38 countries". Null when there is none to quote (callers then say
 * something true without a number).
 */
export function directoryFigure(stats: DirectoryStats | undefined): string | null {
  if (!stats || stats.verifiedContacts === 0) return null;
  const contacts = `${formatNumber(stats.verifiedContacts)}${stats.verifiedContactsRounded ? '+' : ''}`;
  const noun = stats.verifiedContacts === 1 && !stats.verifiedContactsRounded ? 'contact' : 'contacts';
  const places = `${formatNumber(stats.countries)} ${stats.countries === 1 ? 'country' : 'countries'}`;
  return `${contacts} verified ${noun} in ${places}`;
}

/** What the landing page and the product pages say when no real verified record exists yet. */
export const NO_DIRECTORY_FIGURE = 'Build your own verified lists, by country, city and category';
