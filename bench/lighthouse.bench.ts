// Issue #19 §3: Lighthouse 12.2.3 (performance, accessibility, best practices, SEO) on the public site's
// landing, pricing and features pages, in Debian's headless Chromium, against the built app as `npm start`
// serves it. Builds nothing: run `npm run build` first.
// `npm run bench -- lighthouse [--count N]` (N runs per page, default 1; every run's scores are printed).
// Lighthouse is fetched by npx (not a dependency): LIGHTHOUSE_VERSION, CHROME_PATH override the defaults.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, startBuiltApp, stopApp } from './support';

const ROOT = path.resolve(import.meta.dirname, '..');
const LIGHTHOUSE = `lighthouse@${process.env.LIGHTHOUSE_VERSION ?? '12.2.3'}`;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PAGES = { landing: '/', pricing: '/pricing', features: '/features' } as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

type Scores = Record<(typeof CATEGORIES)[number], number>;

async function lighthouse(
  url: string,
  outputPath: string,
): Promise<{ scores: Scores; failing: string[]; tbtMs: number }> {
  await promisify(execFile)(
    'npx',
    [
      '--yes',
      LIGHTHOUSE,
      url,
      '--quiet',
      '--output=json',
      `--output-path=${outputPath}`,
      `--only-categories=${CATEGORIES.join(',')}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ],
    { cwd: ROOT, env: { ...process.env, CHROME_PATH }, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
  );
  const report = JSON.parse(readFileSync(outputPath, 'utf8')) as {
    categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
    audits: Record<
      string,
      { score: number | null; scoreDisplayMode: string; displayValue?: string; numericValue?: number }
    >;
  };
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [category, Math.round((report.categories[category]?.score ?? 0) * 100)]),
  ) as Scores;
  // The weighted audits that lost points, to say what to fix.
  const failing = new Set<string>();
  for (const category of CATEGORIES) {
    for (const ref of report.categories[category]?.auditRefs ?? []) {
      const audit = report.audits[ref.id];
      if (ref.weight > 0 && audit && audit.scoreDisplayMode !== 'notApplicable' && (audit.score ?? 1) < 0.9) {
        failing.add(`${ref.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
      }
    }
  }
  return {
    scores,
    failing: [...failing],
    tbtMs: Math.round(report.audits['total-blocking-time']?.numericValue ?? 0),
  };
}

/**
 * Lighthouse now and then fails to record a page load's trace (NO_NAVSTART, NO_FCP on a loaded machine);
 * such a run is taken again, up to twice, instead of losing every figure measured so far.
 */
async function withRetries<T>(task: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 3 || !/Runtime error encountered|NO_NAVSTART|NO_FCP|PROTOCOL_TIMEOUT/.test(message))
        throw error;
      process.stdout.write(
        `  lighthouse failed (${message.split('\n').find((line) => line.includes('error')) ?? 'error'}), again\n`,
      );
    }
  }
}

export async function run(options: { db: 'pglite' | 'postgres'; count?: number }) {
  if (!existsSync(path.resolve(ROOT, process.env.WEB_DIST_DIR ?? 'dist/web', 'index.html')))
    throw new Error('dist/web is missing: run `npm run build`');
  const runs = options.count ?? 1;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-lighthouse-'));
  const port = await freePort();
  const app = await startBuiltApp(port, dataDir);
  try {
    const figures: Record<string, Scores & { runs: Scores[] }> = {};
    for (const [name, pagePath] of Object.entries(PAGES)) {
      const all: Scores[] = [];
      for (let i = 0; i < runs; i++) {
        const { scores, failing, tbtMs } = await withRetries(() =>
          lighthouse(`http://127.0.0.1:${port}${pagePath}`, path.join(dataDir, `${name}-${i}.json`)),
        );
        all.push(scores);
        // Simulated throttling multiplies the machine's own slowness: the load average goes beside each run.
        const load = loadavg()
          .map((value) => value.toFixed(2))
          .join(' ');
        process.stdout.write(
          `${name} run ${i + 1}: ${JSON.stringify(scores)} TBT ${tbtMs} ms, load ${load}\n`,
        );
        if (failing.length) process.stdout.write(`  below 0.9: ${failing.join('; ')}\n`);
      }
      // Each category's median over the runs.
      const median = Object.fromEntries(
        CATEGORIES.map((category) => {
          const sorted = all.map((scores) => scores[category]).sort((a, b) => a - b);
          return [category, sorted[Math.floor(sorted.length / 2)]!];
        }),
      ) as Scores;
      figures[name] = { ...median, runs: all };
    }
    return { lighthouse: LIGHTHOUSE, goal: 95, ...figures };
  } finally {
    await stopApp(app);
    // LIGHTHOUSE_KEEP=1 keeps the JSON reports (their directory is printed) to read what to fix.
    if (process.env.LIGHTHOUSE_KEEP) process.stdout.write(`reports kept in ${dataDir}\n`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}
