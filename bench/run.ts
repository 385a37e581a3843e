// `npm run bench -- <name> [--db postgres|pglite] [--count N]`: runs bench/<name>.bench.ts.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { db: { type: 'string', default: 'pglite' }, count: { type: 'string' } },
});
const available = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace('.bench.ts', ''));
const name = positionals[0];
if (!name || !available.includes(name)) {
  process.stderr.write(
    `Usage: npm run bench -- <name> [--db postgres|pglite] [--count N]\nBenchmarks: ${available.join(', ')}\n`,
  );
  process.exit(1);
}
if (values.db !== 'pglite' && values.db !== 'postgres') {
  process.stderr.write('--db must be postgres or pglite\n');
  process.exit(1);
}
const module = (await import(`./${name}.bench.ts`)) as {
  run: (options: { db: 'pglite' | 'postgres'; count?: number }) => Promise<Record<string, unknown>>;
  /** Node flags of the process this benchmark stands for (e.g. the worker's, from `npm run start:worker`). */
  NODE_FLAGS?: readonly string[];
};
const missingFlags = (module.NODE_FLAGS ?? []).filter((flag) => !process.execArgv.includes(flag));
if (missingFlags.length > 0) {
  // Run again under those flags, so the figures (peak RSS above all) are the real process's.
  const child = spawn(process.execPath, [...missingFlags, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  const figures = await module.run({ db: values.db, count: values.count ? Number(values.count) : undefined });
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
}
