import { BUSINESS_CATEGORIES, categoryName } from '@shared/categories';
import { useMemo, useState } from 'react';
import { type ComboboxOption, MultiCombobox } from '@/components/multi-combobox';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useCities, useCountries } from '@/hooks/use-reference';
import { formatNumber } from '@/lib/format';

/** What FormControl passes down so a form label and message describe the picker. */
interface PickerAria {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

const IN_DIRECTORY = 'In the directory';
const OTHER_COUNTRIES = 'Other countries';

/**
 * Country options with flags. For searching the directory, countries that hold contacts come first
 * with their counts; forms list every country by name.
 */
export function useCountryOptions(mode: 'directory' | 'all'): {
  options: ComboboxOption[];
  loading: boolean;
} {
  const countries = useCountries();
  const options = useMemo(() => {
    const list = countries.data?.countries ?? [];
    const toOption = (country: (typeof list)[number], group?: string): ComboboxOption => ({
      value: country.code,
      label: country.name,
      prefix: (
        <span aria-hidden="true" className="text-base leading-none">
          {country.flag}
        </span>
      ),
      keywords: [country.code],
      ...(group ? { group } : {}),
      ...(mode === 'directory' && country.active ? { hint: formatNumber(country.contactCount) } : {}),
    });
    if (mode === 'all') return list.map((country) => toOption(country));
    return [
      ...list.filter((country) => country.active).map((country) => toOption(country, IN_DIRECTORY)),
      ...list.filter((country) => !country.active).map((country) => toOption(country, OTHER_COUNTRIES)),
    ];
  }, [countries.data, mode]);
  return { options, loading: countries.isPending };
}

export function CountryPicker({
  value,
  onChange,
  multiple = true,
  mode = 'directory',
  label = 'Country',
  placeholder = 'All countries',
  disabled,
  testId,
  className,
  ...aria
}: PickerAria & {
  value: readonly string[];
  onChange: (next: string[]) => void;
  multiple?: boolean;
  mode?: 'directory' | 'all';
  label?: string;
  placeholder?: string;
  disabled?: boolean;
  testId?: string;
  className?: string;
}) {
  const { options, loading } = useCountryOptions(mode);
  return (
    <MultiCombobox
      options={options}
      value={value}
      onChange={onChange}
      multiple={multiple}
      label={label}
      placeholder={placeholder}
      searchPlaceholder="Search countries…"
      emptyText="No country matches."
      loading={loading}
      disabled={disabled}
      maxSelected={multiple ? 50 : undefined}
      testId={testId}
      className={className}
      {...aria}
    />
  );
}

const CATEGORY_OPTIONS: ComboboxOption[] = BUSINESS_CATEGORIES.map((category) => ({
  value: category.slug,
  label: category.name,
  group: category.group,
  keywords: category.synonyms,
}));

/** The directory's categories, grouped; typing a synonym ("haulage") finds its category. */
export function CategoryPicker({
  value,
  onChange,
  multiple = true,
  label = 'Category',
  placeholder = 'All categories',
  disabled,
  testId,
  className,
  ...aria
}: PickerAria & {
  value: readonly string[];
  onChange: (next: string[]) => void;
  multiple?: boolean;
  label?: string;
  placeholder?: string;
  disabled?: boolean;
  testId?: string;
  className?: string;
}) {
  return (
    <MultiCombobox
      options={CATEGORY_OPTIONS}
      value={value}
      onChange={onChange}
      multiple={multiple}
      label={label}
      placeholder={placeholder}
      searchPlaceholder="Search categories or keywords…"
      emptyText="No category matches."
      disabled={disabled}
      maxSelected={multiple ? 50 : undefined}
      testId={testId}
      className={className}
      {...aria}
    />
  );
}

export { categoryName };

/**
 * Cities of the chosen countries. The server filters by prefix as the user types (a country may have
 * thousands); with several countries each city is listed under its country.
 */
export function CityPicker({
  countryCodes,
  value,
  onChange,
  multiple = true,
  allowCustom = false,
  label = 'City',
  placeholder,
  disabled,
  testId,
  className,
  ...aria
}: PickerAria & {
  /** The cities of these countries are offered; the first three when there are more. */
  countryCodes: readonly string[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  multiple?: boolean;
  /** Offer what the user typed when no city matches (forms; the server matches it to a known city). */
  allowCustom?: boolean;
  label?: string;
  placeholder?: string;
  disabled?: boolean;
  testId?: string;
  className?: string;
}) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, 250);
  const countries = useCountries();
  const shown = countryCodes.slice(0, 3);
  const first = useCities(shown[0], debounced);
  const second = useCities(shown[1], debounced);
  const third = useCities(shown[2], debounced);
  const results = [first, second, third].slice(0, shown.length);
  const truncated = results.some((result) => result.data?.truncated);
  const loading = results.some((result) => result.isFetching);

  // At most 1,500 short options: cheap enough to build on each render.
  const options = (() => {
    const seen = new Set<string>();
    const list: ComboboxOption[] = [];
    results.forEach((result, index) => {
      const code = shown[index];
      if (!code || !result.data) return;
      const group = shown.length > 1 ? (countries.byCode.get(code)?.name ?? code) : undefined;
      for (const city of result.data.cities) {
        if (seen.has(city.name)) continue;
        seen.add(city.name);
        list.push({ value: city.name, label: city.name, ...(group ? { group } : {}) });
      }
    });
    // Keep chosen cities visible even when the current search would hide them.
    for (const name of value) {
      if (!seen.has(name)) list.unshift({ value: name, label: name });
    }
    const typed = search.trim();
    if (allowCustom && typed && !list.some((option) => option.label.toLowerCase() === typed.toLowerCase())) {
      list.push({ value: typed, label: typed, hint: 'Use as typed' });
    }
    return list;
  })();

  const noCountry = countryCodes.length === 0;
  return (
    <MultiCombobox
      options={options}
      value={value}
      onChange={onChange}
      multiple={multiple}
      label={label}
      placeholder={
        placeholder ?? (noCountry ? 'Choose a country first' : multiple ? 'All cities' : 'Choose a city')
      }
      searchPlaceholder="Type a city name…"
      emptyText={noCountry ? 'Choose a country first.' : 'No city starts with that.'}
      loading={loading}
      disabled={disabled || noCountry}
      maxSelected={multiple ? 20 : undefined}
      onSearchChange={setSearch}
      footer={
        truncated
          ? 'Showing the first 500 cities. Type to narrow the list.'
          : countryCodes.length > 3
            ? 'Cities of the first three chosen countries are listed.'
            : undefined
      }
      testId={testId}
      className={className}
      {...aria}
    />
  );
}
