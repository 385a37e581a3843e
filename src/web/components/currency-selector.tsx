import type { CurrencyInfo } from '@shared/currency';
import { ChevronDown } from 'lucide-react';

import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrency } from '@/hooks/use-currency';
import { cn } from '@/lib/utils';

const GROUPS = ['Africa', 'International'] as const;

/**
 * The symbol in a small chip. Flag emoji are not drawn by every system (Windows shows two letters, some
 * Linux desktops an empty box), so the symbol is what identifies the currency at a glance.
 */
function CurrencySymbol({ symbol }: { symbol: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex h-5 min-w-5 items-center justify-center rounded bg-muted px-1 text-[0.7rem] leading-none font-semibold text-foreground"
    >
      {symbol}
    </span>
  );
}

function groupCurrencies(currencies: readonly CurrencyInfo[]) {
  return GROUPS.map((group) => ({ group, items: currencies.filter((c) => c.group === group) })).filter(
    (entry) => entry.items.length > 0,
  );
}

/**
 * Spec §2/§3: the display-currency menu of the public header, the pricing and the payment screens. A
 * placeholder stands in while the currency is being worked out; choosing one sets it and closes the menu
 * (Radix closes on select). Prices are still charged in NGN.
 */
export function CurrencySelector({
  className,
  align = 'end',
  size = 'sm',
  showName = false,
  testId = 'currency-selector',
}: {
  className?: string;
  align?: 'start' | 'center' | 'end';
  size?: 'sm' | 'default';
  /** Show the currency's name next to the code (wider layouts). */
  showName?: boolean;
  testId?: string;
}) {
  const { currency, currencyInfo, setCurrency, supportedCurrencies, isLoading } = useCurrency();

  if (isLoading) {
    return (
      <Skeleton
        className={cn(size === 'sm' ? 'h-8 w-20' : 'h-9 w-24', className)}
        role="status"
        aria-label="Loading currency"
        data-testid={`${testId}-loading`}
      />
    );
  }

  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          size={size}
          className={cn('gap-1.5 font-medium tabular-nums', className)}
          aria-label={`${currency}, ${currencyInfo.name}: change display currency`}
          data-testid={testId}
          data-currency={currency}
        >
          <CurrencySymbol symbol={currencyInfo.symbol} />
          <span>{currency}</span>
          {showName && <span className="hidden text-muted-foreground lg:inline">{currencyInfo.name}</span>}
          <ChevronDown className="size-3.5 text-muted-foreground" aria-hidden="true" />
        </Button>
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
