import { ChevronLeft, ChevronRight, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
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
