import { ChevronLeft, ChevronRight, Loader2 } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Button } from '@/components/ui/button';
import type { useCursorPages } from '@/hooks/use-cursor-pages';
import { formatNumber } from '@/lib/format';

/** Previous / Next over keyset pages, with the rows on screen ("Showing 26–50 of 12,480"). */
export function CursorPagination({
  from,
  to,
  total,
  totalCapped,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  busy,
  noun = 'contacts',
  testId,
}: {
  from: number;
  to: number;
  /** The total when known (a count query). */
  total?: number;
  totalCapped?: boolean;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  busy?: boolean;
  noun?: string;
  testId?: string;
}) {
  const totalText = total === undefined ? '' : ` of ${formatNumber(total)}${totalCapped ? '+' : ''}`;
  return (
    <nav
      className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
      aria-label="Pagination"
      data-testid={testId}
    >
      <p className="flex items-center gap-2 text-sm text-muted-foreground" aria-live="polite">
        {to === 0 ? `No ${noun}` : `Showing ${formatNumber(from)}–${formatNumber(to)}${totalText} ${noun}`}
        {busy && <Loader2 className="size-3.5 animate-spin" aria-label="Loading" />}
      </p>
      <div className="flex items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={onPrevious}
          disabled={!hasPrevious || busy}
          data-testid={testId && `${testId}-prev`}
        >
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={onNext}
          disabled={!hasNext || busy}
          data-testid={testId && `${testId}-next`}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}

/**
 * `CursorPagination` under a table paged with `useCursorPages`, `pageSize` rows a page; it shows only once
 * there is more than one page.
 */
export function PagerPagination({
  pager,
  pageSize,
  rows,
  nextCursor,
  ...rest
}: {
  pager: Pick<ReturnType<typeof useCursorPages>, 'index' | 'hasPrevious' | 'goNext' | 'goPrevious'>;
  pageSize: number;
  /** How many rows the page on screen holds. */
  rows: number;
  nextCursor: string | null | undefined;
} & Pick<ComponentProps<typeof CursorPagination>, 'total' | 'busy' | 'noun'>) {
  if (!pager.hasPrevious && !nextCursor) return null;
  return (
    <CursorPagination
      from={pager.index * pageSize + 1}
      to={pager.index * pageSize + rows}
      hasPrevious={pager.hasPrevious}
      hasNext={Boolean(nextCursor)}
      onPrevious={pager.goPrevious}
      onNext={() => pager.goNext(nextCursor)}
      {...rest}
    />
  );
}
