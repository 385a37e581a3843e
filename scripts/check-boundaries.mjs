// Import boundaries (docs/architecture.md), checked by `npm run lint`:
//   src/shared imports nothing of ours; src/web imports only web and shared; web features do not import
//   each other; src/server never imports worker or web.
//   A server feature (src/server/features/<name>/) imports another only through that feature's public
//   files, its `*.service.ts`; tests too (a test may reach the internals of its own feature only). No two
//   server features import each other, directly or round a longer cycle.
// A plain scanner: dependency-cruiser cannot parse with TypeScript 7's compiler yet.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  crossFeatureImports,
  cyclePath,
  featureCycles,
  featureEdges,
  resolveLocal,
} from './feature-graph.mjs';

const root = path.resolve('src');
const importPattern =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) yield full;
  }
}

const area = (p) => path.relative(root, p).split(path.sep)[0];
const webFeature = (p) => {
  const parts = path.relative(root, p).split(path.sep);
  return parts[0] === 'web' && parts[1] === 'features' ? parts[2] : null;
};

const rules = [
  { from: 'shared', forbidden: ['server', 'worker', 'web'] },
  { from: 'web', forbidden: ['server', 'worker'] },
  { from: 'server', forbidden: ['worker', 'web'] },
];

const violations = [];
let checked = 0;
for (const file of sourceFiles(root)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    const target = resolveLocal(file, specifier);
    if (!target) continue;
    checked++;
    const from = area(file);
    const to = area(target);
    const rule = rules.find((r) => r.from === from);
    const where = `${path.relative(process.cwd(), file)} imports '${specifier}'`;
    const isTest = /\.test\.tsx?$/.test(file);
    const testSupport = path.resolve('tests');
    // Production code never reaches outside src/; a test may use the helpers in tests/.
    if (!target.startsWith(root) && !(isTest && target.startsWith(testSupport))) {
      violations.push(`${where}: outside src/`);
    }
    if (target.startsWith(root) && rule?.forbidden.includes(to))
      violations.push(`${where}: ${from} must not import ${to}`);
    const fromFeature = webFeature(file);
    const toFeature = webFeature(target);
    if (fromFeature && toFeature && fromFeature !== toFeature) {
      violations.push(
        `${where}: web feature '${fromFeature}' must not import feature '${toFeature}' (compose in app/)`,
      );
    }
  }
}
const featureImports = crossFeatureImports();
for (const i of featureImports) {
  if (i.public) continue;
  violations.push(
    `${path.relative(process.cwd(), i.file)} imports '${i.specifier}': server feature '${i.from}' may use '${i.to}' only through its *.service.ts`,
  );
}
const edges = featureEdges(featureImports);
for (const cycle of featureCycles(edges)) {
  const way = cyclePath(edges, cycle);
  const steps = way.slice(1).map((to, n) => {
    const from = way[n];
    const example = featureImports.find((i) => !i.test && i.from === from && i.to === to);
    return `${from} -> ${to} (${path.relative(process.cwd(), example.file)} imports '${example.specifier}')`;
  });
  violations.push(`server features import each other in a cycle:\n    ${steps.join('\n    ')}`);
}
if (violations.length > 0) {
  process.stderr.write(`Import boundary violations:\n  ${violations.join('\n  ')}\n`);
  process.exit(1);
}
process.stdout.write(`Import boundaries hold (${checked} local imports checked).\n`);
