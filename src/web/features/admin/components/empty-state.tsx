import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A dashed box that says there is nothing here yet, and why. */
export function EmptyState({
  icon: Icon,
  children,
  testId,
}: {
  icon: LucideIcon;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-8 text-center text-sm"
      data-testid={testId}
    >
      <Icon className="size-6 text-muted-foreground" aria-hidden="true" />
      <div className="text-muted-foreground">{children}</div>
    </div>
  );
}
