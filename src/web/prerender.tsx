/**
 * Build-time rendering of the public pages (issue #19 §3), loaded by scripts/prerender-plugin.ts through
 * Vite's SSR loader: each page renders for a signed-out visitor exactly as the browser's first render
 * will (main.tsx hydrates it), with its page metadata (app/page-meta.ts) for the document head.
 */
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';

import { ErrorBoundary } from '@/app/error-boundary';
import { getPageMeta } from '@/app/page-meta';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/router';
import { queryClient, USER_QUERY_KEY } from '@/lib/query-client';

export interface PrerenderedPage {
  html: string;
  meta: ReturnType<typeof getPageMeta>;
}

async function readStream(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let html = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    html += decoder.decode(value, { stream: true });
  }
  return html + decoder.decode();
}

export async function renderPage(path: string): Promise<PrerenderedPage> {
  queryClient.clear();
  // The signed-out visitor: what the client assumes while it checks the session (main.tsx).
  queryClient.setQueryData(USER_QUERY_KEY, null);
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path} redirects; only pages can be prerendered`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const { prelude } = await prerender(
    <StrictMode>
      <ErrorBoundary fullPage>
        <AppProviders>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProviders>
      </ErrorBoundary>
    </StrictMode>,
  );
  return { html: await readStream(prelude), meta: getPageMeta(path, 'Tambari') };
}

/** Drops the cached queries and their timers, so the build process can exit. */
export function finish(): void {
  queryClient.clear();
}
