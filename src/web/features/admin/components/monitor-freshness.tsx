import { Loader2, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';

function agoText(seconds: number): string {
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ago`;
}

/**
 * "Updated 4s ago" for a monitor that refreshes itself: the age of the figures on screen (the query's
 * last success), ticking every second, with a manual refresh for the impatient.
 */
export function MonitorFreshness({
  updatedAt,
  fetching,
  onRefresh,
  intervalSeconds,
}: {
  updatedAt: number;
  fetching: boolean;
  onRefresh: () => void;
  intervalSeconds: number;
}) {
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNowMs(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const seconds = updatedAt > 0 ? Math.max(0, Math.round((nowMs - updatedAt) / 1000)) : null;
  return (
    <div className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="monitor-freshness">
      <span aria-live="off">
        {seconds === null ? 'Loading…' : `Updated ${agoText(seconds)}`}
        <span className="hidden sm:inline"> · refreshes every {intervalSeconds}s</span>
      </span>
      <Button variant="ghost" size="icon" onClick={onRefresh} disabled={fetching} aria-label="Refresh now">
        {fetching ? (
          <Loader2 className="animate-spin" aria-hidden="true" />
        ) : (
          <RefreshCw aria-hidden="true" />
        )}
      </Button>
    </div>
  );
}
