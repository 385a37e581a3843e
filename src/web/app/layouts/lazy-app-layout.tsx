import { lazy } from 'react';

/**
 * The signed-in app's shell (sidebar, header, account menu, route guards), loaded on demand: the public
 * site's pages never download it, which keeps their first load small (issue #19 §3).
 */
export const AppLayout = lazy(() =>
  import('@/app/layouts/app-layout').then((m) => ({ default: m.AppLayout })),
);
