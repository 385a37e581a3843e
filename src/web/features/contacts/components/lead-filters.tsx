import { categoryName } from '@shared/categories';
import { Crown, Lock, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { CategoryPicker, CityPicker, CountryPicker } from '@/components/contacts/reference-pickers';
import { SearchInput } from '@/components/search-input';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useCountries } from '@/hooks/use-reference';
import type { LeadFilterValues } from '../api/leads';
import { includedPhrase, type LeadScope, type LeadScopeLimits } from '../lib/browse-params';

type VerificationChoice = 'any' | 'verified' | 'verified_30' | 'verified_90' | 'unverified';

const VERIFICATION_CHOICES: { value: VerificationChoice; label: string }[] = [
  { value: 'any', label: 'Any status' },
  { value: 'verified', label: 'Verified (any date)' },
  { value: 'verified_30', label: 'Verified in the last 30 days' },
  { value: 'verified_90', label: 'Verified in the last 90 days' },
  { value: 'unverified', label: 'Not yet verified' },
];

function verificationChoice(filters: LeadFilterValues): VerificationChoice {
  if (filters.unverifiedOnly) return 'unverified';
  if (filters.verifiedWithinDays === 30) return 'verified_30';
  if (filters.verifiedWithinDays === 90) return 'verified_90';
  return filters.verifiedOnly || filters.verifiedWithinDays ? 'verified' : 'any';
}

function verificationPatch(choice: VerificationChoice): Partial<LeadFilterValues> {
  return {
    verifiedOnly: choice === 'verified',
    verifiedWithinDays: choice === 'verified_30' ? 30 : choice === 'verified_90' ? 90 : null,
    unverifiedOnly: choice === 'unverified',
  };
}

/** Verification status and age: "Verified" means a dated check (PRODUCT.md). */
function VerificationField({
  filters,
  onChange,
}: {
  filters: LeadFilterValues;
  onChange: (patch: Partial<LeadFilterValues>) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Verification</Label>
      <Select
        value={verificationChoice(filters)}
        onValueChange={(value) => onChange(verificationPatch(value as VerificationChoice))}
      >
        <SelectTrigger id={id} className="w-full" data-testid="filter-verification">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {VERIFICATION_CHOICES.map((choice) => (
            <SelectItem key={choice.value} value={choice.value}>
              {choice.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** The brief: the keyword search waits for 300 ms of quiet before it searches. */
export const KEYWORD_DEBOUNCE_MS = 300;

/** The keyword box: typed text goes out after a pause; a cleared filter clears the box. */
function KeywordField({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, KEYWORD_DEBOUNCE_MS);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the debounced text should search
  useEffect(() => {
    if (debounced !== value) onChange(debounced);
  }, [debounced]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow outside changes (Clear all, back button)
  useEffect(() => {
    if (value !== debounced) setText(value);
  }, [value]);

  const short = text.trim().length > 0 && text.trim().length < 3;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Keyword</Label>
      <SearchInput
        id={id}
        value={text}
        onChange={setText}
        placeholder="Company or contact name"
        maxLength={100}
        aria-describedby={`${id}-hint`}
        busy={text !== debounced}
        data-testid="filter-keyword"
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {short ? 'Type at least 3 characters.' : 'Also finds categories: try “haulage” or “bakery”.'}
      </p>
    </div>
  );
}

function ToggleRow({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-3">
      <Label htmlFor={id} className="font-normal">
        {label}
      </Label>
      <Switch id={id} checked={checked} onCheckedChange={onChange} data-testid={testId} />
    </div>
  );
}

/** The countries and categories the plan limits search to, with Change and the way to more. */
function FreeScopeSummary({
  scope,
  limits,
  onChangeScope,
}: {
  scope: LeadScope;
  limits: LeadScopeLimits;
  onChangeScope: () => void;
}) {
  const { byCode } = useCountries();
  return (
    <div className="grid gap-3 rounded-lg border border-dashed bg-muted/40 p-3" data-testid="free-scope">
      <div className="flex items-start justify-between gap-2">
        <p className="flex items-center gap-1.5 text-sm font-medium">
          <Lock className="size-3.5 text-muted-foreground" aria-hidden="true" />
          Your plan's directory
        </p>
        <Button
          variant="link"
          size="sm"
          className="h-auto p-0"
          onClick={onChangeScope}
          data-testid="change-free-scope"
        >
          Change
        </Button>
      </div>
      <dl className="grid gap-2 text-sm">
        <div>
          <dt className="text-xs text-muted-foreground">
            {limits.countries === 1 ? 'Country' : 'Countries'}
          </dt>
          <dd data-testid="free-scope-country">
            {limits.countries < 0
              ? 'All countries'
              : scope.countryCodes.map((code, index) => {
                  const country = byCode.get(code);
                  return (
                    <span key={code}>
                      {index > 0 && ', '}
                      {country ? (
                        <>
                          <span aria-hidden="true">{country.flag}</span> {country.name}
                        </>
                      ) : (
                        code
                      )}
                    </span>
                  );
                })}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">
            {limits.categories === 1 ? 'Category' : 'Categories'}
          </dt>
          <dd data-testid="free-scope-category">
            {limits.categories < 0 ? 'All categories' : scope.categories.map(categoryName).join(', ')}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-muted-foreground">
        Your plan includes {includedPhrase(limits)}.{' '}
        <Link
          to="/upgrade"
          className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
        >
          <Crown className="size-3" aria-hidden="true" />
          Upgrade for more
        </Link>
      </p>
    </div>
  );
}

export function LeadFilters({
  filters,
  onChange,
  onClear,
  active,
  scope,
  limits,
  onChangeScope,
}: {
  filters: LeadFilterValues;
  onChange: (patch: Partial<LeadFilterValues>) => void;
  onClear: () => void;
  active: boolean;
  /** Set when the plan limits countries or categories: the limited sides are fixed to the choice. */
  scope?: LeadScope | null;
  limits?: LeadScopeLimits;
  onChangeScope?: () => void;
}) {
  const fixed = scope && limits ? { scope, limits } : null;
  const countryFixed = !!fixed && fixed.limits.countries >= 0;
  const categoryFixed = !!fixed && fixed.limits.categories >= 0;
  return (
    <search aria-label="Filter contacts" className="grid gap-5" data-testid="lead-filters">
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-semibold">Filters</h2>
        {active && (
          <Button
            variant="ghost"
            size="sm"
            onClick={onClear}
            className="h-7 px-2"
            data-testid="clear-filters"
          >
            <X aria-hidden="true" />
            Clear all
          </Button>
        )}
      </div>
      {fixed && onChangeScope && (
        <FreeScopeSummary scope={fixed.scope} limits={fixed.limits} onChangeScope={onChangeScope} />
      )}
      {!countryFixed && (
        <div className="grid gap-2">
          <Label asChild>
            <span>Country</span>
          </Label>
          <CountryPicker
            value={filters.country}
            onChange={(country) => onChange({ country, city: country.length === 0 ? [] : filters.city })}
            testId="filter-country"
          />
        </div>
      )}
      <div className="grid gap-2">
        <Label asChild>
          <span>City</span>
        </Label>
        <CityPicker
          countryCodes={countryFixed && scope ? scope.countryCodes : filters.country}
          value={filters.city}
          onChange={(city) => onChange({ city })}
          testId="filter-city"
        />
      </div>
      {!categoryFixed && (
        <div className="grid gap-2">
          <Label asChild>
            <span>Category</span>
          </Label>
          <CategoryPicker
            value={filters.category}
            onChange={(category) => onChange({ category })}
            testId="filter-category"
          />
        </div>
      )}
      <KeywordField value={filters.q} onChange={(q) => onChange({ q })} />
      <VerificationField filters={filters} onChange={onChange} />
      <div className="grid gap-3 border-t pt-4">
        <ToggleRow
          label="Has phone"
          checked={filters.hasPhone}
          onChange={(hasPhone) => onChange({ hasPhone })}
          testId="filter-phone"
        />
        <ToggleRow
          label="Has website"
          checked={filters.hasWebsite}
          onChange={(hasWebsite) => onChange({ hasWebsite })}
          testId="filter-website"
        />
      </div>
    </search>
  );
}
