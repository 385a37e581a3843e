import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { resolveSecrets } from './secrets';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('embedded secrets', () => {
  it('keeps a generated key as a previous key once ENCRYPTION_KEY replaces it, across starts', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-secrets-'));
    dirs.push(dataDir);
    const generated = resolveSecrets(parseEnv({ DATA_DIR: dataDir }));
    expect(generated.previousEncryptionKeys).toEqual([]);
    // The same on the next start: nothing rotated.
    expect(
      resolveSecrets(parseEnv({ DATA_DIR: dataDir })).encryptionKey.equals(generated.encryptionKey),
    ).toBe(true);

    const chosen = 'ab'.repeat(32);
    for (let start = 0; start < 2; start++) {
      const rotated = resolveSecrets(parseEnv({ DATA_DIR: dataDir, ENCRYPTION_KEY: chosen }));
      expect(rotated.encryptionKey.toString('hex')).toBe(chosen);
      expect(rotated.previousEncryptionKeys?.map((key) => key.toString('hex'))).toEqual([
        generated.encryptionKey.toString('hex'),
      ]);
    }
    const file = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
    expect(file).toMatchObject({
      encryptionKey: chosen,
      previousEncryptionKeys: [generated.encryptionKey.toString('hex')],
    });
  });
});
