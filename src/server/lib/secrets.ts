import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../env';

export interface Secrets {
  sessionSecret: string;
  /** Seals new secrets (and reseals old ones at start-up). */
  encryptionKey: Buffer;
  /** Keys rotated out: still accepted to open what they sealed (ENCRYPTION_KEYS_PREVIOUS). */
  previousEncryptionKeys?: Buffer[];
}

function previousKeys(env: Env): Buffer[] {
  return (env.ENCRYPTION_KEYS_PREVIOUS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '')
    .map((key) => Buffer.from(key, 'hex'));
}

/**
 * Production takes both secrets from the environment (env.ts requires them). The embedded default
 * generates them once and keeps them in DATA_DIR, so sessions and encrypted passwords survive restarts.
 */
export function resolveSecrets(env: Env): Secrets {
  if (env.SESSION_SECRET && env.ENCRYPTION_KEY) {
    return {
      sessionSecret: env.SESSION_SECRET,
      encryptionKey: Buffer.from(env.ENCRYPTION_KEY, 'hex'),
      previousEncryptionKeys: previousKeys(env),
    };
  }
  const file = path.resolve(env.DATA_DIR, 'secrets.json');
  let stored: { sessionSecret?: string; encryptionKey?: string; previousEncryptionKeys?: string[] } = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8'));
  const sessionSecret = env.SESSION_SECRET ?? stored.sessionSecret ?? randomBytes(32).toString('hex');
  const encryptionKey = env.ENCRYPTION_KEY ?? stored.encryptionKey ?? randomBytes(32).toString('hex');
  // A key set in the environment replaces the stored one, which is kept in the file as a previous key:
  // passwords it sealed stay readable even if this start dies before resealing them.
  const storedPrevious = stored.previousEncryptionKeys ?? [];
  const previousHex =
    stored.encryptionKey &&
    stored.encryptionKey !== encryptionKey &&
    !storedPrevious.includes(stored.encryptionKey)
      ? [...storedPrevious, stored.encryptionKey]
      : storedPrevious;
  if (
    stored.sessionSecret !== sessionSecret ||
    stored.encryptionKey !== encryptionKey ||
    previousHex.length !== storedPrevious.length
  ) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(
      file,
      JSON.stringify(
        {
          sessionSecret,
          encryptionKey,
          ...(previousHex.length > 0 ? { previousEncryptionKeys: previousHex } : {}),
        },
        null,
        2,
      ),
      { mode: 0o600 },
    );
  }
  const previous = [
    ...previousKeys(env),
    ...previousHex.filter((hex) => hex !== encryptionKey).map((hex) => Buffer.from(hex, 'hex')),
  ];
  return {
    sessionSecret,
    encryptionKey: Buffer.from(encryptionKey, 'hex'),
    previousEncryptionKeys: previous,
  };
}

/** Secrets for a process that must not touch the disk (tests). */
export function ephemeralSecrets(): Secrets {
  return { sessionSecret: randomBytes(32).toString('hex'), encryptionKey: randomBytes(32) };
}
