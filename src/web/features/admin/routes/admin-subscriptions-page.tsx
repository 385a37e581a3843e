import { ADMIN_SUBSCRIPTION_STATES, type AdminSubscription, PAID_PLAN_IDS } from '@shared/payments';
import { PLAN_NAMES } from '@shared/plans';
import {
  CalendarPlus,
  CreditCard,
  Loader2,
  Search,
  Tags,
  TrendingDown,
  Users,
  Wallet,
  X,
} from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { describeCard, formatNaira, intervalLabel, planDisplayName, subscriptionBadge } from '@/lib/billing';
import { formatDate, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { type AdminSubscriptionList, useAdminSubscriptions } from '../api/billing-admin';
import { ExtendSubscriptionDialog } from '../components/extend-subscription-dialog';
import { PaginationBar } from '../components/pagination-bar';
import { PricingPlansEditor } from '../components/pricing-plans-editor';
import { StatCard, StatCardSkeleton } from '../components/stat-card';
import {
  readSubscriptionListParams,
  SUBSCRIPTIONS_PAGE_SIZE,
  type SubscriptionListParams,
  writeSubscriptionListParams,
} from '../lib/billing-list-params';

const ALL = 'all';
const SEARCH_DEBOUNCE_MS = 300;
const COLUMNS = ['Customer', 'Plan', 'Status', 'Period ends', 'Monthly value', 'Card', ''] as const;

const STATE_LABEL: Record<string, string> = {
  active: 'Active',
  incomplete: 'Incomplete',
  past_due: 'Past due',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

function useSubscriptionListState() {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => readSubscriptionListParams(searchParams), [searchParams]);
  const latest = useRef({ state, setSearchParams });
  latest.current = { state, setSearchParams };
  const update = useCallback((patch: Partial<SubscriptionListParams>) => {
    const { state: current, setSearchParams: set } = latest.current;
    set(writeSubscriptionListParams({ ...current, ...patch }), { replace: true });
  }, []);
  return [state, update] as const;
}

/** Spec §2 /admin/subscriptions: paid subscriptions by state, MRR and churn, manual extensions, and plan prices. */
export default function AdminSubscriptionsPage() {
  const [state, update] = useSubscriptionListState();
  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-subscriptions-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Subscriptions</h1>
        <p className="text-muted-foreground">
          Paid plans across the platform, recurring revenue and plan pricing.
        </p>
      </header>
      <Tabs
        value={state.tab}
        onValueChange={(tab) => update({ tab: tab as SubscriptionListParams['tab'] })}
        className="gap-4"
      >
        <TabsList>
          <TabsTrigger value="subscriptions" data-testid="tab-subscriptions">
            <Users aria-hidden="true" />
            Subscriptions
          </TabsTrigger>
          <TabsTrigger value="plans" data-testid="tab-pricing-plans">
            <Tags aria-hidden="true" />
            Plans &amp; prices
          </TabsTrigger>
        </TabsList>
        <TabsContent value="subscriptions">
          <SubscriptionsPanel state={state} update={update} />
        </TabsContent>
        <TabsContent value="plans">
          <PricingPlansEditor />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function SubscriptionsPanel({
  state,
  update,
}: {
  state: SubscriptionListParams;
  update: (patch: Partial<SubscriptionListParams>) => void;
}) {
  const [searchInput, setSearchInput] = useState(state.search);
  const debouncedSearch = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  const [extending, setExtending] = useState<AdminSubscription | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced value searches.
  useEffect(() => {
    if (debouncedSearch.trim() !== state.search) update({ search: debouncedSearch, page: 1 });
  }, [debouncedSearch, update]);

  const query = useAdminSubscriptions({
    search: state.search || undefined,
    status: state.status,
    plan: state.plan,
    page: state.page,
    pageSize: SUBSCRIPTIONS_PAGE_SIZE,
  });
  const data = query.data;
  const filtered = Boolean(state.search || state.status || state.plan);

  useEffect(() => {
    if (!data || query.isPlaceholderData) return;
    const lastPage = Math.max(1, Math.ceil(data.total / SUBSCRIPTIONS_PAGE_SIZE));
    if (state.page > lastPage) update({ page: lastPage });
  }, [data, query.isPlaceholderData, state.page, update]);

  return (
    <div className="space-y-6">
      <Summary summary={data?.summary} />
      <StateCounts
        byStatus={data?.summary.byStatus}
        selected={state.status}
        onSelect={(status) => update({ status, page: 1 })}
      />
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Paid subscriptions</h2>
          </CardTitle>
          <CardDescription>
            Extend a subscription to add free days, for goodwill or after an outage.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <search
            className="flex flex-col gap-3 lg:flex-row lg:items-center"
            aria-label="Filter subscriptions"
          >
            <div className="relative flex-1 lg:max-w-sm">
              <Label htmlFor="subscriptions-search" className="sr-only">
                Search subscriptions
              </Label>
              <Search
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                id="subscriptions-search"
                type="search"
                value={searchInput}
                onChange={(event) => setSearchInput(event.target.value)}
                placeholder="Email or name"
                className="pl-9"
                data-testid="subscriptions-search"
              />
              {(searchInput.trim() !== state.search || (query.isFetching && query.isPlaceholderData)) && (
                <Loader2
                  className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
                  aria-label="Searching"
                />
              )}
            </div>
            <div className="grid grid-cols-2 gap-3 sm:flex">
              <Select
                value={state.status ?? ALL}
                onValueChange={(value) =>
                  update({ status: value === ALL ? undefined : (value as never), page: 1 })
                }
              >
                <SelectTrigger
                  className="w-full sm:w-40"
                  aria-label="Status"
                  data-testid="subscriptions-status-filter"
                >
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ALL}>All states</SelectItem>
                  {ADMIN_SUBSCRIPTION_STATES.map((status) => (
                    <SelectItem key={status} value={status}>
                      {STATE_LABEL[status] ?? status}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <Select
                value={state.plan ?? ALL}
                onValueChange={(value) =>
                  update({ plan: value === ALL ? undefined : (value as never), page: 1 })
                }
              >
                <SelectTrigger
                  className="w-full sm:w-36"
                  aria-label="Plan"
                  data-testid="subscriptions-plan-filter"
                >
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ALL}>All plans</SelectItem>
                  {PAID_PLAN_IDS.map((plan) => (
                    <SelectItem key={plan} value={plan}>
                      {PLAN_NAMES[plan]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              {filtered && (
                <Button
                  variant="ghost"
                  onClick={() => {
                    setSearchInput('');
                    update({ search: '', status: undefined, plan: undefined, page: 1 });
                  }}
                >
                  <X aria-hidden="true" />
                  Clear
                </Button>
              )}
            </div>
          </search>
          {query.isError && !data ? (
            <QueryError
              title="Subscriptions could not be loaded"
              error={query.error}
              onRetry={() => query.refetch()}
            />
          ) : (
            <>
              <SubscriptionsTable
                rows={data?.subscriptions}
                loading={query.isPending}
                stale={query.isPlaceholderData}
                filtered={filtered}
                onExtend={setExtending}
              />
              {data && data.total > 0 && (
                <PaginationBar
                  page={state.page}
                  pageSize={data.pageSize || SUBSCRIPTIONS_PAGE_SIZE}
                  total={data.total}
                  onPageChange={(page) => update({ page })}
                  busy={query.isPlaceholderData}
                  noun={data.total === 1 ? 'subscription' : 'subscriptions'}
                  testId="subscriptions-pagination"
                />
              )}
            </>
          )}
        </CardContent>
      </Card>
      <ExtendSubscriptionDialog subscription={extending} onClose={() => setExtending(null)} />
    </div>
  );
}

function Summary({ summary }: { summary: AdminSubscriptionList['summary'] | undefined }) {
  if (!summary) {
    return (
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCardSkeleton />
        <StatCardSkeleton />
        <StatCardSkeleton />
      </div>
    );
  }
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <StatCard
        label="Monthly recurring revenue"
        value={formatNaira(summary.mrr)}
        hint="Active monthly plans plus annual plans ÷ 12"
        icon={Wallet}
        testId="subscriptions-mrr"
      />
      <StatCard
        label="Active subscriptions"
        value={formatNumber(summary.activeCount)}
        hint={Object.entries(summary.byPlan)
          .filter(([plan]) => plan !== 'free')
          .map(([plan, count]) => `${planDisplayName(plan)} ${formatNumber(count)}`)
          .join(' · ')}
        icon={CreditCard}
        testId="subscriptions-active"
      />
      <StatCard
        label="Churn, last 30 days"
        value={`${(summary.churnRate * 100).toFixed(1)}%`}
        hint={`${formatNumber(summary.churnedLast30Days)} cancelled or expired`}
        icon={TrendingDown}
        tone={summary.churnRate > 0.05 ? 'danger' : 'default'}
        testId="subscriptions-churn"
      />
    </div>
  );
}

function StateCounts({
  byStatus,
  selected,
  onSelect,
}: {
  byStatus: Record<string, number> | undefined;
  selected: string | undefined;
  onSelect: (status: SubscriptionListParams['status']) => void;
}) {
  return (
    <nav
      aria-label="Subscriptions by state"
      className="flex flex-wrap gap-2"
      data-testid="subscriptions-by-state"
    >
      {ADMIN_SUBSCRIPTION_STATES.map((status) => {
        const active = selected === status;
        return (
          <button
            key={status}
            type="button"
            aria-pressed={active}
            onClick={() => onSelect(active ? undefined : status)}
            className={cn(
              'flex items-center gap-2 rounded-full border px-3 py-1.5 text-sm transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
              active ? 'border-primary bg-primary text-primary-foreground' : 'bg-card hover:bg-accent',
            )}
            data-testid={`subscriptions-state-${status}`}
          >
            {STATE_LABEL[status]}
            <span
              className={cn(
                'rounded-full px-1.5 text-xs font-semibold tabular-nums',
                active ? 'bg-primary-foreground/20' : 'bg-muted',
              )}
            >
              {byStatus ? formatNumber(byStatus[status] ?? 0) : '…'}
            </span>
          </button>
        );
      })}
    </nav>
  );
}

function SubscriptionsTable({
  rows,
  loading,
  stale,
  filtered,
  onExtend,
}: {
  rows: AdminSubscription[] | undefined;
  loading: boolean;
  stale: boolean;
  filtered: boolean;
  onExtend: (row: AdminSubscription) => void;
}) {
  if (!loading && rows && rows.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center">
        <CreditCard className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">
          {filtered ? 'No subscriptions match these filters' : 'No paid subscriptions yet'}
        </p>
        <p className="max-w-sm text-sm text-muted-foreground">
          {filtered
            ? 'Try a different search or clear the filters.'
            : 'They appear here after the first payment.'}
        </p>
      </div>
    );
  }
  return (
    <div className={cn('overflow-x-auto rounded-lg border transition-opacity', stale && 'opacity-60')}>
      <Table data-testid="subscriptions-table" aria-busy={loading || stale}>
        <TableHeader>
          <TableRow>
            {COLUMNS.map((column, index) => (
              <TableHead
                key={column || index}
                className={column === 'Monthly value' ? 'text-right' : undefined}
              >
                {column || <span className="sr-only">Actions</span>}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading || !rows
            ? Array.from({ length: 6 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <TableRow key={index}>
                  {COLUMNS.map((_column, cell) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
                    <TableCell key={cell}>
                      <Skeleton className="h-4 w-full max-w-28" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : rows.map((row) => {
                const badge = subscriptionBadge({
                  planId: row.planId,
                  status: row.status,
                  cancelAtPeriodEnd: row.cancelAtPeriodEnd,
                  currentPeriodEnd: row.currentPeriodEnd,
                });
                return (
                  <TableRow key={row.userId} data-testid="subscription-row" data-user-id={row.userId}>
                    <TableCell className="max-w-60">
                      <span className="block truncate font-medium">{row.name || '—'}</span>
                      <span className="block truncate text-xs text-muted-foreground" title={row.email}>
                        {row.email}
                      </span>
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {planDisplayName(row.planId)}
                      <span className="block text-xs text-muted-foreground">
                        {row.interval ? intervalLabel(row.interval) : '—'}
                        {row.pendingPlanId ? ` · → ${planDisplayName(row.pendingPlanId)}` : ''}
                      </span>
                    </TableCell>
                    <TableCell>
                      <Badge variant={badge.tone}>{badge.label}</Badge>
                      {row.renewalAttempts > 0 && (
                        <span className="block pt-1 text-xs text-muted-foreground">
                          {row.renewalAttempts} failed {row.renewalAttempts === 1 ? 'retry' : 'retries'}
                        </span>
                      )}
                    </TableCell>
                    <TableCell className="whitespace-nowrap text-muted-foreground">
                      {formatDate(row.currentPeriodEnd)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{formatNaira(row.monthlyValue)}</TableCell>
                    <TableCell className="whitespace-nowrap text-muted-foreground">
                      {describeCard(row.cardBrand, row.cardLast4) ?? '—'}
                    </TableCell>
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => onExtend(row)}
                        aria-label={`Extend the subscription of ${row.email}`}
                        data-testid="subscription-extend"
                      >
                        <CalendarPlus aria-hidden="true" />
                        Extend
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
        </TableBody>
      </Table>
    </div>
  );
}
