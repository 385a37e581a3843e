import type { BillingInterval } from '@shared/plans';

import { useCurrency } from '@/hooks/use-currency';
import { perIntervalSuffix } from '@/lib/billing';
import { cn } from '@/lib/utils';

/**
 * A price in the display currency with its period; when that currency is not the naira, the amount
 * actually charged follows: "Charged in NGN: ₦…" (prices are always charged in NGN).
 */
export function PlanPrice({
  kobo,
  interval,
  size = 'lg',
  className,
  testId,
}: {
  kobo: number;
  interval: BillingInterval;
  size?: 'lg' | 'md';
  className?: string;
  testId?: string;
}) {
  const { currency, formatKobo, formatNgnKobo } = useCurrency();
  return (
    <div className={cn('space-y-1', className)}>
      {/* Wraps "/year" under a long annual amount instead of pushing it out of a narrow card. */}
      <p className="flex min-w-0 flex-wrap items-baseline gap-x-1" data-testid={testId && `${testId}-line`}>
        <span
          className={cn(
            'min-w-0 font-bold tracking-tight tabular-nums',
            size === 'lg' ? 'text-3xl sm:text-4xl' : 'text-3xl',
          )}
          data-testid={testId}
          data-currency={currency}
        >
          {formatKobo(kobo)}
        </span>
        <span className="whitespace-nowrap text-sm text-muted-foreground">{perIntervalSuffix(interval)}</span>
      </p>
      {currency !== 'NGN' && kobo > 0 && (
        <p className="text-xs text-muted-foreground" data-testid={testId && `${testId}-ngn`}>
          Charged in NGN: {formatNgnKobo(kobo)}
        </p>
      )}
    </div>
  );
}
