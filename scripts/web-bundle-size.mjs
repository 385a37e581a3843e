// Reports the JavaScript a public page downloads on first load, gzip-compressed: the entry, its static
// imports and the page's own route chunk with its static imports (what the browser fetches before the
// page can render). Reads the Vite manifest written by `vite build` (build.manifest).
// Usage: node scripts/web-bundle-size.mjs [dist/web]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'dist/web');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

/** Every chunk key reached through static imports from `keys`. */
function closure(keys) {
  const seen = new Set();
  const stack = [...keys];
  while (stack.length) {
    const key = stack.pop();
    if (seen.has(key)) continue;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) stack.push(next);
  }
  return seen;
}

function gzipKb(keys) {
  let total = 0;
  for (const key of keys)
    total += gzipSync(readFileSync(path.join(dist, manifest[key].file)), { level: 9 }).length;
  return Math.round(total / 102.4) / 10;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const entry = closure([entryKey]);
const pages = {
  landing: 'features/landing/routes/landing-page.tsx',
  pricing: 'features/billing/routes/pricing-page.tsx',
  features: 'features/landing/routes/features-page.tsx',
};
const result = { entryKb: gzipKb(entry) };
for (const [name, route] of Object.entries(pages)) {
  const routeKeys = closure([route]);
  result[`${name}Kb`] = gzipKb(new Set([...entry, ...routeKeys]));
}
console.log(JSON.stringify(result));
