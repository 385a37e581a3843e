import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorStatus } from '@/lib/errors';

/** The steps screens while the campaign loads. */
export function StepsSkeleton() {
  return (
    <div
      className="mx-auto w-full max-w-3xl space-y-6"
      role="status"
      aria-busy="true"
      aria-label="Loading the campaign"
    >
      <Skeleton className="h-8 w-64" />
      <Skeleton className="h-4 w-40" />
      <Skeleton className="h-36 w-full" />
      <Skeleton className="h-36 w-full" />
    </div>
  );
}

/** A campaign (or step) that failed to load: 404 reads as "does not exist", anything else can be retried. */
export function CampaignLoadError({
  error,
  backHref,
  backLabel,
  onRetry,
  notFoundTitle = 'This campaign does not exist',
}: {
  error: unknown;
  backHref: string;
  backLabel: string;
  onRetry: () => void;
  notFoundTitle?: string;
}) {
  const status = getErrorStatus(error);
  return (
    <div className="mx-auto w-full max-w-3xl space-y-4">
      <Button variant="ghost" size="sm" className="-ml-2" asChild>
        <Link to={backHref}>
          <ArrowLeft aria-hidden="true" />
          {backLabel}
        </Link>
      </Button>
      <QueryError
        title={status === 404 ? notFoundTitle : 'The campaign could not be loaded'}
        error={error}
        onRetry={status === 404 ? undefined : onRetry}
        testId="campaign-load-error"
      />
    </div>
  );
}
