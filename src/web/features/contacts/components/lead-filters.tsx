import { categoryName } from '@shared/categories';
import { Crown, Loader2, Lock, Search, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { CategoryPicker, CityPicker, CountryPicker } from '@/components/contacts/reference-pickers';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useCountries } from '@/hooks/use-reference';
import type { LeadFilterValues } from '../api/leads';

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
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          id={id}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Company or contact name"
          className="pl-9"
          maxLength={100}
          aria-describedby={`${id}-hint`}
          data-testid="filter-keyword"
        />
        {text !== debounced && (
          <Loader2
            className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
            aria-hidden="true"
          />
        )}
      </div>
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

/** A Free-plan user's fixed country and category, with Change and the way to every country. */
function FreeScopeSummary({
  scope,
  onChangeScope,
}: {
  scope: { countryCode: string; category: string };
  onChangeScope: () => void;
}) {
  const { byCode } = useCountries();
  const country = byCode.get(scope.countryCode);
  return (
    <div className="grid gap-3 rounded-lg border border-dashed bg-muted/40 p-3" data-testid="free-scope">
      <div className="flex items-start justify-between gap-2">
        <p className="flex items-center gap-1.5 text-sm font-medium">
          <Lock className="size-3.5 text-muted-foreground" aria-hidden="true" />
          Your Free plan
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
          <dt className="text-xs text-muted-foreground">Country</dt>
          <dd data-testid="free-scope-country">
            {country ? (
              <>
                <span aria-hidden="true">{country.flag}</span> {country.name}
              </>
            ) : (
              scope.countryCode
            )}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-muted-foreground">Category</dt>
          <dd data-testid="free-scope-category">{categoryName(scope.category)}</dd>
        </div>
      </dl>
      <p className="text-xs text-muted-foreground">
        The Free plan includes 1 country and 1 category.{' '}
        <Link
          to="/upgrade"
          className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
        >
          <Crown className="size-3" aria-hidden="true" />
          Upgrade for all countries and categories
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
  onChangeScope,
}: {
  filters: LeadFilterValues;
  onChange: (patch: Partial<LeadFilterValues>) => void;
  onClear: () => void;
  active: boolean;
  /** Set for a Free-plan user: country and category are fixed. */
  scope?: { countryCode: string; category: string } | null;
  onChangeScope?: () => void;
}) {
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
      {scope && onChangeScope && <FreeScopeSummary scope={scope} onChangeScope={onChangeScope} />}
      {!scope && (
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
          countryCodes={scope ? [scope.countryCode] : filters.country}
          value={filters.city}
          onChange={(city) => onChange({ city })}
          testId="filter-city"
        />
      </div>
      {!scope && (
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
