import { AlertTriangle, CheckCircle2, RefreshCw } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAuth } from '@/hooks/use-auth';
import { usePublicPageMeta } from '@/hooks/use-public-page-meta';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useHealth } from '../api/get-health';
import { overallState, statusComponents } from '../lib/system-status';

const STATE_LABEL = { operational: 'Operational', degraded: 'Degraded' } as const;

/** /status (public, and inside the app when signed in): the live checks of GET /api/health. */
export default function StatusPage() {
  usePublicPageMeta('/status');
  const { user } = useAuth();
  const check = useHealth();
  const components = check.data ? statusComponents(check.data.health) : null;
  const overall = components ? overallState(components) : null;

  return (
    <div
      className={cn('mx-auto w-full max-w-3xl space-y-6', !user && 'px-4 py-12 sm:px-6 md:py-16')}
      data-testid="status-page"
      // The status is checked live: a prerendered page holding it loads the app at once.
      data-needs-app=""
    >
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">System Status</h1>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {check.data ? (
              <>
                Checked <time dateTime={check.data.checkedAt}>{formatDateTime(check.data.checkedAt)}</time>
                {' · '}checks again every minute
              </>
            ) : (
              'Checking…'
            )}
          </p>
        </div>
        <Button
          variant="outline"
          onClick={() => check.refetch()}
          disabled={check.isFetching}
          data-testid="status-refresh"
        >
          <RefreshCw className={cn(check.isFetching && 'animate-spin')} aria-hidden="true" />
          Refresh
        </Button>
      </header>

      {!components || !overall ? (
        <div className="space-y-3" role="status" aria-label="Checking the system status">
          <Skeleton className="h-16" />
          <Skeleton className="h-40" />
        </div>
      ) : (
        <>
          <div
            className={cn(
              'flex items-center gap-3 rounded-lg border p-4 font-medium',
              overall === 'operational'
                ? 'border-success/30 bg-success/10 text-success'
                : 'border-warning/40 bg-warning/15 text-warning-foreground',
            )}
            role="status"
            data-testid="status-overall"
            data-state={overall}
          >
            {overall === 'operational' ? (
              <CheckCircle2 className="size-5" aria-hidden="true" />
            ) : (
              <AlertTriangle className="size-5" aria-hidden="true" />
            )}
            {overall === 'operational' ? 'All systems operational' : 'Some systems are degraded'}
          </div>
          <Card className="py-0">
            <CardContent className="px-0">
              <ul className="divide-y" aria-label="Components">
                {components.map((component) => (
                  <li
                    key={component.id}
                    className="flex items-center justify-between gap-4 px-5 py-4"
                    data-testid={`status-${component.id}`}
                    data-state={component.state}
                  >
                    <div className="min-w-0 space-y-0.5">
                      <p className="font-medium">{component.name}</p>
                      <p className="text-sm text-muted-foreground">
                        {component.description}. {component.detail}
                      </p>
                    </div>
                    <Badge variant={component.state === 'operational' ? 'success' : 'warning'}>
                      {STATE_LABEL[component.state]}
                    </Badge>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}
