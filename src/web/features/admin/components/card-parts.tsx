import type { ReactNode } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { TableCell, TableRow } from '@/components/ui/table';

/** One labelled value in the `<dl>` of a row's card (the narrow-screen form of a table row). */
export function CardField({
  label,
  className,
  children,
}: {
  label: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Placeholder rows while a table's first page loads: `rows` rows of `cells` grey bars. */
export function SkeletonRows({ rows, cells }: { rows: number; cells: number }) {
  return Array.from({ length: rows }, (_, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity of their own
    <TableRow key={index}>
      {Array.from({ length: cells }, (_, cell) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity of their own
        <TableCell key={cell}>
          <Skeleton className="h-4 w-full max-w-24" />
        </TableCell>
      ))}
    </TableRow>
  ));
}
