import type { ReactNode } from 'react';
import { useAuth } from '@/hooks/use-auth';
import { cn } from '@/lib/utils';

/** The help pages sit in the app's layout when signed in and on the public site otherwise. */
export function HelpShell({
  children,
  testId,
  wide,
}: {
  children: ReactNode;
  testId: string;
  wide?: boolean;
}) {
  const { user } = useAuth();
  return (
    <div
      className={cn(
        'mx-auto w-full space-y-8',
        wide ? 'max-w-5xl' : 'max-w-3xl',
        !user && 'px-4 py-12 sm:px-6 md:py-16',
      )}
      data-testid={testId}
    >
      {children}
    </div>
  );
}
