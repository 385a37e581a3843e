import { CONTACT_SOURCES, VERIFICATION_STATUSES } from '@shared/contacts';
import { X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { VERIFICATION_LABELS } from '@/components/contacts/contact-badges';
import { CategoryPicker, CityPicker, CountryPicker } from '@/components/contacts/reference-pickers';
import { MultiCombobox } from '@/components/multi-combobox';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import type { AdminDirectoryFilters, DeletedFilter } from '../api/admin-directory';
import { KEYWORD_DEBOUNCE_MS } from './lead-filters';

export const SOURCE_LABELS: Record<(typeof CONTACT_SOURCES)[number], string> = {
  import: 'CSV import',
  data_entry: 'Data entry',
  scraper: 'Scraper',
  seed: 'Sample data',
};

const SOURCE_OPTIONS = CONTACT_SOURCES.map((value) => ({ value, label: SOURCE_LABELS[value] }));
const STATUS_OPTIONS = VERIFICATION_STATUSES.map((value) => ({ value, label: VERIFICATION_LABELS[value] }));

export const EMPTY_ADMIN_FILTERS: AdminDirectoryFilters = {
  country: [],
  city: [],
  category: [],
  q: '',
  verifiedOnly: false,
  verifiedWithinDays: null,
  unverifiedOnly: false,
  hasPhone: false,
  hasWebsite: false,
  source: [],
  status: [],
  deleted: 'live',
};

export function hasAdminFilters(filters: AdminDirectoryFilters): boolean {
  return JSON.stringify({ ...filters, q: filters.q.trim() }) !== JSON.stringify(EMPTY_ADMIN_FILTERS);
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label asChild>
        <span className="text-xs text-muted-foreground">{label}</span>
      </Label>
      {children}
    </div>
  );
}

export function AdminDirectoryFiltersBar({
  filters,
  onChange,
}: {
  filters: AdminDirectoryFilters;
  onChange: (next: AdminDirectoryFilters) => void;
}) {
  const id = useId();
  const [text, setText] = useState(filters.q);
  const debounced = useDebouncedValue(text, KEYWORD_DEBOUNCE_MS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced keyword searches
  useEffect(() => {
    if (debounced !== filters.q) onChange({ ...filters, q: debounced });
  }, [debounced]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow Clear
  useEffect(() => {
    if (filters.q !== debounced) setText(filters.q);
  }, [filters.q]);
  const set = (patch: Partial<AdminDirectoryFilters>) => onChange({ ...filters, ...patch });

  return (
    <search aria-label="Filter the directory" className="grid gap-3" data-testid="admin-directory-filters">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Field label="Keyword">
          <SearchInput
            id={id}
            value={text}
            onChange={setText}
            placeholder="Company or contact name"
            aria-label="Keyword: company or contact name"
            maxLength={100}
            busy={text !== debounced}
            data-testid="admin-filter-keyword"
          />
        </Field>
        <Field label="Country">
          <CountryPicker
            value={filters.country}
            onChange={(country) => set({ country, city: country.length ? filters.city : [] })}
          />
        </Field>
        <Field label="City">
          <CityPicker
            countryCodes={filters.country}
            value={filters.city}
            onChange={(city) => set({ city })}
          />
        </Field>
        <Field label="Category">
          <CategoryPicker value={filters.category} onChange={(category) => set({ category })} />
        </Field>
        <Field label="Source">
          <MultiCombobox
            options={SOURCE_OPTIONS}
            value={filters.source}
            onChange={(source) => set({ source })}
            label="Source"
            placeholder="All sources"
          />
        </Field>
        <Field label="Verification">
          <MultiCombobox
            options={STATUS_OPTIONS}
            value={filters.status}
            onChange={(status) => set({ status })}
            label="Verification"
            placeholder="Any status"
          />
        </Field>
        <Field label="Deleted">
          <Select value={filters.deleted} onValueChange={(value) => set({ deleted: value as DeletedFilter })}>
            <SelectTrigger
              className="w-full"
              aria-label="Deleted contacts"
              data-testid="admin-filter-deleted"
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="live">Live contacts</SelectItem>
              <SelectItem value="all">Live and deleted</SelectItem>
              <SelectItem value="deleted">Deleted only (recycle bin)</SelectItem>
            </SelectContent>
          </Select>
        </Field>
        <div className="flex flex-wrap items-end gap-x-4 gap-y-2 pb-1.5">
          {(
            [
              ['hasPhone', 'Has phone'],
              ['hasWebsite', 'Has website'],
            ] as const
          ).map(([key, label]) => (
            <div key={key} className="flex items-center gap-2">
              <Switch
                id={`${id}-${key}`}
                checked={filters[key]}
                onCheckedChange={(value) => set({ [key]: value })}
              />
              <Label htmlFor={`${id}-${key}`} className="font-normal">
                {label}
              </Label>
            </div>
          ))}
          {hasAdminFilters(filters) && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => onChange(EMPTY_ADMIN_FILTERS)}
              className="h-7 px-2"
            >
              <X aria-hidden="true" />
              Clear
            </Button>
          )}
        </div>
      </div>
    </search>
  );
}
