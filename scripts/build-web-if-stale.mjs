// Used by `npm start`: builds the client when dist/web is missing or older than its sources, so a fresh
// clone starts with one command and later starts are instant.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const built = path.resolve('dist/web/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const sourcesMtime = Math.max(newestMtime('src/web'), newestMtime('src/shared'));
if (existsSync(built) && statSync(built).mtimeMs >= sourcesMtime) process.exit(0);

process.stdout.write('Building the web client…\n');
const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
