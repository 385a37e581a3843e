/**
 * The one table of list screens, on TanStack Table: sortable headers, row selection, a loading state,
 * an empty state and the pagination bar. Paging, sorting and filtering are the server's (manual mode):
 * the table shows the rows it is given and reports what the user asked for; pair it with
 * `useUrlListState` so all of it lives in the URL.
 *
 *   const columns: ColumnDef<Order>[] = [
 *     { accessorKey: 'reference', header: 'Reference', meta: { cellClassName: 'font-mono' } },
 *     { id: 'createdAt', header: 'Date', enableSorting: true, cell: ({ row }) => formatDate(row.original.createdAt) },
 *     { id: 'card', header: 'Card', meta: { className: 'hidden 2xl:table-cell' }, cell: … },
 *   ];
 *   const list = useUrlListState(LIST_CONFIG);
 *   <DataTable
 *     columns={columns}
 *     rows={query.data?.orders}
 *     getRowId={(order) => order.id}
 *     loading={query.isPending}
 *     stale={query.isPlaceholderData}
 *     sort={list.state.sort}
 *     onSortChange={(sort) => list.update({ sort })}
 *     selection={{ selected, onChange: setSelected }}          // optional: a checkbox column
 *     pagination={{ page: list.state.page, pageSize: list.state.pageSize, total: query.data?.total,
 *                   onPageChange: (page) => list.update({ page }), noun: 'orders' }}
 *     empty={{ icon: Receipt, title: list.filtered ? 'No orders match' : 'No orders yet', description: '…' }}
 *     testId="orders-table"
 *     rowTestId="order-row"
 *   />
 *
 * Narrow screens (390 px): the table scrolls sideways inside its border; hide secondary columns with
 * `meta.className: 'hidden md:table-cell'`, or pass `renderCard` to show one card per row below `md`.
 */
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type RowSelectionState,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { PaginationBar } from '@/components/data-table/pagination-bar';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { ListSort } from '@/lib/url-list-state';
import { cn } from '@/lib/utils';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData, TValue> {
    /** Classes for the header and every cell of the column (e.g. `hidden md:table-cell`, `text-right`). */
    className?: string;
    headerClassName?: string;
    cellClassName?: string;
  }
}

export interface DataTableEmpty {
  icon?: LucideIcon;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  /** The empty state's test id; `<testId>-empty` by default. */
  testId?: string;
}

export interface DataTableSelection<T = unknown> {
  /** Selected row ids. */
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
  /** Rows that cannot be selected (their checkbox is disabled). */
  canSelect?: (id: string) => boolean;
  /** The row checkbox's accessible name ("Select ada@example.com"); "Select row" by default. */
  rowLabel?: (row: T) => string;
  /** The header checkbox's accessible name; "Select all rows on this page" by default. */
  allLabel?: string;
}

export interface DataTablePagination {
  page: number;
  pageSize: number;
  /** Unknown while the first page loads: the bar waits for it. */
  total: number | undefined;
  onPageChange: (page: number) => void;
  pageSizes?: readonly number[];
  onPageSizeChange?: (pageSize: number) => void;
  noun?: string;
}

export interface DataTableProps<T> {
  columns: ColumnDef<T, unknown>[];
  /** undefined while loading. */
  rows: T[] | undefined;
  getRowId: (row: T) => string;
  loading?: boolean;
  /** Showing the previous rows while the next ones load: dimmed, marked busy. */
  stale?: boolean;
  sort?: ListSort;
  onSortChange?: (sort: ListSort | undefined) => void;
  selection?: DataTableSelection<T>;
  pagination?: DataTablePagination;
  empty: DataTableEmpty;
  /** One card per row below `md`, in place of the sideways-scrolling table. */
  renderCard?: (row: T) => ReactNode;
  /** Props for each row's <tr> (data attributes, a class for a highlighted row). */
  rowProps?: (row: T) => Record<string, string | undefined>;
  testId?: string;
  rowTestId?: string;
  skeletonRows?: number;
  caption?: string;
  className?: string;
}

const SELECT_COLUMN_ID = '__select';

function selectionColumn<T>(
  selection: DataTableSelection<T>,
  getRowId: (row: T) => string,
): ColumnDef<T, unknown> {
  return {
    id: SELECT_COLUMN_ID,
    enableSorting: false,
    meta: { className: 'w-10' },
    header: ({ table }) => {
      const ids = table.getRowModel().rows.map((row) => getRowId(row.original));
      const selectable = ids.filter((id) => selection.canSelect?.(id) ?? true);
      const chosen = selectable.filter((id) => selection.selected.has(id)).length;
      return (
        <Checkbox
          aria-label={selection.allLabel ?? 'Select all rows on this page'}
          checked={chosen > 0 && chosen === selectable.length ? true : chosen > 0 ? 'indeterminate' : false}
          disabled={selectable.length === 0}
          onCheckedChange={(checked) => {
            const next = new Set(selection.selected);
            for (const id of selectable) checked === true ? next.add(id) : next.delete(id);
            selection.onChange(next);
          }}
          data-testid="data-table-select-all"
        />
      );
    },
    cell: ({ row }) => {
      const id = getRowId(row.original);
      return (
        <Checkbox
          aria-label={selection.rowLabel?.(row.original) ?? 'Select row'}
          checked={selection.selected.has(id)}
          disabled={!(selection.canSelect?.(id) ?? true)}
          onCheckedChange={(checked) => {
            const next = new Set(selection.selected);
            checked === true ? next.add(id) : next.delete(id);
            selection.onChange(next);
          }}
          data-testid="data-table-select-row"
        />
      );
    },
  };
}

/**
 * A sortable header cycles ascending → descending → the screen's default. Columns sort only when they opt
 * in (`enableSorting: true`) and the screen handles a sort; the server sorts, so a column needs no
 * accessor to be sortable.
 */
function nextSort(id: string, direction: false | 'asc' | 'desc'): ListSort | undefined {
  if (direction === false) return { id, desc: false };
  if (direction === 'asc') return { id, desc: true };
  return undefined;
}

function SortIcon({ direction }: { direction: false | 'asc' | 'desc' }) {
  if (direction === 'asc') return <ArrowUp className="size-3.5" aria-hidden="true" />;
  if (direction === 'desc') return <ArrowDown className="size-3.5" aria-hidden="true" />;
  return <ArrowUpDown className="size-3.5 opacity-50" aria-hidden="true" />;
}

export function DataTable<T>({
  columns,
  rows,
  getRowId,
  loading = false,
  stale = false,
  sort,
  onSortChange,
  selection,
  pagination,
  empty,
  renderCard,
  rowProps,
  testId,
  rowTestId,
  skeletonRows = 8,
  caption,
  className,
}: DataTableProps<T>) {
  const allColumns = selection ? [selectionColumn(selection, getRowId), ...columns] : columns;
  const sorting: SortingState = sort ? [{ id: sort.id, desc: sort.desc }] : [];
  const rowSelection: RowSelectionState = Object.fromEntries(
    [...(selection?.selected ?? [])].map((id) => [id, true]),
  );
  const table = useReactTable({
    data: rows ?? [],
    columns: allColumns,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    manualFiltering: true,
    state: { sorting, rowSelection },
  });

  const showSkeleton = loading || rows === undefined;
  const isEmpty = !showSkeleton && rows.length === 0;
  const visibleColumns = table.getVisibleLeafColumns();

  return (
    <div className={cn('min-w-0 space-y-4', className)}>
      {isEmpty ? (
        <EmptyState empty={empty} testId={empty.testId ?? (testId && `${testId}-empty`)} />
      ) : (
        <>
          {renderCard && !showSkeleton && (
            <ul
              className={cn('space-y-3 md:hidden', stale && 'opacity-60')}
              data-testid={testId && `${testId}-cards`}
            >
              {rows.map((row) => (
                <li key={getRowId(row)} className="rounded-lg border bg-card p-4">
                  {renderCard(row)}
                </li>
              ))}
            </ul>
          )}
          <div
            className={cn(
              'overflow-x-auto rounded-lg border transition-opacity',
              stale && 'opacity-60',
              renderCard && 'hidden md:block',
            )}
          >
            <Table data-testid={testId} aria-busy={loading || stale}>
              {caption && <caption className="sr-only">{caption}</caption>}
              <TableHeader>
                {table.getHeaderGroups().map((group) => (
                  <TableRow key={group.id}>
                    {group.headers.map((header) => {
                      const meta = header.column.columnDef.meta;
                      const direction = header.column.getIsSorted();
                      const content = header.isPlaceholder
                        ? null
                        : flexRender(header.column.columnDef.header, header.getContext());
                      return (
                        <TableHead
                          key={header.id}
                          className={cn(meta?.className, meta?.headerClassName)}
                          aria-sort={
                            direction === 'asc'
                              ? 'ascending'
                              : direction === 'desc'
                                ? 'descending'
                                : undefined
                          }
                        >
                          {onSortChange && header.column.columnDef.enableSorting === true ? (
                            <button
                              type="button"
                              className="-ml-2 inline-flex items-center gap-1 rounded px-2 py-1 hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                              onClick={() => onSortChange(nextSort(header.column.id, direction))}
                              data-testid={`sort-${header.column.id}`}
                            >
                              {content}
                              <SortIcon direction={direction} />
                            </button>
                          ) : (
                            content
                          )}
                        </TableHead>
                      );
                    })}
                  </TableRow>
                ))}
              </TableHeader>
              <TableBody>
                {showSkeleton
                  ? Array.from({ length: skeletonRows }, (_, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                      <TableRow key={index}>
                        {visibleColumns.map((column) => (
                          <TableCell
                            key={column.id}
                            className={cn(
                              column.columnDef.meta?.className,
                              column.columnDef.meta?.cellClassName,
                            )}
                          >
                            <Skeleton className="h-4 w-full max-w-28" />
                          </TableCell>
                        ))}
                      </TableRow>
                    ))
                  : table.getRowModel().rows.map((row) => (
                      <TableRow
                        key={row.id}
                        data-state={row.getIsSelected() ? 'selected' : undefined}
                        data-testid={rowTestId}
                        {...rowProps?.(row.original)}
                      >
                        {row.getVisibleCells().map((cell) => {
                          const meta = cell.column.columnDef.meta;
                          return (
                            <TableCell key={cell.id} className={cn(meta?.className, meta?.cellClassName)}>
                              {flexRender(cell.column.columnDef.cell, cell.getContext())}
                            </TableCell>
                          );
                        })}
                      </TableRow>
                    ))}
              </TableBody>
            </Table>
          </div>
        </>
      )}
      {pagination && pagination.total !== undefined && pagination.total > 0 && (
        <PaginationBar
          page={pagination.page}
          pageSize={pagination.pageSize}
          total={pagination.total}
          onPageChange={pagination.onPageChange}
          pageSizes={pagination.pageSizes}
          onPageSizeChange={pagination.onPageSizeChange}
          busy={stale}
          noun={pagination.noun}
          testId={testId && `${testId.replace(/-table$/, '')}-pagination`}
        />
      )}
    </div>
  );
}

function EmptyState({ empty, testId }: { empty: DataTableEmpty; testId?: string }) {
  const Icon = empty.icon;
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-12 text-center"
      data-testid={testId}
    >
      {Icon && <Icon className="size-8 text-muted-foreground" aria-hidden="true" />}
      <p className="font-medium">{empty.title}</p>
      {empty.description && <p className="max-w-sm text-sm text-muted-foreground">{empty.description}</p>}
      {empty.action}
    </div>
  );
}
