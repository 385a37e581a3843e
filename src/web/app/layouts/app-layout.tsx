import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';

import { ErrorBoundary } from '@/app/error-boundary';
import { resolveGuard } from '@/app/guards';
import { AppHeader } from '@/app/layouts/app-header';
import { SidebarNav } from '@/app/layouts/app-sidebar';
import { getPageTitle } from '@/app/navigation';
import { getPageMeta } from '@/app/page-meta';
import { getViewMode } from '@/app/view-mode';
import { FullPageLoader, PageLoader } from '@/components/page-loader';
import { SubscriptionBlocked } from '@/components/subscription-blocked';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { TooltipProvider } from '@/components/ui/tooltip';
import { useAuth } from '@/hooks/use-auth';
import { usePageMeta } from '@/hooks/use-page-meta';

/** Scrolls to `#anchor` once the lazily loaded page has rendered it (e.g. /settings#account-settings). */
function useScrollToHash(hash: string, pathname: string) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the same hash on another page scrolls again.
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    let attempts = 0;
    const timer = window.setInterval(() => {
      const target = document.getElementById(id);
      attempts += 1;
      if (target) {
        target.scrollIntoView({ block: 'start' });
        window.clearInterval(timer);
      } else if (attempts > 40) {
        window.clearInterval(timer);
      }
    }, 50);
    return () => window.clearInterval(timer);
  }, [hash, pathname]);
}

/**
 * Every signed-in route renders here: the role and subscription guard first (redirects, or the
 * subscription-blocked screen in place of the page), then the sidebar, header and page.
 */
export function AppLayout({ children }: { children?: ReactNode } = {}) {
  const { user, isLoading } = useAuth();
  const { pathname, hash } = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const title = getPageTitle(pathname);

  usePageMeta(getPageMeta(pathname, title));
  useScrollToHash(hash, pathname);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the drawer closes on every navigation.
  useEffect(() => {
    setMobileOpen(false);
  }, [pathname]);

  if (isLoading) return <FullPageLoader />;

  const decision = resolveGuard(pathname, user);
  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />;
  if (!user) return <Navigate to="/auth" replace />;

  const viewMode = getViewMode(pathname, user.role);

  // The tooltip timings (700 ms, 300 ms to skip): tooltips live in the signed-in app only, so their
  // provider (and Radix's positioning code) stays out of the public pages' first load.
  return (
    <TooltipProvider delayDuration={700} skipDelayDuration={300}>
      <div className="flex min-h-dvh bg-muted/30">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to content
        </a>
        <aside
          className="sticky top-0 hidden h-dvh w-64 shrink-0 bg-sidebar text-sidebar-foreground md:block"
          aria-label="Sidebar"
          data-testid="sidebar"
        >
          <SidebarNav role={user.role} viewMode={viewMode} />
        </aside>
        <Sheet open={mobileOpen} onOpenChange={setMobileOpen}>
          <SheetContent
            side="left"
            className="w-72 border-sidebar-border bg-sidebar p-0 text-sidebar-foreground [&>button]:text-sidebar-foreground"
            data-testid="mobile-sidebar"
          >
            <SheetTitle className="sr-only">Navigation</SheetTitle>
            <SheetDescription className="sr-only">Go to another page of Tambari.</SheetDescription>
            <SidebarNav role={user.role} viewMode={viewMode} onNavigate={() => setMobileOpen(false)} />
          </SheetContent>
        </Sheet>
        <div className="flex min-w-0 flex-1 flex-col">
          <AppHeader user={user} title={title} viewMode={viewMode} onOpenMenu={() => setMobileOpen(true)} />
          <main
            id="main"
            className="flex flex-1 flex-col px-4 py-6 sm:px-6 lg:px-8"
            data-view-mode={viewMode}
          >
            {decision.type === 'blocked' ? (
              <SubscriptionBlocked issue={decision.issue} user={user} />
            ) : (
              <ErrorBoundary key={pathname}>
                <Suspense fallback={<PageLoader />}>{children ?? <Outlet />}</Suspense>
              </ErrorBoundary>
            )}
          </main>
        </div>
      </div>
    </TooltipProvider>
  );
}
