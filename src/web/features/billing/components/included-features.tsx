import { CheckCircle2 } from 'lucide-react';

import { useCapabilities } from '@/hooks/use-capabilities';
import { includedInAllPlans } from '@/lib/billing';
import { cn } from '@/lib/utils';

/** What every plan includes, listed on the pricing and payment screens. */
export function IncludedFeatures({ className, columns = 2 }: { className?: string; columns?: 1 | 2 | 4 }) {
  const capabilities = useCapabilities();
  return (
    <ul
      className={cn(
        'grid gap-3 text-sm',
        columns === 2 && 'sm:grid-cols-2',
        columns === 4 && 'sm:grid-cols-2 lg:grid-cols-4',
        className,
      )}
      data-testid="included-features"
    >
      {includedInAllPlans(capabilities.data).map((feature) => (
        <li key={feature} className="flex items-center gap-2">
          <CheckCircle2 className="size-4 shrink-0 text-success" aria-hidden="true" />
          {feature}
        </li>
      ))}
    </ul>
  );
}
