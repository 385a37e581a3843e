import './styles.css';

import { StrictMode } from 'react';
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
  // A public page prerendered at build time (issue #19 §3), sent only to visitors without a session
  // cookie: it was rendered signed out, so the first render assumes that too (updatedAt 0 keeps it stale,
  // and the session check runs at once and moves a signed-in visitor on).
  queryClient.setQueryData(USER_QUERY_KEY, null, { updatedAt: 0 });
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}
