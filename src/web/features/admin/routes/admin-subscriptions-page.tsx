import { ADMIN_SUBSCRIPTION_STATES, type AdminSubscription, PAID_PLAN_IDS } from '@shared/payments';
import { PLAN_NAMES } from '@shared/plans';
import type { ColumnDef } from '@tanstack/react-table';
import { CalendarPlus, CreditCard, Tags, TrendingDown, Users, Wallet, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable } from '@/components/data-table/data-table';
import { FilterSelect } from '@/components/filter-select';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useUrlListState } from '@/hooks/use-url-list-state';
import { describeCard, formatNaira, intervalLabel, planDisplayName, subscriptionBadge } from '@/lib/billing';
import { formatDate, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { type AdminSubscriptionList, useAdminSubscriptions } from '../api/billing-admin';
import { ExtendSubscriptionDialog } from '../components/extend-subscription-dialog';
import { PricingPlansEditor } from '../components/pricing-plans-editor';
import { StatCard, StatCardSkeleton } from '../components/stat-card';
import {
  type AdminSubscriptionState,
  type PaidPlan,
  readSubscriptionsTab,
  SUBSCRIPTION_LIST,
} from '../lib/billing-list-params';

const STATE_LABEL: Record<string, string> = {
  active: 'Active',
  incomplete: 'Incomplete',
  past_due: 'Past due',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** /admin/subscriptions: paid subscriptions by state, MRR and churn, manual extensions, and plan prices. */
export default function AdminSubscriptionsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = readSubscriptionsTab(searchParams);
  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-subscriptions-page">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Subscriptions</h1>
        <p className="text-muted-foreground">
          Paid plans across the platform, recurring revenue and plan pricing.
        </p>
      </header>
      <Tabs
        value={tab}
        onValueChange={(next) => {
          const params = new URLSearchParams(searchParams);
          if (next === 'plans') params.set('tab', 'plans');
          else params.delete('tab');
          setSearchParams(params, { replace: true });
        }}
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
          <SubscriptionsPanel />
        </TabsContent>
        <TabsContent value="plans">
          <PricingPlansEditor />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function SubscriptionsPanel() {
  const list = useUrlListState(SUBSCRIPTION_LIST);
  const { state, update, clampPage } = list;
  const [extending, setExtending] = useState<AdminSubscription | null>(null);

  const query = useAdminSubscriptions({
    search: state.search || undefined,
    status: state.filters.status as AdminSubscriptionState | undefined,
    plan: state.filters.plan as PaidPlan | undefined,
    page: state.page,
    pageSize: state.pageSize,
  });
  const data = query.data;
  const filtered = list.filtered;

  useEffect(() => {
    if (data && !query.isPlaceholderData) clampPage(data.total);
  }, [data, query.isPlaceholderData, clampPage]);

  return (
    <div className="space-y-6">
      <Summary summary={data?.summary} />
      <StateCounts
        byStatus={data?.summary.byStatus}
        selected={state.filters.status}
        onSelect={(status) => update({ filters: { status } })}
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
            <SearchInput
              className="flex-1 lg:max-w-sm"
              id="subscriptions-search"
              label="Search subscriptions"
              value={list.searchInput}
              onChange={list.setSearchInput}
              placeholder="Email or name"
              busy={list.searching || (query.isFetching && query.isPlaceholderData)}
              busyLabel="Searching"
              data-testid="subscriptions-search"
            />
            <div className="grid grid-cols-2 gap-3 sm:flex">
              <FilterSelect
                value={state.filters.status}
                onChange={(value) => update({ filters: { status: value } })}
                allLabel="All states"
                options={ADMIN_SUBSCRIPTION_STATES}
                optionLabel={(status) => STATE_LABEL[status] ?? status}
                className="w-full sm:w-40"
                aria-label="Status"
                data-testid="subscriptions-status-filter"
              />
              <FilterSelect
                value={state.filters.plan}
                onChange={(value) => update({ filters: { plan: value } })}
                allLabel="All plans"
                options={PAID_PLAN_IDS}
                optionLabel={(plan) => PLAN_NAMES[plan]}
                className="w-full sm:w-36"
                aria-label="Plan"
                data-testid="subscriptions-plan-filter"
              />
              {filtered && (
                <Button variant="ghost" onClick={list.clearAll}>
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
            <DataTable
              columns={subscriptionColumns(setExtending)}
              rows={data?.subscriptions}
              getRowId={(row) => row.userId}
              loading={query.isPending}
              stale={query.isPlaceholderData}
              rowProps={(row) => ({ 'data-user-id': row.userId })}
              skeletonRows={6}
              pagination={{
                page: state.page,
                pageSize: data?.pageSize || state.pageSize,
                total: data?.total,
                onPageChange: (page) => update({ page }),
                noun: data?.total === 1 ? 'subscription' : 'subscriptions',
              }}
              empty={{
                icon: CreditCard,
                title: filtered ? 'No subscriptions match these filters' : 'No paid subscriptions yet',
                description: filtered
                  ? 'Try a different search or clear the filters.'
                  : 'They appear here after the first payment.',
              }}
              testId="subscriptions"
              rowTestId="subscription-row"
            />
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
  onSelect: (status: AdminSubscriptionState | undefined) => void;
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

function subscriptionColumns(onExtend: (row: AdminSubscription) => void): ColumnDef<AdminSubscription>[] {
  return [
    {
      id: 'customer',
      header: 'Customer',
      meta: { cellClassName: 'max-w-60' },
      cell: ({ row: { original: row } }) => (
        <>
          <span className="block truncate font-medium">{row.name || '—'}</span>
          <span className="block truncate text-xs text-muted-foreground" title={row.email}>
            {row.email}
          </span>
        </>
      ),
    },
    {
      id: 'plan',
      header: 'Plan',
      meta: { cellClassName: 'whitespace-nowrap' },
      cell: ({ row: { original: row } }) => (
        <>
          {planDisplayName(row.planId)}
          <span className="block text-xs text-muted-foreground">
            {row.interval ? intervalLabel(row.interval) : '—'}
            {row.pendingPlanId ? ` · → ${planDisplayName(row.pendingPlanId)}` : ''}
          </span>
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row: { original: row } }) => {
        const badge = subscriptionBadge({
          planId: row.planId,
          status: row.status,
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          currentPeriodEnd: row.currentPeriodEnd,
        });
        return (
          <>
            <Badge variant={badge.tone}>{badge.label}</Badge>
            {row.renewalAttempts > 0 && (
              <span className="block pt-1 text-xs text-muted-foreground">
                {row.renewalAttempts} failed {row.renewalAttempts === 1 ? 'retry' : 'retries'}
              </span>
            )}
          </>
        );
      },
    },
    {
      id: 'periodEnd',
      header: 'Period ends',
      meta: { cellClassName: 'whitespace-nowrap text-muted-foreground' },
      cell: ({ row: { original: row } }) => formatDate(row.currentPeriodEnd),
    },
    {
      id: 'monthlyValue',
      header: 'Monthly value',
      meta: { className: 'text-right', cellClassName: 'tabular-nums' },
      cell: ({ row: { original: row } }) => formatNaira(row.monthlyValue),
    },
    {
      id: 'card',
      header: 'Card',
      meta: { cellClassName: 'whitespace-nowrap text-muted-foreground' },
      cell: ({ row: { original: row } }) => describeCard(row.cardBrand, row.cardLast4) ?? '—',
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { cellClassName: 'text-right' },
      cell: ({ row: { original: row } }) => (
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
      ),
    },
  ];
}
