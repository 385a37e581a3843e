import type { ContactList } from '@shared/lists';
import { useQuery } from '@tanstack/react-query';
import { Filter, Loader2, Plus, Users, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  CategoryPicker,
  CityPicker,
  CountryPicker,
  categoryName,
} from '@/components/contacts/reference-pickers';
import { SegmentPicker, useSegments } from '@/components/segments/segment-picker';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useCountries } from '@/hooks/use-reference';
import { getErrorMessage } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import { buildQueryString, getJson } from '@/lib/http';
import { describeLeadFilter, type LeadFilterDraft, leadFilterCountParams } from '../../lib/campaign-form';

interface LeadCount {
  count: number;
  capped: boolean;
}

/** How many directory contacts a selection matches (GET /api/leads/count). */
function useSelectionCount(filter: LeadFilterDraft, enabled = true) {
  const params = leadFilterCountParams(filter);
  return useQuery<LeadCount>({
    queryKey: ['/api/leads', 'count', params],
    queryFn: ({ signal }) => getJson(`/api/leads/count${buildQueryString(params)}`, signal),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

function CountText({ filter }: { filter: LeadFilterDraft }) {
  const count = useSelectionCount(filter);
  if (count.isPending) return <Loader2 className="size-3.5 animate-spin" aria-label="Counting" />;
  if (count.isError)
    return <span className="text-destructive">{getErrorMessage(count.error, 'Count failed')}</span>;
  return (
    <span data-testid="lead-selection-count">
      {formatNumber(count.data.count)}
      {count.data.capped ? '+' : ''} contacts
    </span>
  );
}

/** The form for one lead-discovery selection, with its live count; "Add" puts it in the audience. */
function LeadSelectionBuilder({
  onAdd,
  onCancel,
}: {
  onAdd: (filter: LeadFilterDraft) => void;
  onCancel: () => void;
}) {
  const keywordId = useId();
  const [country, setCountry] = useState<string[]>([]);
  const [city, setCity] = useState<string[]>([]);
  const [category, setCategory] = useState<string[]>([]);
  const [keyword, setKeyword] = useState('');
  const [verifiedOnly, setVerifiedOnly] = useState(true);
  const debouncedKeyword = useDebouncedValue(keyword, 300).trim();
  const draft: LeadFilterDraft = {
    ...(country.length ? { country } : {}),
    ...(city.length ? { city } : {}),
    ...(category.length ? { category } : {}),
    ...(debouncedKeyword.length >= 3 ? { keyword: debouncedKeyword } : {}),
    ...(verifiedOnly ? { verifiedOnly: true } : {}),
  };
  const count = useSelectionCount(draft);
  const shortKeyword = keyword.trim().length > 0 && keyword.trim().length < 3;

  return (
    <div className="space-y-4 rounded-lg border bg-muted/30 p-4" data-testid="lead-selection-builder">
      <div className="grid gap-4 sm:grid-cols-2">
        <CountryPicker
          value={country}
          onChange={(next) => {
            setCountry(next);
            if (next.length === 0) setCity([]);
          }}
          testId="lead-country"
        />
        <CityPicker countryCodes={country} value={city} onChange={setCity} testId="lead-city" />
        <CategoryPicker value={category} onChange={setCategory} testId="lead-category" />
        <div className="grid gap-2">
          <Label htmlFor={keywordId}>Keyword</Label>
          <Input
            id={keywordId}
            value={keyword}
            onChange={(event) => setKeyword(event.target.value)}
            placeholder="Company or contact name"
            maxLength={100}
          />
          {shortKeyword && <p className="text-xs text-muted-foreground">Type at least 3 characters.</p>}
        </div>
      </div>
      <div className="flex items-center gap-2">
        <Switch id={`${keywordId}-verified`} checked={verifiedOnly} onCheckedChange={setVerifiedOnly} />
        <Label htmlFor={`${keywordId}-verified`} className="font-normal">
          Verified contacts only
        </Label>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {count.isPending ? (
            'Counting…'
          ) : count.isError ? (
            <span className="text-destructive">{getErrorMessage(count.error, 'The count failed.')}</span>
          ) : (
            <>
              Matches <strong className="text-foreground">{formatNumber(count.data.count)}</strong>
              {count.data.capped ? '+' : ''} contacts
            </>
          )}
        </p>
        <div className="flex gap-2">
          <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            type="button"
            size="sm"
            disabled={count.isError || count.isPending || count.data?.count === 0}
            onClick={() => onAdd(draft)}
            data-testid="lead-selection-add"
          >
            <Plus aria-hidden="true" />
            Add selection
          </Button>
        </div>
      </div>
    </div>
  );
}

/**
 * Step 2 of the campaign form: the user's lists and/or lead-discovery selections. Contacts are copied into
 * the campaign at launch, so the numbers here are an upper bound before duplicates and suppressions.
 */
export function AudienceFields({
  listIds,
  segmentIds,
  leadFilters,
  onChange,
  error,
}: {
  listIds: string[];
  segmentIds: string[];
  leadFilters: LeadFilterDraft[];
  onChange: (next: { listIds: string[]; segmentIds: string[]; leadFilters: LeadFilterDraft[] }) => void;
  error?: string;
}) {
  const segments = useSegments();
  const listOf = new Map((segments.data?.segments ?? []).map((s) => [s.id, s.listId]));
  const segmentOf = (listId: string) => segmentIds.find((id) => listOf.get(id) === listId) ?? null;
  /** One segment per list: choosing one replaces the list's previous choice. */
  const chooseSegment = (listId: string, segmentId: string | null) =>
    onChange({
      listIds,
      segmentIds: [
        ...segmentIds.filter((id) => listOf.get(id) !== listId),
        ...(segmentId ? [segmentId] : []),
      ],
      leadFilters,
    });
  const lists = useQuery<{ lists: ContactList[] }>({ queryKey: ['/api/lists'], staleTime: 30_000 });
  const { byCode } = useCountries();
  const [building, setBuilding] = useState(false);
  const allLists = lists.data?.lists ?? [];
  const chosenListContacts = allLists
    .filter((list) => listIds.includes(list.id))
    .reduce((sum, list) => sum + list.contactCount, 0);

  const toggleList = (id: string, checked: boolean) =>
    onChange({
      listIds: checked ? [...listIds, id] : listIds.filter((value) => value !== id),
      // A list taken out takes its segment with it.
      segmentIds: checked ? segmentIds : segmentIds.filter((s) => listOf.get(s) !== id),
      leadFilters,
    });

  return (
    <div className="space-y-6" data-testid="audience-fields">
      <section className="space-y-3">
        <div className="flex items-center justify-between gap-3">
          <h3 className="flex items-center gap-2 font-medium">
            <Users className="size-4 text-muted-foreground" aria-hidden="true" />
            Your lists
          </h3>
          {listIds.length > 0 && (
            <span className="text-sm text-muted-foreground" data-testid="audience-list-total">
              {formatNumber(chosenListContacts)} contacts in {listIds.length}{' '}
              {listIds.length === 1 ? 'list' : 'lists'}
            </span>
          )}
        </div>
        {lists.isPending ? (
          <div className="space-y-2">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : lists.isError ? (
          <Alert variant="destructive">
            <AlertDescription>
              {getErrorMessage(lists.error, 'Your lists could not be loaded.')}
            </AlertDescription>
          </Alert>
        ) : allLists.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            You have no lists yet.{' '}
            <Link
              to="/lead-discovery/import"
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Import a CSV
            </Link>{' '}
            or add contacts from lead discovery below.
          </p>
        ) : (
          <ul className="max-h-64 divide-y overflow-y-auto rounded-lg border" aria-label="Your lists">
            {allLists.map((list) => {
              const id = `audience-list-${list.id}`;
              return (
                <li key={list.id} className="space-y-2 px-3 py-2.5">
                  <div className="flex items-center gap-3">
                    <Checkbox
                      id={id}
                      checked={listIds.includes(list.id)}
                      onCheckedChange={(checked) => toggleList(list.id, checked === true)}
                      data-testid="audience-list"
                      data-list-name={list.name}
                    />
                    <Label
                      htmlFor={id}
                      className="flex min-w-0 flex-1 items-center justify-between gap-3 font-normal"
                    >
                      <span className="truncate">{list.name}</span>
                      <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                        {formatNumber(list.contactCount)} {list.contactCount === 1 ? 'contact' : 'contacts'}
                      </span>
                    </Label>
                  </div>
                  {listIds.includes(list.id) && (
                    <SegmentPicker
                      listId={list.id}
                      listName={list.name}
                      value={segmentOf(list.id)}
                      onChange={(segmentId) => chooseSegment(list.id, segmentId)}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <section className="space-y-3">
        <h3 className="flex items-center gap-2 font-medium">
          <Filter className="size-4 text-muted-foreground" aria-hidden="true" />
          Lead discovery
        </h3>
        <p className="text-sm text-muted-foreground">
          Reach businesses from the verified directory by country, city and category.
        </p>
        {leadFilters.length > 0 && (
          <ul className="space-y-2" aria-label="Lead-discovery selections">
            {leadFilters.map((filter, index) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: selections have no id; their order is stable
                key={index}
                className="flex items-start justify-between gap-3 rounded-lg border px-3 py-2 text-sm"
                data-testid="audience-lead-selection"
              >
                <div className="min-w-0">
                  <p className="font-medium">
                    {describeLeadFilter(filter, {
                      country: (code) => byCode.get(code)?.name ?? code,
                      category: categoryName,
                    })}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    <CountText filter={filter} />
                  </p>
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-7 shrink-0"
                  aria-label="Remove this selection"
                  onClick={() =>
                    onChange({ listIds, segmentIds, leadFilters: leadFilters.filter((_, i) => i !== index) })
                  }
                >
                  <X aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        {building ? (
          <LeadSelectionBuilder
            onCancel={() => setBuilding(false)}
            onAdd={(filter) => {
              onChange({ listIds, segmentIds, leadFilters: [...leadFilters, filter] });
              setBuilding(false);
            }}
          />
        ) : (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => setBuilding(true)}
            disabled={leadFilters.length >= 10}
            data-testid="add-lead-selection"
          >
            <Plus aria-hidden="true" />
            Add a lead-discovery selection
          </Button>
        )}
      </section>

      {error && (
        <p className="text-sm font-medium text-destructive" role="alert" data-testid="audience-error">
          {error}
        </p>
      )}
      <p className="text-xs text-muted-foreground">
        Contacts are copied into the campaign when you launch it. Addresses found in several sources are sent
        to once, and unsubscribed or bounced addresses are left out.
      </p>
    </div>
  );
}
