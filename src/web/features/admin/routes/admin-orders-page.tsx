import { type AdminOrder, ORDER_STATUSES } from '@shared/payments';
import { PLAN_IDS, PLAN_NAMES } from '@shared/plans';
import { Download, Loader2, Receipt, Search, Undo2, X } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
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
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import {
  describeCard,
  formatNaira,
  intervalLabel,
  ORDER_KIND_LABEL,
  ORDER_STATUS_BADGE,
} from '@/lib/billing';
import { formatDate, formatDateTime, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { ordersQueryString, useAdminOrders } from '../api/billing-admin';
import { PaginationBar } from '../components/pagination-bar';
import { RefundOrderDialog } from '../components/refund-order-dialog';
import {
  ORDERS_PAGE_SIZE,
  type OrderListParams,
  readOrderListParams,
  writeOrderListParams,
} from '../lib/billing-list-params';

const ALL = 'all';

function formatTime(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(new Date(iso));
}
const SEARCH_DEBOUNCE_MS = 300;
const COLUMNS = ['Date', 'Reference', 'Customer', 'Plan', 'Amount', 'Status', 'Card', ''] as const;

/** The card column gives way first on narrower screens; the receipt and refund stay in reach. */
function columnClass(column: (typeof COLUMNS)[number]): string | undefined {
  if (column === 'Amount') return 'text-right';
  if (column === 'Card') return 'hidden 2xl:table-cell';
  return undefined;
}

function useOrderListState() {
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => readOrderListParams(searchParams), [searchParams]);
  const latest = useRef({ state, setSearchParams });
  latest.current = { state, setSearchParams };
  const update = useCallback((patch: Partial<OrderListParams>) => {
    const { state: current, setSearchParams: set } = latest.current;
    set(writeOrderListParams({ ...current, ...patch }), { replace: true });
  }, []);
  return [state, update] as const;
}

/** Spec §2 /admin/orders: every payment attempt, filterable, exportable, with refunds recorded. */
export default function AdminOrdersPage() {
  const [state, update] = useOrderListState();
  const [searchInput, setSearchInput] = useState(state.search);
  const debouncedSearch = useDebouncedValue(searchInput, SEARCH_DEBOUNCE_MS);
  const [refunding, setRefunding] = useState<AdminOrder | null>(null);
  const fromId = useId();
  const toId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced value searches.
  useEffect(() => {
    if (debouncedSearch.trim() !== state.search) update({ search: debouncedSearch, page: 1 });
  }, [debouncedSearch, update]);

  const filters = {
    search: state.search || undefined,
    status: state.status,
    plan: state.plan,
    from: state.from,
    to: state.to,
  };
  const ordersQuery = useAdminOrders({ ...filters, page: state.page, pageSize: ORDERS_PAGE_SIZE });
  const data = ordersQuery.data;
  const filtered = Boolean(state.search || state.status || state.plan || state.from || state.to);

  useEffect(() => {
    if (!data || ordersQuery.isPlaceholderData) return;
    const lastPage = Math.max(1, Math.ceil(data.total / ORDERS_PAGE_SIZE));
    if (state.page > lastPage) update({ page: lastPage });
  }, [data, ordersQuery.isPlaceholderData, state.page, update]);

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
            <div className="relative flex-1 xl:max-w-xs">
              <Label htmlFor="orders-search" className="sr-only">
                Search orders
              </Label>
              <Search
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input
                id="orders-search"
                type="search"
                value={searchInput}
                onChange={(event) => setSearchInput(event.target.value)}
                placeholder="Reference, email or name"
                className="pl-9"
                data-testid="orders-search"
              />
              {(searchInput.trim() !== state.search ||
                (ordersQuery.isFetching && ordersQuery.isPlaceholderData)) && (
                <Loader2
                  className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
                  aria-label="Searching"
                />
              )}
            </div>
            <div className="grid grid-cols-2 gap-3 sm:flex sm:flex-wrap sm:items-end">
              <Select
                value={state.status ?? ALL}
                onValueChange={(value) =>
                  update({ status: value === ALL ? undefined : (value as never), page: 1 })
                }
              >
                <SelectTrigger
                  className="w-full sm:w-36"
                  aria-label="Status"
                  data-testid="orders-status-filter"
                >
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ALL}>All statuses</SelectItem>
                  {ORDER_STATUSES.map((status) => (
                    <SelectItem key={status} value={status}>
                      {ORDER_STATUS_BADGE[status]?.label ?? status}
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
                <SelectTrigger className="w-full sm:w-36" aria-label="Plan" data-testid="orders-plan-filter">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ALL}>All plans</SelectItem>
                  {PLAN_IDS.filter((plan) => plan !== 'free').map((plan) => (
                    <SelectItem key={plan} value={plan}>
                      {PLAN_NAMES[plan]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <div className="grid gap-1">
                <Label htmlFor={fromId} className="text-xs text-muted-foreground">
                  From
                </Label>
                <Input
                  id={fromId}
                  type="date"
                  value={state.from ?? ''}
                  max={state.to}
                  onChange={(event) => update({ from: event.target.value || undefined, page: 1 })}
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
                  value={state.to ?? ''}
                  min={state.from}
                  onChange={(event) => update({ to: event.target.value || undefined, page: 1 })}
                  className="sm:w-40"
                  data-testid="orders-to"
                />
              </div>
              {filtered && (
                <Button
                  variant="ghost"
                  onClick={() => {
                    setSearchInput('');
                    update({
                      search: '',
                      status: undefined,
                      plan: undefined,
                      from: undefined,
                      to: undefined,
                      page: 1,
                    });
                  }}
                  data-testid="orders-clear-filters"
                >
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
            <>
              <OrdersTable
                orders={data?.orders}
                loading={ordersQuery.isPending}
                stale={ordersQuery.isPlaceholderData}
                filtered={filtered}
                onRefund={setRefunding}
              />
              {data && data.total > 0 && (
                <PaginationBar
                  page={state.page}
                  pageSize={data.pageSize || ORDERS_PAGE_SIZE}
                  total={data.total}
                  onPageChange={(page) => update({ page })}
                  busy={ordersQuery.isPlaceholderData}
                  noun={data.total === 1 ? 'order' : 'orders'}
                  testId="orders-pagination"
                />
              )}
            </>
          )}
        </CardContent>
      </Card>
      <RefundOrderDialog order={refunding} onClose={() => setRefunding(null)} />
    </div>
  );
}

function OrdersTable({
  orders,
  loading,
  stale,
  filtered,
  onRefund,
}: {
  orders: AdminOrder[] | undefined;
  loading: boolean;
  stale: boolean;
  filtered: boolean;
  onRefund: (order: AdminOrder) => void;
}) {
  if (!loading && orders && orders.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center"
        data-testid="orders-empty"
      >
        <Receipt className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="font-medium">{filtered ? 'No orders match these filters' : 'No orders yet'}</p>
        <p className="max-w-sm text-sm text-muted-foreground">
          {filtered
            ? 'Try a different search or clear the filters.'
            : 'Payments appear here as customers check out.'}
        </p>
      </div>
    );
  }
  return (
    <div className={cn('overflow-x-auto rounded-lg border transition-opacity', stale && 'opacity-60')}>
      <Table data-testid="orders-table" aria-busy={loading || stale}>
        <TableHeader>
          <TableRow>
            {COLUMNS.map((column, index) => (
              <TableHead key={column || index} className={columnClass(column)}>
                {column || <span className="sr-only">Actions</span>}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {loading || !orders
            ? Array.from({ length: 8 }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <TableRow key={index}>
                  {COLUMNS.map((column, cell) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
                    <TableCell key={cell} className={columnClass(column)}>
                      <Skeleton className="h-4 w-full max-w-28" />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            : orders.map((order) => {
                const status = ORDER_STATUS_BADGE[order.status] ?? {
                  label: order.status,
                  tone: 'secondary' as const,
                };
                return (
                  <TableRow key={order.id} data-testid="order-row" data-order-id={order.id}>
                    <TableCell className="whitespace-nowrap">
                      <time
                        dateTime={order.paidAt ?? order.createdAt}
                        title={formatDateTime(order.paidAt ?? order.createdAt)}
                      >
                        {formatDate(order.paidAt ?? order.createdAt)}
                        <span className="block text-xs text-muted-foreground">
                          {formatTime(order.paidAt ?? order.createdAt)}
                        </span>
                      </time>
                    </TableCell>
                    <TableCell className="max-w-44 truncate font-mono text-xs" title={order.reference}>
                      {order.reference}
                    </TableCell>
                    <TableCell className="max-w-56">
                      <span className="block truncate font-medium">{order.userName || '—'}</span>
                      <span
                        className="block truncate text-xs text-muted-foreground"
                        title={order.userEmail ?? undefined}
                      >
                        {order.userEmail ?? 'Deleted user'}
                      </span>
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {order.planName}
                      <span className="block text-xs text-muted-foreground">
                        {intervalLabel(order.interval)} · {ORDER_KIND_LABEL[order.kind] ?? order.kind}
                      </span>
                    </TableCell>
                    <TableCell className="text-right whitespace-nowrap tabular-nums">
                      {formatNaira(order.amount)}
                      {order.credit > 0 && (
                        <span className="block text-xs text-muted-foreground">
                          credit {formatNaira(order.credit)}
                        </span>
                      )}
                    </TableCell>
                    <TableCell>
                      <Badge
                        variant={status.tone}
                        title={order.failureReason ?? order.refundReason ?? undefined}
                      >
                        {status.label}
                      </Badge>
                    </TableCell>
                    <TableCell className="hidden whitespace-nowrap text-muted-foreground 2xl:table-cell">
                      {describeCard(order.cardBrand, order.cardLast4) ?? '—'}
                    </TableCell>
                    <TableCell className="text-right">
                      {order.status === 'success' && (
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
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
        </TableBody>
      </Table>
    </div>
  );
}
