import type { CurrencyInfo } from '@shared/currency';

import { CurrencySymbol, CurrencyTrigger } from '@/components/currency-selector';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useCurrency } from '@/hooks/use-currency';

const GROUPS = ['Africa', 'International'] as const;

function groupCurrencies(currencies: readonly CurrencyInfo[]) {
  return GROUPS.map((group) => ({ group, items: currencies.filter((c) => c.group === group) })).filter(
    (entry) => entry.items.length > 0,
  );
}

/**
 * The currency menu itself (Radix), loaded when the visitor first reaches for the selector: it opens at
 * once, and stays mounted afterwards. Choosing a currency sets it and closes the menu (Radix closes on
 * select).
 */
export default function CurrencyMenu({
  className,
  align,
  size,
  showName,
  testId,
}: {
  className?: string;
  align: 'start' | 'center' | 'end';
  size: 'sm' | 'default';
  showName: boolean;
  testId: string;
}) {
  const { currency, setCurrency, supportedCurrencies } = useCurrency();

  return (
    <DropdownMenu modal={false} defaultOpen>
      <DropdownMenuTrigger asChild>
        <CurrencyTrigger size={size} className={className} showName={showName} testId={testId} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align={align} className="w-60" data-testid={`${testId}-menu`}>
        <DropdownMenuRadioGroup value={currency} onValueChange={setCurrency}>
          {groupCurrencies(supportedCurrencies).map(({ group, items }, index) => (
            <div key={group} role="group" aria-label={group}>
              {index > 0 && <DropdownMenuSeparator />}
              <DropdownMenuLabel className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {group}
              </DropdownMenuLabel>
              {items.map((item) => (
                <DropdownMenuRadioItem
                  key={item.code}
                  value={item.code}
                  data-testid={`currency-option-${item.code}`}
                >
                  <CurrencySymbol symbol={item.symbol} />
                  <span className="flex-1">{item.name}</span>
                  <span className="text-xs text-muted-foreground tabular-nums">{item.code}</span>
                </DropdownMenuRadioItem>
              ))}
            </div>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <p className="px-2 py-1.5 text-xs text-muted-foreground">Payments are always charged in Naira (₦).</p>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
