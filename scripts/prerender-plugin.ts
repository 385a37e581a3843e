/**
 * Issue #19 §3: after `vite build` writes the client, renders every public page to HTML with its page
 * metadata (title, description, keywords, robots, Open Graph and Twitter cards) so crawlers and visitors
 * without JavaScript get the content. The pages go to dist/web/prerendered/ with a manifest (path → file);
 * the server sends them to visitors without a session (src/server/lib/public-site.ts). Each loads only the
 * boot module (src/web/boot.ts), which loads the app (src/web/main.tsx, hydrating the page) on intent.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';
import { createServer } from 'vite';
import { DEFAULT_PRICING_PLANS } from '../src/shared/default-pricing-plans';
import {
  livePlansFileName,
  PAGES_SHOWING_PLANS,
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  PRICING_PLANS_API_PATH,
  PUBLIC_PAGE_PATHS,
  prerenderFileName,
} from '../src/shared/public-site';

import { composePage, type PageMeta, type PrerenderedQueries } from '../src/web/prerender-html';

/**
 * Pages showing the plans are prerendered with the default plans (a plain page, the boot module only) and
 * without them (the app loads at once and fetches them), which the server sends once an admin has
 * changed the plans (src/server/lib/public-site.ts).
 */
const PAGES_WITH_PLANS = new Set<string>(PAGES_SHOWING_PLANS);
const DEFAULT_PLANS: PrerenderedQueries = [[[PRICING_PLANS_API_PATH], DEFAULT_PRICING_PLANS]];

interface PrerenderModule {
  renderPage(
    path: string,
    queries?: PrerenderedQueries,
  ): Promise<{ html: string; meta: PageMeta; modules: string[] }>;
  finish(): void;
}

/** Set while the plugin's own SSR server loads the config, so that server does not prerender again. */
const CHILD_FLAG = 'TAMBARI_PRERENDERING';

export function prerenderPublicPages(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'tambari:prerender-public-pages',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (process.env[CHILD_FLAG] || config.build.ssr) return;
      const outDir = config.build.outDir;
      const template = await readFile(path.join(outDir, 'index.html'), 'utf8');
      const styles = new Map<string, string>();
      for (const [, href] of template.matchAll(/<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"/g)) {
        styles.set(href!, await readFile(path.join(outDir, href!), 'utf8'));
      }
      process.env[CHILD_FLAG] = '1';
      const server = await createServer({
        configFile: config.configFile,
        mode: 'production',
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false, watch: null },
      });
      try {
        const module = (await server.ssrLoadModule('/prerender.tsx')) as PrerenderModule;
        const target = path.join(outDir, PRERENDER_DIR);
        await mkdir(target, { recursive: true });
        const manifest: Record<string, string> = {};
        const { chunks, boot } = await readManifest(outDir);
        const write = async (pagePath: string, file: string, queries: PrerenderedQueries = []) => {
          const { html, meta, modules } = await module.renderPage(pagePath, queries);
          if (modules.length === 0) throw new Error(`${pagePath}: no lazily loaded page found to preload`);
          const preloads = modules.flatMap((source) => chunks(source));
          const page = composePage(template, html, meta, styles, preloads, boot, queries);
          await writeFile(path.join(target, file), page);
        };
        for (const pagePath of PUBLIC_PAGE_PATHS) {
          const file = prerenderFileName(pagePath);
          if (PAGES_WITH_PLANS.has(pagePath)) {
            await write(pagePath, file, DEFAULT_PLANS);
            await write(pagePath, livePlansFileName(file));
          } else {
            await write(pagePath, file);
          }
          manifest[pagePath] = file;
        }
        module.finish();
        await writeFile(path.join(target, PRERENDER_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
        config.logger.info(`prerendered ${PUBLIC_PAGE_PATHS.length} public pages into ${PRERENDER_DIR}/`);
        config.logger.info(`compressed ${await precompress(outDir)} files (.br, .gz)`);
      } finally {
        await server.close();
        delete process.env[CHILD_FLAG];
      }
    },
  };
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/**
 * From Vite's manifest: a source module's chunk and every chunk it imports statically, minus the entry's
 * own (the built index.html already lists those), and the boot module. When the app loads, a prerendered
 * page's chunks download beside the entry's instead of one import at a time once the entry has run.
 */
async function readManifest(outDir: string): Promise<{ chunks: (source: string) => string[]; boot: string }> {
  const manifest = JSON.parse(await readFile(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const closure = (key: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const imported of manifest[key]!.imports ?? []) closure(imported, seen);
    return seen;
  };
  const entry = new Set<string>();
  if (!manifest['index.html']) throw new Error("index.html is not in Vite's manifest");
  closure('index.html', entry);
  const boot = manifest['boot.ts'];
  if (!boot) throw new Error("boot.ts (the prerendered pages' boot module) is not in Vite's manifest");
  if (boot.imports?.length) throw new Error('boot.ts must import nothing: it is all a page loads at first');
  return {
    boot: `/${boot.file}`,
    chunks: (source) => {
      if (!manifest[source]) throw new Error(`${source} is not in Vite's manifest`);
      return [...closure(source)].filter((key) => !entry.has(key)).map((key) => `/${manifest[key]!.file}`);
    },
  };
}

const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt|xml)$/;

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the built client, once, at build
 * time: @fastify/static's `preCompressed` sends them to browsers that accept them (issue #19 §3: the
 * public pages' JavaScript and CSS travel compressed, with no compression work per request).
 */
export async function precompress(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await stat(file)).size < 1024) continue;
    const content = await readFile(file);
    const [br, gz] = await Promise.all([
      promisify(brotliCompress)(content, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      promisify(gzip)(content, { level: 9 }),
    ]);
    await writeFile(`${file}.br`, br);
    await writeFile(`${file}.gz`, gz);
    count += 1;
  }
  return count;
}
