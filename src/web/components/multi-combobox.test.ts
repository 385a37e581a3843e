import { describe, expect, it } from 'vitest';
import { filterOptions } from './multi-combobox';

const options = [
  {
    value: 'food-beverage-manufacturing',
    label: 'Food & Beverage Manufacturing',
    keywords: ['bakery products'],
  },
  { value: 'bakeries', label: 'Bakeries & Confectionery', keywords: ['bakery', 'bread'] },
  { value: 'logistics', label: 'Logistics & Freight', keywords: ['haulage', 'courier'] },
  { value: 'CI', label: "Côte d'Ivoire", keywords: ['CI'] },
];

describe('filterOptions', () => {
  it('finds an option by a synonym and puts the exact synonym first', () => {
    expect(filterOptions(options, 'bakery').map((option) => option.value)).toEqual([
      'bakeries',
      'food-beverage-manufacturing',
    ]);
    expect(filterOptions(options, 'haulage').map((option) => option.value)).toEqual(['logistics']);
  });

  it('ranks a label that starts with the search first', () => {
    expect(filterOptions(options, 'bak').map((option) => option.value)[0]).toBe('bakeries');
  });

  it('ignores case and accents, and needs every word', () => {
    expect(filterOptions(options, 'cote').map((option) => option.value)).toEqual(['CI']);
    expect(filterOptions(options, 'freight logistics').map((option) => option.value)).toEqual(['logistics']);
    expect(filterOptions(options, 'freight bakery')).toEqual([]);
  });

  it('keeps every option, in order, without a search', () => {
    expect(filterOptions(options, '  ')).toHaveLength(4);
  });
});
