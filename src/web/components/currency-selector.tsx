import { ChevronDown } from 'lucide-react';
import { type ComponentProps, lazy, Suspense, useState } from 'react';

import { Button, buttonVariants } from '@/components/ui/button';
import { useCurrency } from '@/hooks/use-currency';
import { useHydrationSettled } from '@/lib/prerender-state';
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

/** What the selector's button shows: the currency's symbol, its code and (wider layouts) its name. */
function CurrencyLabel({ showName }: { showName: boolean }) {
  const { currency, currencyInfo } = useCurrency();
  return (
    <>
      <CurrencySymbol symbol={currencyInfo.symbol} />
      <span>{currency}</span>
      {showName && <span className="hidden text-muted-foreground lg:inline">{currencyInfo.name}</span>}
      <ChevronDown className="size-3.5 text-muted-foreground" aria-hidden="true" />
    </>
  );
}

const triggerClass = 'gap-1.5 font-medium tabular-nums';

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
      className={cn(triggerClass, className)}
      aria-label={`${currency}, ${currencyInfo.name}: change display currency`}
      aria-haspopup="menu"
      data-testid={testId}
      data-currency={currency}
      {...buttonProps}
    >
      <CurrencyLabel showName={showName} />
    </Button>
  );
}

/**
 * The display-currency menu (NGN, ZAR, KES, GHS, USD) of the public header, the pricing and the payment
 * screens; choosing a currency sets it and closes the menu. Prices are still charged in NGN.
 *
 * On a prerendered page, until the app has hydrated it, the selector is its button's look without the
 * button (a page waiting for the visitor's intent has no control that does nothing, src/web/boot.ts):
 * the same box, showing the default currency, as the build rendered it for a visitor with nothing saved.
 * Hydration therefore matches, and the button takes that box's place without moving anything. While the
 * visitor's currency is still being worked out (their country looked up) the button shows the default
 * too, and changes its label if the lookup finds another.
 *
 * The menu's code (Radix's menu and its positioning) is fetched when the visitor first points at,
 * focuses or presses the button, so the public pages' first load does not carry it (issue #19 §3);
 * pressing the button opens the menu as soon as it is there.
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
  const { currency } = useCurrency();
  const live = useHydrationSettled();
  const [menuWanted, setMenuWanted] = useState(false);

  if (!live) {
    return (
      <span
        className={cn(buttonVariants({ variant: 'outline', size }), triggerClass, className)}
        data-testid={`${testId}-placeholder`}
        data-currency={currency}
      >
        <span className="sr-only">Display currency:</span>
        <CurrencyLabel showName={showName} />
      </span>
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
