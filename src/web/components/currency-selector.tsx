import { ChevronDown } from 'lucide-react';
import { type ComponentProps, lazy, Suspense, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrency } from '@/hooks/use-currency';
import { cn } from '@/lib/utils';

const loadMenu = () => import('@/components/currency-menu');
const CurrencyMenu = lazy(loadMenu);

/**
 * The symbol in a small chip. Flag emoji are not drawn by every system (Windows shows two letters, some
 * Linux desktops an empty box), so the symbol is what identifies the currency at a glance.
 */
export function CurrencySymbol({ symbol }: { symbol: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex h-5 min-w-5 items-center justify-center rounded bg-muted px-1 text-[0.7rem] leading-none font-semibold text-foreground"
    >
      {symbol}
    </span>
  );
}

/** The selector's button: the menu's trigger once the menu is loaded, and the same button before. */
export function CurrencyTrigger({
  size,
  className,
  showName,
  testId,
  ...buttonProps
}: { size: 'sm' | 'default'; className?: string | undefined; showName: boolean; testId: string } & Omit<
  ComponentProps<typeof Button>,
  'size'
>) {
  const { currency, currencyInfo } = useCurrency();
  return (
    <Button
      variant="outline"
      size={size}
      className={cn('gap-1.5 font-medium tabular-nums', className)}
      aria-label={`${currency}, ${currencyInfo.name}: change display currency`}
      aria-haspopup="menu"
      data-testid={testId}
      data-currency={currency}
      {...buttonProps}
    >
      <CurrencySymbol symbol={currencyInfo.symbol} />
      <span>{currency}</span>
      {showName && <span className="hidden text-muted-foreground lg:inline">{currencyInfo.name}</span>}
      <ChevronDown className="size-3.5 text-muted-foreground" aria-hidden="true" />
    </Button>
  );
}

/**
 * The display-currency menu (NGN, ZAR, KES, GHS, USD) of the public header, the pricing and the payment
 * screens; choosing a currency sets it and closes the menu. A placeholder stands in while the currency is
 * being worked out. The menu's code (Radix's menu and its
 * positioning) is fetched when the visitor first points at, focuses or presses the button, so the public
 * pages' first load does not carry it (issue #19 §3); pressing the button opens the menu as soon as it is
 * there. Prices are still charged in NGN.
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
  const { isLoading } = useCurrency();
  const [menuWanted, setMenuWanted] = useState(false);

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

  const trigger = (
    <CurrencyTrigger
      size={size}
      className={className}
      showName={showName}
      testId={testId}
      aria-expanded={false}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setMenuWanted(true)}
    />
  );
  if (!menuWanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <CurrencyMenu className={className} align={align} size={size} showName={showName} testId={testId} />
    </Suspense>
  );
}
