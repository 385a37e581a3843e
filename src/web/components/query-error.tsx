import { AlertCircle, RefreshCw } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/errors';

/** A failed query: what failed, the server's own message and a retry. */
export function QueryError({
  title,
  error,
  onRetry,
  className,
  testId,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
  className?: string;
  testId?: string;
}) {
  return (
    <Alert variant="destructive" className={className} data-testid={testId}>
      <AlertCircle aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="flex flex-wrap items-center gap-3">
        <span>{getErrorMessage(error, 'Something went wrong. Please try again.')}</span>
        {onRetry && (
          <Button size="sm" variant="outline" onClick={onRetry} className="text-foreground">
            <RefreshCw aria-hidden="true" />
            Try again
          </Button>
        )}
      </AlertDescription>
    </Alert>
  );
}
