import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { formatNumber } from '@/lib/format';
import { lastPageOf } from '@/lib/url-list-state';

/** "Showing 26–50 of 312 orders", the page number, Previous/Next, and optionally a page-size choice. */
export function PaginationBar({
  page,
  pageSize,
  total,
  onPageChange,
  pageSizes,
  onPageSizeChange,
  busy,
  noun = 'results',
  testId,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** Offer these page sizes (with onPageSizeChange). */
  pageSizes?: readonly number[];
  onPageSizeChange?: (pageSize: number) => void;
  busy?: boolean;
  noun?: string;
  testId?: string;
}) {
  const pageCount = lastPageOf(total, pageSize);
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav
      className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
      aria-label="Pagination"
      data-testid={testId}
    >
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {total === 0
          ? `No ${noun}`
          : `Showing ${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(total)} ${noun}`}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {pageSizes && onPageSizeChange && (
          <Select value={String(pageSize)} onValueChange={(value) => onPageSizeChange(Number(value))}>
            <SelectTrigger
              size="sm"
              className="w-28"
              aria-label="Rows per page"
              data-testid={testId && `${testId}-size`}
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {pageSizes.map((size) => (
                <SelectItem key={size} value={String(size)}>
                  {size} / page
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
        <span className="text-sm text-muted-foreground">
          Page {formatNumber(Math.min(page, pageCount))} of {formatNumber(pageCount)}
        </span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onPageChange(page - 1)}
          disabled={page <= 1 || busy}
          data-testid={testId && `${testId}-prev`}
        >
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onPageChange(page + 1)}
          disabled={page >= pageCount || busy}
          data-testid={testId && `${testId}-next`}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
