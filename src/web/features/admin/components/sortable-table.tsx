import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';

export interface SortableColumn<Row> {
  key: string;
  label: string;
  /** The value the column sorts by; a column without one is not sortable. */
  sortValue?: (row: Row) => string | number | null;
  cell: (row: Row) => ReactNode;
  numeric?: boolean;
  className?: string;
  title?: string;
}

type Sort = { key: string; direction: 'asc' | 'desc' };

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

/**
 * A table whose headers sort it (click again to reverse; numbers start largest first). Sorting is on the
 * rows the server sent: each of these screens shows a bounded list.
 */
export function SortableTable<Row>({
  rows,
  columns,
  rowKey,
  initialSort,
  testId,
  label,
}: {
  rows: Row[];
  columns: SortableColumn<Row>[];
  rowKey: (row: Row) => string;
  initialSort?: Sort;
  testId?: string;
  label: string;
}) {
  const [sort, setSort] = useState<Sort | null>(initialSort ?? null);
  const sorted = useMemo(() => {
    const column = columns.find((c) => c.key === sort?.key);
    if (!sort || !column?.sortValue) return rows;
    const value = column.sortValue;
    const factor = sort.direction === 'asc' ? 1 : -1;
    return [...rows].sort((a, b) => factor * compare(value(a), value(b)));
  }, [rows, columns, sort]);

  const toggle = (column: SortableColumn<Row>) =>
    setSort((current) =>
      current?.key === column.key
        ? { key: column.key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { key: column.key, direction: column.numeric ? 'desc' : 'asc' },
    );

  return (
    <div className="overflow-x-auto rounded-lg border">
      <Table data-testid={testId} aria-label={label}>
        <TableHeader>
          <TableRow>
            {columns.map((column) => {
              const active = sort?.key === column.key;
              const Icon = !active ? ArrowUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown;
              return (
                <TableHead
                  key={column.key}
                  className={cn(column.numeric && 'text-right', column.className)}
                  aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                  title={column.title}
                >
                  {column.sortValue ? (
                    <button
                      type="button"
                      onClick={() => toggle(column)}
                      className={cn(
                        'inline-flex items-center gap-1 whitespace-nowrap hover:text-foreground',
                        column.numeric && 'flex-row-reverse',
                      )}
                      data-testid={testId && `${testId}-sort-${column.key}`}
                    >
                      {column.label}
                      <Icon className={cn('size-3.5', !active && 'opacity-40')} aria-hidden="true" />
                    </button>
                  ) : (
                    column.label
                  )}
                </TableHead>
              );
            })}
          </TableRow>
        </TableHeader>
        <TableBody>
          {sorted.map((row) => (
            <TableRow key={rowKey(row)} data-testid={testId && `${testId}-row`}>
              {columns.map((column) => (
                <TableCell
                  key={column.key}
                  className={cn(column.numeric && 'text-right tabular-nums', column.className)}
                >
                  {column.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
