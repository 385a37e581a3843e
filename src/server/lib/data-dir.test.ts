import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secureDataDir } from './data-dir';
import { ephemeralSecrets } from './secrets';

/** Every file and folder under root whose mode lets the group or others in, as "path mode". */
function looseEntries(root: string): string[] {
  const loose: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      const mode = statSync(full).mode & 0o777;
      if (mode & 0o077) loose.push(`${path.relative(root, full)} ${mode.toString(8)}`);
      if (entry.isDirectory()) walk(full);
    }
  };
  const mode = statSync(root).mode & 0o777;
  if (mode & 0o077) loose.push(`. ${mode.toString(8)}`);
  walk(root);
  return loose;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'tambari-data-dir-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('DATA_DIR is owner-only', () => {
  it('tightens an existing world-readable data folder once, leaving what it links to alone', () => {
    const root = path.join(scratch, 'existing');
    mkdirSync(path.join(root, 'pglite', 'base', '1'), { recursive: true, mode: 0o777 });
    mkdirSync(path.join(root, 'uploads', 'user-1'), { recursive: true, mode: 0o755 });
    writeFileSync(path.join(root, 'pglite', 'base', '1', '1259'), 'x', { mode: 0o666 });
    writeFileSync(path.join(root, 'uploads', 'user-1', 'a.csv'), 'email\n', { mode: 0o644 });
    writeFileSync(path.join(root, 'secrets.json'), '{}', { mode: 0o600 });
    const outside = path.join(scratch, 'outside.txt');
    writeFileSync(outside, 'x', { mode: 0o644 });
    symlinkSync(outside, path.join(root, 'link'));
    for (const dir of [root, path.join(root, 'pglite'), path.join(root, 'pglite', 'base')])
      chmodSync(dir, 0o777);
    chmodSync(path.join(root, 'pglite', 'base', '1', '1259'), 0o666);
    expect(looseEntries(root).length).toBeGreaterThan(0);

    const first = secureDataDir(root);
    expect(looseEntries(root)).toEqual([]);
    expect(first.tightened).toBeGreaterThanOrEqual(7);
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(root, 'uploads', 'user-1', 'a.csv')).mode & 0o777).toBe(0o600);
    expect(statSync(outside).mode & 0o777).toBe(0o644);

    // Once: an owner-only folder is not walked again.
    writeFileSync(path.join(root, 'later.txt'), 'x', { mode: 0o644 });
    chmodSync(path.join(root, 'later.txt'), 0o644);
    expect(secureDataDir(root).tightened).toBe(0);
  });

  it('makes a new data folder, and everything the app writes in it, owner-only (PGlite, secrets, uploads)', async () => {
    const root = path.join(scratch, 'fresh');
    secureDataDir(root);
    const { buildApp } = await import('../app');
    const { parseEnv } = await import('../env');
    const { resolveSecrets } = await import('./secrets');
    const env = parseEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: root,
      DEV_MAILBOX_PORT: '0',
      APP_URL: 'http://localhost:3000',
      WEB_DIST_DIR: '/nonexistent',
    });
    resolveSecrets(env);
    const app = await buildApp({ env, secrets: ephemeralSecrets(), persistent: true, runsWorkers: false });
    try {
      const { createUser } = await import('@tests/factories/users');
      const { uploadCsv } = await import('@tests/factories/imports');
      const user = await createUser(app);
      const upload = await uploadCsv(app, user.cookie, 'email\nada@tambari.test\n', {
        target: 'list',
        newListName: 'Owner only',
      });
      expect(upload.statusCode, upload.body).toBe(201);
    } finally {
      await app.close();
    }
    expect(readdirSync(root).sort()).toEqual(expect.arrayContaining(['pglite', 'secrets.json', 'uploads']));
    expect(looseEntries(root)).toEqual([]);

    // Opened again (an existing database): what PGlite rewrites at start-up is owner-only too.
    const { openDatabase } = await import('../db/client');
    const again = await openDatabase({ dataDir: path.join(root, 'pglite') });
    await again.executeSql('SELECT count(*) FROM "user"', []);
    await again.close();
    expect(looseEntries(root)).toEqual([]);
  }, 60_000);
});
