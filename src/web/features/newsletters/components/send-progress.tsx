import { Progress } from '@/components/ui/progress';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useNewsletterProgress } from '../api/newsletters';

/**
 * Queued / sent / failed of a send as it happens. Counts appear from the first batch queued (a large
 * audience is queued 500 at a time), so the bar moves from the start rather than after the whole list.
 */
export function SendProgress({
  id,
  active = true,
  compact = false,
}: {
  id: string;
  active?: boolean;
  compact?: boolean;
}) {
  const query = useNewsletterProgress(id, active);
  const p = query.data;
  const done = p ? p.sent + p.failed : 0;
  const total = p?.recipients ?? 0;
  const value = total > 0 ? Math.round((done / total) * 100) : 0;
  const label = !p
    ? 'Starting…'
    : p.paused
      ? `Paused: ${formatNumber(done)} of ${formatNumber(total)} processed`
      : p.preparing
        ? `Preparing: ${formatNumber(p.recipients)} recipients queued so far`
        : `${formatNumber(done)} of ${formatNumber(total)} processed`;
  return (
    <div
      className={cn('space-y-1.5', compact ? 'min-w-36' : 'rounded-lg border p-3')}
      data-testid="send-progress"
      data-status={p?.status ?? ''}
      data-paused={p?.paused ? 'true' : undefined}
    >
      <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
        <span aria-live="polite">{label}</span>
        {p && !p.preparing && <span className="tabular-nums">{value}%</span>}
      </div>
      <Progress value={value} aria-label="Sending progress" />
      {p && (
        <dl className="flex flex-wrap gap-x-3 text-xs tabular-nums">
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Queued</dt>
            <dd data-testid="progress-queued">{formatNumber(p.queued)}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Sent</dt>
            <dd data-testid="progress-sent">{formatNumber(p.sent)}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-muted-foreground">Failed</dt>
            <dd data-testid="progress-failed">{formatNumber(p.failed)}</dd>
          </div>
        </dl>
      )}
    </div>
  );
}
