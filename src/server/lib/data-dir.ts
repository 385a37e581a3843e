import { chmodSync, type Dirent, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/*
 * DATA_DIR holds the embedded database, secrets.json, uploaded CSVs and newsletter images: nothing in it
 * is for other accounts on the machine. The process umask covers every file and folder the app or a
 * library creates from then on; PGlite's initdb is the exception (it unpacks its template database and
 * chmods each file 0666), so openPglite tightens a data directory it has just initialised.
 */

const OWNER_ONLY_UMASK = 0o077;

/**
 * Call first thing in every process that writes under DATA_DIR. Sets the umask to 077, creates DATA_DIR
 * 0700, and tightens a folder made by an older version (or by hand) once. The top folder is changed last,
 * so its mode records that the walk finished: an owner-only DATA_DIR is not walked again (nothing under
 * it is reachable by other accounts anyway).
 */
export function secureDataDir(dataDir: string): TightenResult {
  process.umask(OWNER_ONLY_UMASK);
  const root = path.resolve(dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  if ((statSync(root).mode & 0o077) === 0) return { tightened: 0, refused: [] };
  return tightenTree(root);
}

export interface TightenResult {
  tightened: number;
  /** Entries this process may not chmod (owned by another account): left as they are. */
  refused: string[];
}

/** secureDataDir for an entry point: a folder it could not fully tighten is said on stderr, not fatal. */
export function secureDataDirOrWarn(dataDir: string): void {
  const { refused } = secureDataDir(dataDir);
  if (refused.length === 0) return;
  process.stderr.write(
    `Warning: ${refused.length} entries under ${path.resolve(dataDir)} belong to another account and stay readable by others (first: ${refused[0]}). Change their owner or mode.\n`,
  );
}

/**
 * Removes group and other permissions from every file and folder under `root`, and from `root` itself
 * last. Symlinks are neither followed nor changed: their targets may be anything on the machine. An
 * entry another account owns (EPERM) or that cannot be read is reported, not fatal.
 */
export function tightenTree(root: string): TightenResult {
  let tightened = 0;
  const refused: string[] = [];
  const tighten = (target: string, mode: number) => {
    if ((mode & 0o077) === 0) return;
    try {
      chmodSync(target, mode & 0o700);
      tightened++;
    } catch (error) {
      if (!isPermissionError(error)) throw error;
      refused.push(target);
    }
  };
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      if (!isPermissionError(error)) throw error;
      refused.push(dir);
      continue;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      tighten(full, lstatSync(full).mode & 0o777);
      if (entry.isDirectory()) stack.push(full);
    }
  }
  tighten(root, statSync(root).mode & 0o777);
  return { tightened, refused };
}

function isPermissionError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'EPERM' || code === 'EACCES';
}
