import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
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
export function secureDataDir(dataDir: string): { tightened: number } {
  process.umask(OWNER_ONLY_UMASK);
  const root = path.resolve(dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  if ((statSync(root).mode & 0o077) === 0) return { tightened: 0 };
  return { tightened: tightenTree(root) };
}

/**
 * Removes group and other permissions from every file and folder under `root`, and from `root` itself
 * last. Symlinks are neither followed nor changed: their targets may be anything on the machine.
 * Returns how many entries changed.
 */
export function tightenTree(root: string): number {
  let tightened = 0;
  const tighten = (target: string, mode: number) => {
    if ((mode & 0o077) === 0) return;
    chmodSync(target, mode & 0o700);
    tightened++;
  };
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      tighten(full, lstatSync(full).mode & 0o777);
      if (entry.isDirectory()) stack.push(full);
    }
  }
  tighten(root, statSync(root).mode & 0o777);
  return tightened;
}
