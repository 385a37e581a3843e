import './styles.css';

import { PRERENDERED_QUERIES_ID } from '@shared/public-site';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';

import { loadAppPages } from '@/app/app-page';
import { ErrorBoundary } from '@/app/error-boundary';
import { preloadLazyRoutes } from '@/app/preload-lazy-routes';
import { AppProviders } from '@/app/providers';
import { createAppRouter } from '@/app/router';
import { nextTask } from '@/lib/next-task';
import { hydratingPrerenderedPage } from '@/lib/prerender-state';
import { queryClient, USER_QUERY_KEY } from '@/lib/query-client';

const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

function app(router: ReturnType<typeof createAppRouter>) {
  return (
    <StrictMode>
      <ErrorBoundary fullPage>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </ErrorBoundary>
    </StrictMode>
  );
}

/**
 * The data a page was prerendered with (the plans on /pricing), which the server sends only while it is
 * still the live data: the app starts from it, so its first render matches the HTML, and treats it as an
 * answer fetched now (it is as fresh as the page).
 */
function seedPrerenderedQueries(): void {
  const block = document.getElementById(PRERENDERED_QUERIES_ID);
  if (!block?.textContent) return;
  const queries = JSON.parse(block.textContent) as Array<[unknown[], unknown]>;
  for (const [key, data] of queries) queryClient.setQueryData(key, data);
}

/**
 * A public page prerendered at build time (issue #19 §3). Its start-up work is cut into separate tasks,
 * each short enough not to hold up the visitor's first input on a slow phone: evaluating the code, making
 * the router (it ranks every route of the app), and hydration, which React itself splits as a transition.
 */
async function hydratePrerenderedPage(root: HTMLElement): Promise<void> {
  await nextTask();
  const router = createAppRouter();
  await nextTask();
  // The server sends the prerendered page only to visitors without a session cookie, so the visitor is
  // signed out (as the page was rendered) and the session check, a 401 the browser would log, is not
  // needed. Signing in sets the user as before.
  queryClient.setQueryData(USER_QUERY_KEY, null);
  seedPrerenderedQueries();
  // The page's own code first, so hydration never suspends with the visitor's first click in between.
  try {
    await preloadLazyRoutes(router.state.matches);
  } catch {
    // A chunk that failed to load: hydrating still shows the error screen with its reload button.
  }
  await nextTask();
  // As a transition, hydration yields to the browser every few milliseconds instead of one long task.
  startTransition(() => {
    hydrateRoot(root, app(router));
  });
}

if (hydratingPrerenderedPage) {
  void hydratePrerenderedPage(container);
} else {
  // Not a public page for a signed-out visitor: most likely the signed-in app, whose pages are found
  // through their own small chunk; fetching it now saves a round trip before the page's code.
  void loadAppPages().catch(() => {
    // Retried by the page that needs it, which shows the error screen if it fails again.
  });
  createRoot(container).render(app(createAppRouter()));
}
