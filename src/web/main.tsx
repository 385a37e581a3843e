import './styles.css';

import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';

import { loadAppPages } from '@/app/app-page';
import { ErrorBoundary } from '@/app/error-boundary';
import { preloadLazyRoutes } from '@/app/preload-lazy-routes';
import { AppProviders } from '@/app/providers';
import { createAppRouter, routes } from '@/app/router';
import { hydratingPrerenderedPage } from '@/lib/prerender-state';
import { queryClient, USER_QUERY_KEY } from '@/lib/query-client';

const router = createAppRouter();

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

const app = (
  <StrictMode>
    <ErrorBoundary fullPage>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </ErrorBoundary>
  </StrictMode>
);

if (hydratingPrerenderedPage) {
  // A public page prerendered at build time (issue #19 §3): the server sends it only to visitors without a
  // session cookie, so the visitor is signed out (as the page was rendered) and the session check, a 401
  // the browser would log, is not needed. Signing in sets the user as before.
  queryClient.setQueryData(USER_QUERY_KEY, null);
  // The page's own code first, so hydration never suspends with the visitor's first click in between.
  // As a transition, hydration yields to the browser every few milliseconds instead of one long task.
  void preloadLazyRoutes(routes, window.location.pathname)
    .catch(() => {
      // A chunk that failed to load: hydrating still shows the error screen with its reload button.
    })
    .then(() =>
      startTransition(() => {
        hydrateRoot(container, app);
      }),
    );
} else {
  // Not a public page for a signed-out visitor: most likely the signed-in app, whose pages are found
  // through their own small chunk; fetching it now saves a round trip before the page's code.
  void loadAppPages().catch(() => {
    // Retried by the page that needs it, which shows the error screen if it fails again.
  });
  createRoot(container).render(app);
}
