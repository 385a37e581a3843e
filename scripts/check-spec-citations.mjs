// Comments and test titles state a rule in plain words; they never cite a section of the product spec,
// which is not in the repo (issue #14 §4). Checked by `npm run lint`: any section sign followed by a digit
// fails, naming the file and line, unless it belongs to an issue ("issue #19 §3") or an RFC
// ("RFC 5322 §2.2.3").
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['src', 'tests', 'scripts', 'bench'];
const EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SECTION = /§\s*\d/g;
// What may stand right before the section sign: an issue or an RFC, optionally after earlier sections of
// the same one ("RFC 5321 §4.5.3.1, §4.5.3.2").
const ALLOWED_OWNER = /(?:issue #\d+|RFC \d+)(?:\s*§\s*[\d.]+\s*(?:,|[–-])?)*\s*$/i;

function* sourceFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (EXTENSIONS.test(entry.name)) yield full;
  }
}

const findings = [];
let files = 0;
for (const root of ROOTS) {
  for (const file of sourceFiles(root)) {
    files += 1;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      for (const match of line.matchAll(SECTION)) {
        if (ALLOWED_OWNER.test(line.slice(0, match.index))) continue;
        findings.push(`${file}:${index + 1}: ${line.trim()}`);
        break;
      }
    });
  }
}

if (findings.length > 0) {
  process.stderr.write(
    `Spec section citations (the spec is not in the repo: say what the rule is, or point to docs/):\n  ${findings.join('\n  ')}\n`,
  );
  process.exit(1);
}
process.stdout.write(`No spec section citations (${files} files checked).\n`);
