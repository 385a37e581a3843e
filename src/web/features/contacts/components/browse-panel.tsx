import { LEADS_PAGE_SIZE_DEFAULT, type LeadSort } from '@shared/contacts';
import { ListPlus, Loader2, SearchX, SlidersHorizontal, Users } from 'lucide-react';
import { useMemo, useState } from 'react';
import { SampleDataBadge } from '@/components/contacts/contact-badges';
import { SampleDataBanner } from '@/components/contacts/sample-data-banner';
import { CursorPagination } from '@/components/cursor-pagination';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { useCursorPages } from '@/hooks/use-cursor-pages';
import { useDirectoryStats } from '@/hooks/use-directory-stats';
import { rowRange } from '@/lib/cursor-pages';
import { formatNumber } from '@/lib/format';
import {
  EMPTY_LEAD_FILTERS,
  type LeadFilterValues,
  useFreePlanScope,
  useLeadCount,
  useLeadScopeLimits,
  useLeadSearch,
} from '../api/leads';
import { applyFreeScope, filtersKey, hasActiveFilters, scopeLists, scopeProblem } from '../lib/browse-params';
import {
  emptySelection,
  isEmptySelection,
  isRowSelected,
  pageCheckState,
  type Selection,
  selectedCount,
  togglePage,
  toggleRow,
} from '../lib/selection';
import { AddToListDialog } from './add-to-list-dialog';
import { FreeScopeDialog, FreeScopeSetup, NoDirectoryAccess } from './free-scope-form';
import { LeadFilters } from './lead-filters';
import { LeadsTable } from './leads-table';

const SORT_LABELS: Record<LeadSort, string> = {
  company_asc: 'Company A–Z',
  company_desc: 'Company Z–A',
  newest: 'Newest first',
};

/** "12,480" or, for a keyword count that stopped counting (a lower bound), "10,000+". */
export function formatAudience(count: { count: number; capped: boolean }): string {
  return `${formatNumber(count.count)}${count.capped ? '+' : ''}`;
}

function AudienceCount({
  count,
  loading,
  updating,
  sample,
}: {
  count: { count: number; capped: boolean } | undefined;
  loading: boolean;
  updating: boolean;
  /** The results hold generated sample records. */
  sample: boolean;
}) {
  return (
    <div className="flex items-center gap-3" aria-live="polite" data-testid="audience">
      <div className="flex size-10 items-center justify-center rounded-lg bg-secondary text-primary">
        <Users className="size-5" aria-hidden="true" />
      </div>
      <div>
        <p className="text-sm text-muted-foreground">Estimated audience</p>
        {loading && !count ? (
          <Skeleton className="mt-1 h-6 w-40" />
        ) : (
          <p className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            <span data-testid="audience-count">{count ? formatAudience(count) : '—'}</span>
            <span className="text-base font-normal text-muted-foreground">
              {count?.count === 1 && !count.capped ? 'contact' : 'contacts'}
            </span>
            {updating && (
              <Loader2 className="size-4 animate-spin text-muted-foreground" aria-label="Updating" />
            )}
            {sample && <SampleDataBadge />}
          </p>
        )}
        {count?.capped && (
          <p className="text-xs text-muted-foreground" data-testid="audience-lower-bound">
            At least {formatNumber(count.count)}: keyword counts stop there. Every match is still listed.
          </p>
        )}
      </div>
    </div>
  );
}

export function BrowsePanel({
  filters: urlFilters,
  sort,
  onFiltersChange,
  onSortChange,
}: {
  filters: LeadFilterValues;
  sort: LeadSort;
  onFiltersChange: (filters: LeadFilterValues) => void;
  onSortChange: (sort: LeadSort) => void;
}) {
  const scopeQuery = useFreePlanScope();
  const limits = useLeadScopeLimits();
  const restricted = scopeQuery.data?.restricted ?? false;
  const apiScope = restricted ? (scopeQuery.data?.scope ?? null) : null;
  const scope = useMemo(() => (apiScope ? scopeLists(apiScope) : null), [apiScope]);
  // A limit of 0 includes none of the directory; a limited side with nothing chosen asks for a choice.
  const noAccess = restricted && !!limits && (limits.countries === 0 || limits.categories === 0);
  const needsScope = restricted && !!limits && !noAccess && (!scope || scopeProblem(scope, limits) !== null);
  const filters = useMemo(() => applyFreeScope(urlFilters, scope, limits), [urlFilters, scope, limits]);
  const key = filtersKey(filters, sort);

  const ready = scopeQuery.isSuccess && (!restricted || (!!limits && !needsScope && !noAccess));
  const pager = useCursorPages(key);
  const search = useLeadSearch(
    { filters, sort, cursor: pager.cursor, limit: LEADS_PAGE_SIZE_DEFAULT },
    ready,
  );
  const count = useLeadCount(filters, ready);
  const stats = useDirectoryStats();

  const [selectionState, setSelectionState] = useState<{ key: string; selection: Selection }>({
    key,
    selection: emptySelection(),
  });
  // A new search starts with nothing selected.
  const selection = selectionState.key === key ? selectionState.selection : emptySelection<string>();
  const setSelection = (next: Selection) => setSelectionState({ key, selection: next });

  const [addOpen, setAddOpen] = useState(false);
  const [scopeOpen, setScopeOpen] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(false);

  const items = search.data?.items;
  const pageIds = useMemo(() => items?.map((lead) => lead.id) ?? [], [items]);
  const total = count.data?.count;
  const chosen = selectedCount(selection, total);
  const active = hasActiveFilters(urlFilters);
  // The banner describes the directory; the count's badge says whether these results hold sample rows.
  const sampleRows = Boolean(items?.some((lead) => lead.sample));
  const sample = Boolean(stats.data?.sampleData) || sampleRows;

  const change = (patch: Partial<LeadFilterValues>) => onFiltersChange({ ...urlFilters, ...patch });
  const clear = () => onFiltersChange(EMPTY_LEAD_FILTERS);

  if (scopeQuery.isError) {
    return (
      <QueryError
        title="Browse Contacts could not be opened"
        error={scopeQuery.error}
        onRetry={() => scopeQuery.refetch()}
      />
    );
  }
  if (noAccess) return <NoDirectoryAccess />;
  if (needsScope && limits) return <FreeScopeSetup limits={limits} initial={scope} />;

  const filterPanel = (
    <LeadFilters
      filters={filters}
      onChange={change}
      onClear={clear}
      active={active}
      scope={scope}
      limits={limits}
      onChangeScope={() => setScopeOpen(true)}
    />
  );

  const showSelectAll =
    selection.mode === 'ids' &&
    pageIds.length > 0 &&
    pageCheckState(selection, pageIds) === true &&
    total !== undefined &&
    total > pageIds.length;
  const range = rowRange(pager.pages, LEADS_PAGE_SIZE_DEFAULT, items?.length ?? 0);

  return (
    <div className="grid gap-6 lg:grid-cols-[17rem_minmax(0,1fr)]">
      <aside className="hidden lg:block">
        <Card className="sticky top-20 py-5">
          <CardContent className="px-5">{filterPanel}</CardContent>
        </Card>
      </aside>

      <section className="grid min-w-0 content-start gap-4" aria-label="Results">
        {sample && <SampleDataBanner />}
        <Card className="py-4">
          <CardContent className="flex flex-col gap-4 px-4 sm:flex-row sm:items-center sm:justify-between">
            <AudienceCount
              count={count.data}
              loading={count.isPending}
              updating={count.isFetching && count.isPlaceholderData}
              sample={sampleRows}
            />
            <div className="flex flex-wrap items-center gap-2">
              <Sheet open={filtersOpen} onOpenChange={setFiltersOpen}>
                <SheetTrigger asChild>
                  <Button variant="outline" className="lg:hidden" data-testid="open-filters">
                    <SlidersHorizontal aria-hidden="true" />
                    Filters
                  </Button>
                </SheetTrigger>
                <SheetContent side="left" className="w-80 overflow-y-auto p-5">
                  <SheetTitle className="sr-only">Filters</SheetTitle>
                  <SheetDescription className="sr-only">Narrow the contacts shown.</SheetDescription>
                  <div className="pt-6">{filterPanel}</div>
                </SheetContent>
              </Sheet>
              <Select value={sort} onValueChange={(value) => onSortChange(value as LeadSort)}>
                <SelectTrigger className="w-40" aria-label="Sort by" data-testid="sort-select">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {(Object.keys(SORT_LABELS) as LeadSort[]).map((value) => (
                    <SelectItem key={value} value={value}>
                      {SORT_LABELS[value]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Button
                onClick={() => setAddOpen(true)}
                disabled={isEmptySelection(selection) || chosen === 0}
                data-testid="add-to-list"
              >
                <ListPlus aria-hidden="true" />
                Add to list{chosen > 0 ? ` (${formatNumber(chosen)})` : ''}
              </Button>
            </div>
          </CardContent>
        </Card>

        {(showSelectAll || selection.mode === 'all') && (
          <div
            className="flex flex-wrap items-center justify-center gap-x-2 gap-y-1 rounded-lg bg-secondary px-4 py-2 text-sm text-secondary-foreground"
            data-testid="selection-banner"
          >
            {selection.mode === 'all' ? (
              <>
                <span>
                  All <strong>{count.data ? formatAudience(count.data) : ''}</strong> matching contacts are
                  selected.
                </span>
                <Button
                  variant="link"
                  size="sm"
                  className="h-auto p-0"
                  onClick={() => setSelection(emptySelection())}
                >
                  Clear selection
                </Button>
              </>
            ) : (
              <>
                <span>All {formatNumber(pageIds.length)} contacts on this page are selected.</span>
                <Button
                  variant="link"
                  size="sm"
                  className="h-auto p-0"
                  onClick={() => setSelection({ mode: 'all' })}
                  data-testid="select-all-matching"
                >
                  Select all {count.data ? formatAudience(count.data) : ''} matching
                </Button>
              </>
            )}
          </div>
        )}
        {selection.mode === 'ids' &&
          !showSelectAll &&
          total !== undefined &&
          total > 0 &&
          pageIds.length > 0 && (
            <div className="flex justify-end">
              <Button
                variant="link"
                size="sm"
                className="h-auto p-0"
                onClick={() => setSelection({ mode: 'all' })}
                data-testid="select-all-matching"
              >
                Select all {count.data ? formatAudience(count.data) : ''} matching
              </Button>
            </div>
          )}

        {search.isError && !items ? (
          <QueryError
            title="Contacts could not be loaded"
            error={search.error}
            onRetry={() => search.refetch()}
            testId="leads-error"
          />
        ) : items && items.length === 0 && !search.isPlaceholderData ? (
          <div
            className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-card px-6 py-14 text-center"
            data-testid="leads-empty"
          >
            <SearchX className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium">No contacts match these filters</p>
            <p className="max-w-sm text-sm text-muted-foreground">
              Try another city or keyword, or set Verification to Any status, or turn off Has phone or Has
              website.
            </p>
            {active && (
              <Button variant="outline" size="sm" className="mt-2" onClick={clear}>
                Clear all filters
              </Button>
            )}
          </div>
        ) : (
          <>
            {search.isError && (
              <QueryError
                title="The latest results could not be loaded"
                error={search.error}
                onRetry={() => search.refetch()}
              />
            )}
            <LeadsTable
              leads={items}
              loading={search.isPending}
              stale={search.isPlaceholderData}
              sort={sort}
              onSortChange={onSortChange}
              isSelected={(id) => isRowSelected(selection, id)}
              onToggle={(id, value) => setSelection(toggleRow(selection, id, value, pageIds))}
              pageSelection={pageCheckState(selection, pageIds)}
              onTogglePage={(value) => setSelection(togglePage(selection, pageIds, value))}
            />
            {items && items.length > 0 && (
              <CursorPagination
                from={range.from}
                to={range.to}
                total={total}
                totalCapped={count.data?.capped}
                hasPrevious={pager.hasPrevious}
                hasNext={Boolean(search.data?.nextCursor)}
                onPrevious={pager.goPrevious}
                onNext={() => pager.goNext(search.data?.nextCursor)}
                busy={search.isPlaceholderData && search.isFetching}
                testId="leads-pagination"
              />
            )}
          </>
        )}
      </section>

      <AddToListDialog
        open={addOpen}
        onOpenChange={setAddOpen}
        target={selection.mode === 'all' ? { allMatching: filters } : { contactIds: [...selection.ids] }}
        count={chosen}
        onAdded={() => setSelection(emptySelection())}
      />
      {scope && limits && (
        <FreeScopeDialog open={scopeOpen} onOpenChange={setScopeOpen} scope={scope} limits={limits} />
      )}
    </div>
  );
}
