// Issue #19 §3: the JavaScript a first-time visitor's browser loads on the public site's landing, pricing
// and features pages (goal: ≤ 150 KB gzip each), against the built app as `npm start` serves it. Builds
// nothing: run `npm run build` first. `npm run bench -- public-js [--count N]`.
// Headless Chromium (CHROME_PATH, default /usr/bin/chromium) opens each page without a session, as a new
// visitor; every script it fetches is counted at its gzip size (the build's .gz copy, as the server sends
// it to a browser that accepts gzip), in two parts: the first load (until the network has been idle, the
// visitor not having touched the page: on a plain public page only the boot module, src/web/boot.ts) and
// what loads after the visitor's first sign of intent (a pointer move: the app, until it has hydrated and
// the network has been idle again). Sizes do not depend on the machine's load; the count is there to show
// what loads on idle is stable.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';
import { freePort, startBuiltApp, stopApp } from './support';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB_DIST = path.resolve(ROOT, process.env.WEB_DIST_DIR ?? 'dist/web');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PAGES = { landing: '/', pricing: '/pricing', features: '/features' } as const;
const GOAL_KB = 150;
/** How long the network must stay quiet after hydration before the page counts as loaded. */
const IDLE_MS = 3_000;

function gzipBytes(urlPath: string): number {
  const file = path.join(WEB_DIST, decodeURIComponent(urlPath));
  if (!file.startsWith(WEB_DIST) || !existsSync(file)) return 0;
  if (existsSync(`${file}.gz`)) return readFileSync(`${file}.gz`).length;
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

interface PageFigures {
  /** The scripts loaded before the visitor does anything (the goal's "first load"), KB gzip. */
  kbGzipFirstLoad: number;
  /** The scripts loaded after the visitor's first sign of intent, until hydrated and idle, KB gzip. */
  kbGzipAfterIntent: number;
  /** Every script loaded, first load and after intent, KB gzip. */
  kbGzip: number;
  /** Whether the page hydrated without any intent (it shows live data in its first screen). */
  hydratedWithoutIntent: boolean;
  scripts: number;
  /** Milliseconds from the intent (or the navigation, if it did not wait) to `data-hydrated`, on this
   * (shared, noisy) machine. */
  hydratedMs: number;
  consoleErrors: number;
}

/** Waits until no new script has been requested for IDLE_MS after the network went idle. */
async function settle(page: import('playwright').Page, requested: unknown[]): Promise<void> {
  let seen = -1;
  while (seen !== requested.length) {
    seen = requested.length;
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(IDLE_MS);
  }
}

async function measure(
  browser: import('playwright').Browser,
  url: string,
): Promise<PageFigures & { files: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  const origin = new URL(url).origin;
  const requested: Array<{ path: string; firstLoad: boolean }> = [];
  let firstLoad = true;
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text().slice(0, 300));
  });
  page.on('pageerror', (error) => errors.push(error.message.slice(0, 300)));
  page.on('request', (request) => {
    if (request.resourceType() !== 'script' || !request.url().startsWith(origin)) return;
    requested.push({ path: new URL(request.url()).pathname, firstLoad });
  });
  let started = Date.now();
  await page.goto(url, { waitUntil: 'load' });
  // Work deferred to idle (the traffic beacon, the toaster) still counts as the load's.
  await settle(page, requested);
  const hydratedWithoutIntent = (await page.locator('html[data-hydrated]').count()) > 0;
  firstLoad = false;
  if (!hydratedWithoutIntent) {
    started = Date.now();
    await page.mouse.move(400, 300);
  }
  await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 60_000 });
  const hydratedMs = Date.now() - started;
  await settle(page, requested);
  await context.close();
  const unique = new Map<string, boolean>();
  for (const { path: file, firstLoad: first } of requested) unique.set(file, unique.get(file) || first);
  let total = 0;
  let first = 0;
  const files: string[] = [];
  for (const [file, inFirstLoad] of unique) {
    const bytes = gzipBytes(file);
    total += bytes;
    if (inFirstLoad) first += bytes;
    files.push(`${file.replace('/assets/', '')} ${kb(bytes)}${inFirstLoad ? '' : ' (after intent)'}`);
  }
  return {
    kbGzipFirstLoad: kb(first),
    kbGzipAfterIntent: kb(total - first),
    kbGzip: kb(total),
    hydratedWithoutIntent,
    scripts: unique.size,
    hydratedMs,
    consoleErrors: errors.length,
    files,
    errors,
  };
}

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  if (!existsSync(path.join(WEB_DIST, 'index.html')))
    throw new Error(`${WEB_DIST} is missing: run \`npm run build\``);
  const runs = options.count ?? 1;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-public-js-'));
  const port = await freePort();
  const app = await startBuiltApp(port, dataDir);
  const browser = await chromium.launch({
    executablePath: CHROME_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const figures: Record<string, PageFigures & { runs: number[] }> = {};
    for (const [name, pagePath] of Object.entries(PAGES)) {
      const all: PageFigures[] = [];
      for (let i = 0; i < runs; i++) {
        const { files, errors, ...result } = await measure(browser, `http://127.0.0.1:${port}${pagePath}`);
        all.push(result);
        process.stdout.write(`${name} run ${i + 1}: ${JSON.stringify(result)}\n`);
        if (i === 0) process.stdout.write(`  ${files.join('\n  ')}\n`);
        for (const error of errors) process.stdout.write(`  console: ${error}\n`);
      }
      // The largest run: a chunk fetched on idle in one run only still counts.
      const largest = all.reduce((a, b) => (b.kbGzip > a.kbGzip ? b : a));
      figures[name] = { ...largest, runs: all.map((result) => result.kbGzipFirstLoad) };
    }
    return { goalKbGzip: GOAL_KB, ...figures };
  } finally {
    await browser.close();
    await stopApp(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
