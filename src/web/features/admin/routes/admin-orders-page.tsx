import { type AdminOrder, ORDER_STATUSES, type OrderStatus } from '@shared/payments';
import { PLAN_IDS, PLAN_NAMES, type PlanId } from '@shared/plans';
import type { ColumnDef } from '@tanstack/react-table';
import { Download, Receipt, Undo2, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { FilterSelect } from '@/components/filter-select';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useUrlListState } from '@/hooks/use-url-list-state';
import {
  describeCard,
  formatNaira,
  intervalLabel,
  ORDER_KIND_LABEL,
  ORDER_STATUS_BADGE,
} from '@/lib/billing';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { ordersQueryString, useAdminOrders } from '../api/billing-admin';
import { RefundOrderDialog } from '../components/refund-order-dialog';
import { ORDER_LIST, orderedRange } from '../lib/billing-list-params';

function formatTime(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(iso));
}
/** /admin/orders: every payment attempt, filterable, exportable, with refunds recorded. */
export default function AdminOrdersPage() {
  const list = useUrlListState(ORDER_LIST);
  const { state, update } = list;
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);
  const fromId = useId();
  const toId = useId();

  const [from, to] = orderedRange(state.filters.from, state.filters.to);
  const filters = {
    search: state.search || undefined,
    status: state.filters.status as OrderStatus | undefined,
    plan: state.filters.plan as PlanId | undefined,
    from,
    to,
  };
  const ordersQuery = useAdminOrders({ ...filters, page: state.page, pageSize: state.pageSize });
  const data = ordersQuery.data;
  const filtered = list.filtered;
  const { clampPage } = list;

  useEffect(() => {
    if (data && !ordersQuery.isPlaceholderData) clampPage(data.total);
  }, [data, ordersQuery.isPlaceholderData, clampPage]);

  return (
    <div className="mx-auto w-full max-w-7xl space-y-6" data-testid="admin-orders-page">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Orders</h1>
          <p className="text-muted-foreground">Every payment attempt, newest first. Amounts are in Naira.</p>
        </div>
        <Button asChild variant="outline" data-testid="orders-export">
          <a href={`/api/admin/orders${ordersQueryString(filters, 'csv')}`} download>
            <Download aria-hidden="true" />
            Export CSV
          </a>
        </Button>
      </header>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>All orders</h2>
          </CardTitle>
          <CardDescription>
            {data ? (
              <>
                {formatNumber(data.total)} {data.total === 1 ? 'order' : 'orders'}
                {filtered ? ' match' : ''} · net revenue{' '}
                <span className="font-medium text-foreground" data-testid="orders-revenue">
                  {formatNaira(data.revenue)}
                </span>
              </>
            ) : (
              'Loading orders…'
            )}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <search className="flex flex-col gap-3 xl:flex-row xl:items-end" aria-label="Filter orders">
            <SearchInput
              className="flex-1 xl:max-w-xs"
              id="orders-search"
              label="Search orders"
              value={list.searchInput}
              onChange={list.setSearchInput}
              placeholder="Reference, email or name"
              busy={list.searching || (ordersQuery.isFetching && ordersQuery.isPlaceholderData)}
              busyLabel="Searching"
              data-testid="orders-search"
            />
            <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
              <FilterSelect
                value={state.filters.status}
                onChange={(value) => update({ filters: { status: value } })}
                allLabel="All statuses"
                options={ORDER_STATUSES}
                optionLabel={(status) => ORDER_STATUS_BADGE[status]?.label ?? status}
                className="w-full sm:w-36"
                aria-label="Status"
                data-testid="orders-status-filter"
              />
              <FilterSelect
                value={state.filters.plan}
                onChange={(value) => update({ filters: { plan: value } })}
                allLabel="All plans"
                options={PLAN_IDS.filter((plan) => plan !== 'free')}
                optionLabel={(plan) => PLAN_NAMES[plan]}
                className="w-full sm:w-36"
                aria-label="Plan"
                data-testid="orders-plan-filter"
              />
              <div className="grid gap-1">
                <Label htmlFor={fromId} className="text-xs text-muted-foreground">
                  From
                </Label>
                <Input
                  id={fromId}
                  type="date"
                  value={state.filters.from ?? ''}
                  max={state.filters.to}
                  onChange={(event) => update({ filters: { from: event.target.value || undefined } })}
                  className="sm:w-40"
                  data-testid="orders-from"
                />
              </div>
              <div className="grid gap-1">
                <Label htmlFor={toId} className="text-xs text-muted-foreground">
                  To
                </Label>
                <Input
                  id={toId}
                  type="date"
                  value={state.filters.to ?? ''}
                  min={state.filters.from}
                  onChange={(event) => update({ filters: { to: event.target.value || undefined } })}
                  className="sm:w-40"
                  data-testid="orders-to"
                />
              </div>
              {filtered && (
                <Button variant="ghost" onClick={list.clearAll} data-testid="orders-clear-filters">
                  <X aria-hidden="true" />
                  Clear
                </Button>
              )}
            </div>
          </search>

          {ordersQuery.isError && !data ? (
            <QueryError
              title="Orders could not be loaded"
              error={ordersQuery.error}
              onRetry={() => ordersQuery.refetch()}
            />
          ) : (
            <DataTable
              columns={orderColumns(setRefunding)}
              rows={data?.orders}
              getRowId={(order) => order.id}
              loading={ordersQuery.isPending}
              stale={ordersQuery.isPlaceholderData}
              rowProps={(order) => ({ 'data-order-id': order.id })}
              pagination={{
                page: state.page,
                pageSize: data?.pageSize || state.pageSize,
                total: data?.total,
                onPageChange: (page) => update({ page }),
                noun: data?.total === 1 ? 'order' : 'orders',
              }}
              empty={{
                icon: Receipt,
                title: filtered ? 'No orders match these filters' : 'No orders yet',
                description: filtered
                  ? 'Try a different search or clear the filters.'
                  : 'Payments appear here as customers check out.',
              }}
              testId="orders"
              rowTestId="order-row"
            />
          )}
        </CardContent>
      </Card>
      <RefundOrderDialog order={refunding} onClose={() => setRefunding(null)} />
    </div>
  );
}

/** The card column gives way first on narrower screens; the receipt and refund stay in reach. */
function orderColumns(onRefund: (order: AdminOrder) => void): ColumnDef<AdminOrder>[] {
  return [
    {
      id: 'date',
      header: 'Date',
      meta: { cellClassName: 'whitespace-nowrap' },
      cell: ({ row: { original: order } }) => {
        const at = order.paidAt ?? order.createdAt;
        return (
          <time dateTime={at} title={formatDateTime(at)}>
            {formatDate(at)}
            <span className="block text-xs text-muted-foreground">{formatTime(at)}</span>
          </time>
        );
      },
    },
    {
      id: 'reference',
      header: 'Reference',
      meta: { cellClassName: 'max-w-44 truncate font-mono text-xs' },
      cell: ({ row: { original: order } }) => <span title={order.reference}>{order.reference}</span>,
    },
    {
      id: 'customer',
      header: 'Customer',
      meta: { cellClassName: 'max-w-56' },
      cell: ({ row: { original: order } }) => (
        <>
          <span className="block truncate font-medium">{order.userName || '—'}</span>
          <span className="block truncate text-xs text-muted-foreground" title={order.userEmail ?? undefined}>
            {order.userEmail ?? 'Deleted user'}
          </span>
        </>
      ),
    },
    {
      id: 'plan',
      header: 'Plan',
      meta: { cellClassName: 'whitespace-nowrap' },
      cell: ({ row: { original: order } }) => (
        <>
          {order.planName}
          <span className="block text-xs text-muted-foreground">
            {intervalLabel(order.interval)} · {ORDER_KIND_LABEL[order.kind] ?? order.kind}
          </span>
        </>
      ),
    },
    {
      id: 'amount',
      header: 'Amount',
      meta: { className: 'text-right', cellClassName: 'whitespace-nowrap tabular-nums' },
      cell: ({ row: { original: order } }) => (
        <>
          {formatNaira(order.amount)}
          {order.credit > 0 && (
            <span className="block text-xs text-muted-foreground">credit {formatNaira(order.credit)}</span>
          )}
        </>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: ({ row: { original: order } }) => {
        const status = ORDER_STATUS_BADGE[order.status] ?? {
          label: order.status,
          tone: 'secondary' as const,
        };
        return (
          <Badge variant={status.tone} title={order.failureReason ?? order.refundReason ?? undefined}>
            {status.label}
          </Badge>
        );
      },
    },
    {
      id: 'card',
      header: 'Card',
      meta: { className: 'hidden 2xl:table-cell', cellClassName: 'whitespace-nowrap text-muted-foreground' },
      cell: ({ row: { original: order } }) => describeCard(order.cardBrand, order.cardLast4) ?? '—',
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      meta: { cellClassName: 'text-right' },
      cell: ({ row: { original: order } }) =>
        order.status === 'success' && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onRefund(order)}
            aria-label={`Mark ${order.reference} as refunded`}
            data-testid="order-refund"
          >
            <Undo2 aria-hidden="true" />
            Refund
          </Button>
        ),
    },
  ];
}
