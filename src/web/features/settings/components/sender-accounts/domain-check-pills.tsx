import type { DomainCheck, DomainCheckStatus } from '@shared/sending';
import { CircleAlert, CircleCheck, CircleX } from 'lucide-react';
import { cn } from '@/lib/utils';
import { DOMAIN_STATUS_LABELS, summarizeDomainCheck } from '../../lib/sender-display';

const TONE: Record<DomainCheckStatus, string> = {
  pass: 'border-success/30 bg-success/10 text-success',
  warn: 'border-warning/50 bg-warning/15 text-warning-foreground',
  fail: 'border-destructive/30 bg-destructive/10 text-destructive',
};

const ICON: Record<DomainCheckStatus, typeof CircleCheck> = {
  pass: CircleCheck,
  warn: CircleAlert,
  fail: CircleX,
};

/** One record's result as a small pill: "SPF ✓". The status is spelled out for screen readers. */
export function DomainStatusPill({
  label,
  status,
  announceStatus = true,
}: {
  label: string;
  status: DomainCheckStatus;
  /** Off when the label already is the status ("Pass"). */
  announceStatus?: boolean;
}) {
  const Icon = ICON[status];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-1.5 py-0.5 text-xs font-medium',
        TONE[status],
      )}
      data-status={status}
    >
      <Icon className="size-3" aria-hidden="true" />
      {label}
      {announceStatus && <span className="sr-only">: {DOMAIN_STATUS_LABELS[status]}</span>}
    </span>
  );
}

/** SPF, DKIM, DMARC and MX at a glance, with one line saying what it means. */
export function DomainCheckPills({ check }: { check: DomainCheck | null }) {
  const summary = summarizeDomainCheck(check);
  return (
    <div className="space-y-1.5" data-testid="domain-check-summary" data-overall={summary.overall}>
      {summary.items.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label="Domain records">
          {summary.items.map((item) => (
            <li key={item.key}>
              <DomainStatusPill label={item.label} status={item.status} />
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-muted-foreground">{summary.headline}</p>
    </div>
  );
}
