import { Menu, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, NavLink, useLocation } from 'react-router';

import { BrandLogo } from '@/components/brand-logo';
import { CurrencySelector } from '@/components/currency-selector';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/** The public header's links, in order: Features, Templates, Pricing, Docs, Support (/help). */
export const PUBLIC_NAV_LINKS = [
  { label: 'Features', to: '/features' },
  { label: 'Templates', to: '/templates' },
  { label: 'Pricing', to: '/pricing' },
  { label: 'Docs', to: '/docs' },
  { label: 'Support', to: '/help' },
] as const;

/**
 * The public header. Its small-screen menu is a <details>: it opens and closes without the app, so it works
 * the moment a prerendered page has painted (the app loads on intent, src/web/boot.ts) and for visitors
 * without JavaScript; the browser tells assistive technology whether it is open.
 */
export function PublicHeader() {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();

  // A link followed inside the app (no page load) closes the small-screen menu; one the visitor opened
  // before the app had loaded stays open.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      'rounded-md px-3 py-2 text-sm font-medium transition-colors outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
      isActive ? 'text-foreground' : 'text-muted-foreground',
    );

  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <BrandLogo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {PUBLIC_NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className={linkClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <CurrencySelector />
          <Button asChild variant="ghost" data-testid="header-login">
            <Link to="/auth">Login</Link>
          </Button>
          <Button asChild data-testid="header-create-account">
            <Link to="/auth?mode=signup">Create Free Account</Link>
          </Button>
        </div>
        <div className="flex items-center gap-1 md:hidden">
          <CurrencySelector testId="currency-selector-mobile" />
          <details ref={menu} className="group" data-testid="public-menu">
            <Button asChild variant="ghost" size="icon">
              <summary
                aria-label="Menu"
                className="cursor-pointer list-none [&::-webkit-details-marker]:hidden"
                data-testid="public-menu-toggle"
              >
                <Menu className="group-open:hidden" />
                <X className="hidden group-open:block" />
              </summary>
            </Button>
            {/* Below the header's bar, across its width (the sticky header is its containing block). */}
            <div id="public-mobile-menu" className="absolute inset-x-0 top-full border-y bg-background">
              <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3">
                {PUBLIC_NAV_LINKS.map((link) => (
                  <NavLink key={link.to} to={link.to} className={linkClass}>
                    {link.label}
                  </NavLink>
                ))}
                <div className="mt-2 grid grid-cols-2 gap-2">
                  <Button asChild variant="outline">
                    <Link to="/auth">Login</Link>
                  </Button>
                  <Button asChild>
                    <Link to="/auth?mode=signup">Create Free Account</Link>
                  </Button>
                </div>
              </nav>
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
