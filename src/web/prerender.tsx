/**
 * Build-time rendering of the public pages (issue #19 §3), loaded by scripts/prerender-plugin.ts through
 * Vite's SSR loader: each page renders for a signed-out visitor exactly as the browser's first render
 * will (main.tsx hydrates it), with its page metadata (app/page-meta.ts) for the document head.
 */
import { isValidElement, StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  type RouteObject,
  StaticRouterProvider,
} from 'react-router';

import { ErrorBoundary } from '@/app/error-boundary';
import { getPageMeta } from '@/app/page-meta';
import { AppProviders } from '@/app/providers';
import { routes } from '@/app/router';
import { queryClient, USER_QUERY_KEY } from '@/lib/query-client';
import type { PrerenderedQueries } from '@/prerender-html';

export interface PrerenderedPage {
  html: string;
  meta: ReturnType<typeof getPageMeta>;
  /** The source modules (relative to src/web, as in Vite's manifest) of the lazy pages the path renders. */
  modules: string[];
}

/** What React.lazy keeps before its first render: the function that imports the page. */
interface LazyPayload {
  _payload?: { _result?: unknown };
}

/**
 * The module each lazily loaded route element imports, read from its import function's source as Vite's
 * SSR loader rewrote it (`__vite_ssr_dynamic_import__("/features/…/page.tsx")`). Read once, before any
 * render replaces the function with the loaded module.
 */
const lazyModules = new Map<unknown, string>();
function collectLazyModules(list: RouteObject[]): void {
  for (const route of list) {
    if (isValidElement(route.element)) {
      const loader = (route.element.type as LazyPayload)._payload?._result;
      const source = typeof loader === 'function' ? String(loader) : '';
      const file = /["'`](\/[^"'`]+\.tsx?)["'`]/.exec(source)?.[1];
      if (file) lazyModules.set(route.element.type, file.replace(/^\/(src\/web\/)?/, ''));
    }
    if (route.children) collectLazyModules(route.children);
  }
}
collectLazyModules(routes);

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

/** Renders a public page; `queries` is data it shows (the default plans), which the page then embeds. */
export async function renderPage(path: string, queries: PrerenderedQueries = []): Promise<PrerenderedPage> {
  queryClient.clear();
  // The signed-out visitor: what the client assumes while it checks the session (main.tsx).
  queryClient.setQueryData(USER_QUERY_KEY, null);
  for (const [key, data] of queries) queryClient.setQueryData(key, data);
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
  const modules = (matchRoutes(routes, path) ?? []).flatMap(({ route }) => {
    const file = isValidElement(route.element) ? lazyModules.get(route.element.type) : undefined;
    return file ? [file] : [];
  });
  return { html: await readStream(prelude), meta: getPageMeta(path, 'Tambari'), modules };
}

/** Drops the cached queries and their timers, so the build process can exit. */
export function finish(): void {
  queryClient.clear();
}
