// The server's feature map: every import from one folder of src/server/features into another, whether it
// goes through the other feature's public surface, and the cycles between features.
// `node scripts/feature-graph.mjs` prints the figures; `--list` the imports that reach past a public file;
// `--mermaid` the map as a diagram (docs/architecture.md). check-boundaries.mjs enforces the same rule.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const featuresRoot = path.resolve('src', 'server', 'features');
export const importPattern =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** The tsconfig `paths` aliases, as folders. */
const ALIASES = {
  '@shared/': path.resolve('src', 'shared'),
  '@server/': path.resolve('src', 'server'),
  '@tests/': path.resolve('tests'),
  '@/': path.resolve('src', 'web'),
};

/** The path an import names (relative or aliased), or null for a package. */
export function resolveLocal(file, specifier) {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier);
  for (const [prefix, folder] of Object.entries(ALIASES)) {
    if (specifier.startsWith(prefix)) return path.join(folder, specifier.slice(prefix.length));
  }
  return null;
}

/** A feature's public surface: its `*.service.ts` files. Everything else in the folder is its own. */
export const isPublicFile = (target) => /\.service(\.ts)?$/.test(target);
export const isTestFile = (file) => /\.test\.tsx?$/.test(file);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) yield full;
  }
}

/** The feature folder a path lies in, or null outside src/server/features. */
export function featureOf(p) {
  const relative = path.relative(featuresRoot, p);
  return relative.startsWith('..') || path.isAbsolute(relative) ? null : relative.split(path.sep)[0];
}

/** Every import from one server feature into another. */
export function crossFeatureImports() {
  const found = [];
  for (const file of sourceFiles(featuresRoot)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      const target = resolveLocal(file, specifier);
      if (!target) continue;
      const from = featureOf(file);
      const to = featureOf(target);
      if (!from || !to || from === to) continue;
      found.push({ file, specifier, target, from, to, test: isTestFile(file), public: isPublicFile(target) });
    }
  }
  return found;
}

/** Which feature imports which (production code only: a test may set up what it needs). */
export function featureEdges(imports) {
  const edges = new Map();
  for (const i of imports) {
    if (i.test) continue;
    if (!edges.has(i.from)) edges.set(i.from, new Set());
    edges.get(i.from).add(i.to);
  }
  return edges;
}

/** The cycles between features: each strongly connected group of two or more (Tarjan). */
export function featureCycles(edges) {
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const n of [...nodes].sort()) if (!index.has(n)) visit(n);
  return groups;
}

/** One way round a cycle group, from its first feature back to it: [a, b, …, a]. */
export function cyclePath(edges, group) {
  const members = new Set(group);
  const start = group[0];
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of [...(edges.get(v) ?? [])].sort()) {
      if (w === start) {
        const way = [];
        for (let at = v; at !== null; at = cameFrom.get(at)) way.unshift(at);
        return [...way, start];
      }
      if (members.has(w) && !cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...group, start];
}

function report(args) {
  const imports = crossFeatureImports();
  const relative = (p) => path.relative(process.cwd(), p);
  const distinct = new Map(); // one row per (importing feature, imported module)
  for (const i of imports) {
    const key = `${i.from} -> ${relative(i.target)}`;
    distinct.set(key, { ...i, test: i.test && (distinct.get(key)?.test ?? true) });
  }
  const rows = [...distinct.values()];
  const internal = rows.filter((i) => !i.public);
  const edges = featureEdges(imports);
  const cycles = featureCycles(edges);
  const out = [
    `cross-feature imports (distinct feature -> module): ${rows.length}, past a public file: ${internal.length} (${internal.filter((i) => i.test).length} of them only from tests)`,
    `feature-level cycles: ${cycles.length}${cycles.map((c) => `\n  ${cyclePath(edges, c).join(' -> ')}`).join('')}`,
  ];
  if (args.includes('--list')) {
    const files = imports.filter((i) => !i.public);
    out.push(...files.map((i) => `  ${relative(i.file)} imports '${i.specifier}'`));
  }
  if (args.includes('--mermaid')) {
    out.push('flowchart LR');
    for (const [from, tos] of [...edges.entries()].sort())
      for (const to of [...tos].sort()) out.push(`  ${from} --> ${to}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) report(process.argv.slice(2));
