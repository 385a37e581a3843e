import { Outlet } from 'react-router';

import { PublicFooter } from '@/components/marketing/public-footer';
import { PublicHeader } from '@/components/marketing/public-header';
import { usePageViewBeacon } from '@/lib/page-view-beacon';
import { useMarkHydrationSettled } from '@/lib/prerender-state';

/** The public site's frame: only signed-out visitors see it, so its pages are the ones counted. */
export function PublicLayout() {
  usePageViewBeacon();
  useMarkHydrationSettled();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <PublicHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <PublicFooter />
    </div>
  );
}
