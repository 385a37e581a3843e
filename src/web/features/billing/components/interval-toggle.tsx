import type { BillingInterval } from '@shared/plans';
import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';

import { useHydrationSettled } from '@/lib/prerender-state';
import { cn } from '@/lib/utils';

/** Monthly / Annual as one segmented radio group (arrow keys move between the two). */
export function IntervalToggle({
  value,
  onChange,
  savingLabel,
  className,
}: {
  value: BillingInterval;
  onChange: (interval: BillingInterval) => void;
  /** Shown on the Annual option, e.g. "2 months free". */
  savingLabel?: string;
  className?: string;
}) {
  // On a prerendered page a click before the page is live would be lost: the choice waits for it.
  const live = useHydrationSettled();
  const options: Array<{ value: BillingInterval; label: string }> = [
    { value: 'monthly', label: 'Monthly' },
    { value: 'annual', label: 'Annual' },
  ];
  return (
    <RadioGroupPrimitive.Root
      value={value}
      onValueChange={(next) => onChange(next as BillingInterval)}
      disabled={!live}
      aria-label="Billing interval"
      orientation="horizontal"
      className={cn('inline-flex rounded-full border bg-muted p-1', className)}
      data-testid="interval-toggle"
    >
      {options.map((option) => (
        <RadioGroupPrimitive.Item
          key={option.value}
          value={option.value}
          data-testid={`interval-${option.value}`}
          className={cn(
            'flex items-center gap-2 rounded-full px-4 py-1.5 text-sm font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
            'text-muted-foreground hover:text-foreground data-[state=checked]:bg-background data-[state=checked]:text-foreground data-[state=checked]:shadow-sm',
          )}
        >
          {option.label}
          {option.value === 'annual' && savingLabel && (
            <span className="rounded-full bg-gold/25 px-2 py-0.5 text-xs font-semibold text-gold-foreground">
              {savingLabel}
            </span>
          )}
        </RadioGroupPrimitive.Item>
      ))}
    </RadioGroupPrimitive.Root>
  );
}
