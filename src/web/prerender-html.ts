/**
 * The HTML of a prerendered public page (issue #19 §3), written by scripts/prerender-plugin.ts: the built
 * index.html with the page's metadata (title, description, robots…) in its head, its stylesheet inline and
 * its markup in #root.
 * No `@/` imports: the Vite config loads this file too.
 */
import { PRERENDERED_QUERIES_ID } from '../shared/public-site';

export interface PageMeta {
  title: string;
  description: string;
  keywords?: string;
  robots: string;
}

function escapeAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** The head tags of a page: what usePageMeta writes at run time, here in the HTML itself. */
export function headTags(meta: PageMeta): string {
  const tags: Array<[string, string, string | undefined]> = [
    ['name', 'description', meta.description],
    ['name', 'keywords', meta.keywords],
    ['name', 'robots', meta.robots],
    ['property', 'og:title', meta.title],
    ['property', 'og:description', meta.description],
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'Tambari'],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', meta.title],
    ['name', 'twitter:description', meta.description],
  ];
  const lines = [`<title>${escapeAttribute(meta.title)}</title>`];
  for (const [attribute, key, content] of tags) {
    if (content) lines.push(`<meta ${attribute}="${key}" content="${escapeAttribute(content)}" />`);
  }
  return lines.join('\n    ');
}

/** The entry script of the built (or source) index.html: the app, which a plain page loads later. */
const ENTRY_SCRIPT = /\s*<script type="module"[^>]*\bsrc="([^"]+)"[^>]*><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*>/g;

/** What marks a part of a page that shows nothing useful, or does nothing, without the app. */
export const NEEDS_APP_ATTRIBUTE = 'data-needs-app';

/** Query data a page was rendered with: [query key, data] pairs. */
export type PrerenderedQueries = ReadonlyArray<readonly [readonly unknown[], unknown]>;

/**
 * The query data as a JSON block: inert (the browser never runs it, so the CSP's ban on inline scripts
 * does not apply), and with every "<" escaped so no text in it can close the element.
 */
export function queriesBlock(queries: PrerenderedQueries): string {
  const json = JSON.stringify(queries).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${PRERENDERED_QUERIES_ID}">${json}</script>`;
}

/**
 * The built index.html with a page's head tags and its rendered markup in #root. The stylesheets given
 * (href → CSS) are inlined: the page paints from the HTML alone, without waiting for a second request.
 * `preloads` are the page's own module chunks.
 *
 * A plain page (copy and links) loads only the boot module (`boot`, src/web/boot.ts); the app's entry and
 * its modules wait in an inert template until the boot module loads them on the visitor's first sign of
 * intent. A page with a part that needs the app (live plans, a form: NEEDS_APP_ATTRIBUTE) loads the app at
 * once, at low priority. `queries` is the query data the page was rendered with (queriesBlock).
 */
export function composePage(
  template: string,
  html: string,
  meta: PageMeta,
  styles: ReadonlyMap<string, string> = new Map(),
  preloads: readonly string[] = [],
  boot = '/boot.ts',
  queries: PrerenderedQueries = [],
): string {
  const entry = ENTRY_SCRIPT.exec(template)?.[1];
  if (!entry) throw new Error('index.html has no module entry script');
  const modules = [
    ...[...template.matchAll(MODULE_PRELOAD)].map(([link]) => link.trim()),
    ...preloads.map((href) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(href)}">`),
  ];
  const scripts = html.includes(NEEDS_APP_ATTRIBUTE)
    ? [
        // The page reads and paints from its HTML alone: the app's scripts, which bring its live parts to
        // life, load at low priority instead of competing with the document for the first paint.
        `<script type="module" fetchpriority="low" crossorigin src="${escapeAttribute(entry)}"></script>`,
        ...modules.map((link) =>
          link.replace('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"'),
        ),
      ]
    : [
        `<template id="app-modules" data-entry="${escapeAttribute(entry)}">`,
        ...modules.map((link) => `  ${link}`),
        '</template>',
        `<script type="module" crossorigin src="${escapeAttribute(boot)}"></script>`,
      ];
  if (queries.length > 0) scripts.push(queriesBlock(queries));
  const withHead = template
    .replace(ENTRY_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g, (link, href: string) => {
      const css = styles.get(href);
      return css === undefined ? link : `<style>${css}</style>`;
    })
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<meta\s+name="description"[\s\S]*?\/>/, '')
    .replace('</head>', () => `    ${headTags(meta)}\n    ${scripts.join('\n    ')}\n  </head>`);
  if (!withHead.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root');
  return (
    withHead
      .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="">${html}</div>`)
      // The content is in the page: no need to tell the visitor it needs JavaScript to read it.
      .replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '')
  );
}
