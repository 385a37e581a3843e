import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/*
 * SpamAssassin as the pre-launch check's spam engine, where the machine has it. Optional: nothing needs
 * it to start, and without it (or when it fails or takes too long) the built-in rules score instead
 * (spam-rules.ts, kept within 0.5 points of SpamAssassin's local rules on the template library by
 * spam-parity.test.ts). Local rules only: `spamc -R` asks a running spamd; `spamassassin -L -t` runs the
 * rules in-process with network tests off. Both answer the same report, parsed here.
 */

export interface SpamAssassinRule {
  rule: string;
  score: number;
  description: string;
}

export interface SpamAssassinVerdict {
  score: number;
  required: number;
  rules: SpamAssassinRule[];
  /** Which program answered: `spamc` or `spamassassin`. */
  program: 'spamc' | 'spamassassin';
}

/** How long one message may take before the built-in rules answer instead. */
export const SPAMASSASSIN_TIMEOUT_MS = 15_000;

/**
 * The "Content analysis details" table of a SpamAssassin report, as `spamassassin -t` appends it and
 * `spamc -R` prints it. A description too long for its column continues on the next, indented line.
 */
export function parseSpamAssassinReport(output: string): Omit<SpamAssassinVerdict, 'program'> | null {
  const head = /Content analysis details:\s+\((-?[\d.]+) points?, (-?[\d.]+) required\)/.exec(output);
  if (!head) return null;
  const rules: SpamAssassinRule[] = [];
  const table = output.slice(head.index + head[0].length).split(/\r?\n/);
  let inTable = false;
  for (const line of table) {
    if (/^-{3,}\s+-{3,}/.test(line)) {
      inTable = true;
      continue;
    }
    if (!inTable) continue;
    const row = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s+(.*)$/.exec(line);
    if (row) {
      rules.push({ score: Number(row[1]), rule: row[2]!, description: row[3]!.trim() });
      continue;
    }
    const more = /^\s{20,}(\S.*)$/.exec(line);
    if (more && rules.length > 0) {
      const last = rules.at(-1)!;
      last.description = `${last.description} ${more[1]!.trim()}`;
      continue;
    }
    if (line.trim() === '' || /^--/.test(line)) break;
  }
  // "-0.0" is how SpamAssassin prints an informational rule's -0.001.
  for (const r of rules) if (Object.is(r.score, -0)) r.score = 0;
  return { score: Number(head[1]), required: Number(head[2]), rules };
}

function onPath(name: string, pathVariable = process.env.PATH ?? ''): string | null {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The SpamAssassin programs on PATH, fastest first; none: the built-in rules score. */
export function findSpamAssassin(pathVariable?: string): {
  spamc: string | null;
  spamassassin: string | null;
} {
  return { spamc: onPath('spamc', pathVariable), spamassassin: onPath('spamassassin', pathVariable) };
}

function run(command: string, args: string[], input: Buffer, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(command)} took longer than ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 8 * 1024 * 1024) chunks.push(chunk);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const out = Buffer.concat(chunks).toString('utf8');
      // spamc -R exits 0 or 1 (spam); spamassassin -t exits 0. Anything else is a failure.
      if (code === 0 || code === 1) resolve(out);
      else reject(new Error(`${path.basename(command)} exited with ${code}`));
    });
    child.stdin.on('error', () => {
      // A program that exits before reading everything: its exit code tells.
    });
    child.stdin.end(input);
  });
}

/**
 * Scores one raw RFC 5322 message with SpamAssassin's local rules: spamc (a running spamd) when it
 * answers, else spamassassin itself. Null when neither is installed; throws when they fail or time out.
 */
export async function scoreWithSpamAssassin(
  raw: Buffer,
  options: { timeoutMs?: number; programs?: ReturnType<typeof findSpamAssassin> } = {},
): Promise<SpamAssassinVerdict | null> {
  const timeoutMs = options.timeoutMs ?? SPAMASSASSIN_TIMEOUT_MS;
  const programs = options.programs ?? findSpamAssassin();
  let lastError: unknown = null;
  if (programs.spamc) {
    try {
      // -x: fail instead of passing the message through unscored when spamd is not running.
      const parsed = parseSpamAssassinReport(await run(programs.spamc, ['-R', '-x'], raw, timeoutMs));
      if (parsed) return { ...parsed, program: 'spamc' };
    } catch (error) {
      lastError = error;
    }
  }
  if (programs.spamassassin) {
    const parsed = parseSpamAssassinReport(await run(programs.spamassassin, ['-L', '-t'], raw, timeoutMs));
    if (!parsed) throw new Error('spamassassin gave no report');
    return { ...parsed, program: 'spamassassin' };
  }
  if (lastError) throw lastError;
  return null;
}
