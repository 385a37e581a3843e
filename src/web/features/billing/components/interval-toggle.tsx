import type { BillingInterval } from '@shared/plans';
import { type Ref, useId } from 'react';

import { cn } from '@/lib/utils';

/**
 * Monthly / Annual as one segmented radio group. Native radio inputs (visually hidden, their labels drawn
 * as the segments) give one tab stop and arrow keys between the two without a widget library, which kept
 * the pricing page's first load ~10 KB heavier. They work before the app has loaded: a segment is drawn
 * from its input's checked state, and the pricing page shows the matching prices through CSS (it reads
 * the choice when it has hydrated).
 */
export function IntervalToggle({
  value,
  onChange,
  savingLabel,
  className,
  ref,
}: {
  ref?: Ref<HTMLDivElement>;
  value: BillingInterval;
  onChange: (interval: BillingInterval) => void;
  /** Shown on the Annual option, e.g. "2 months free". */
  savingLabel?: string;
  className?: string;
}) {
  const name = useId();
  const options: Array<{ value: BillingInterval; label: string }> = [
    { value: 'monthly', label: 'Monthly' },
    { value: 'annual', label: 'Annual' },
  ];
  return (
    <div
      ref={ref}
      role="radiogroup"
      aria-label="Billing interval"
      className={cn('inline-flex rounded-full border bg-muted p-1', className)}
      data-testid="interval-toggle"
    >
      {options.map((option) => (
        <label
          key={option.value}
          data-testid={`interval-${option.value}`}
          data-state={value === option.value ? 'checked' : 'unchecked'}
          className={cn(
            'relative flex cursor-pointer items-center gap-2 rounded-full px-4 py-1.5 text-sm font-medium transition-colors motion-reduce:transition-none',
            'text-muted-foreground hover:text-foreground has-[:checked]:bg-background has-[:checked]:text-foreground has-[:checked]:shadow-sm',
            'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
          )}
        >
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
            className="sr-only"
            // A native radio input: choosing works before the app has loaded.
            data-works-without-app=""
          />
          {option.label}
          {option.value === 'annual' && savingLabel && (
            <span className="rounded-full bg-gold/25 px-2 py-0.5 text-xs font-semibold text-gold-foreground">
              {savingLabel}
            </span>
          )}
        </label>
      ))}
    </div>
  );
}
