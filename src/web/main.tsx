import './styles.css';

import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';

import { ErrorBoundary } from '@/app/error-boundary';
import { AppProviders } from '@/app/providers';
import { createAppRouter } from '@/app/router';
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
  // As a transition, hydration yields to the browser every few milliseconds instead of one long task.
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  createRoot(container).render(app);
}
