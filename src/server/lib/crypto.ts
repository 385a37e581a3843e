import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/*
 * AES-256-GCM for secrets at rest (SMTP/IMAP passwords).
 *
 * Format v2: `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts). The key id is the first 8 hex digits
 * of the key's SHA-256, so a sealed value names the key that opens it and the keys can be rotated:
 * ENCRYPTION_KEY is the key new secrets are sealed with, ENCRYPTION_KEYS_PREVIOUS the keys still accepted,
 * and resealSenderSecrets moves every stored secret to the current key at start-up (docs/deploy.md).
 * Format v1 (`v1.<iv>.<tag>.<ciphertext>`, before key ids) is still read: each known key is tried.
 */

const CURRENT_FORMAT = 'v2';

/** Names a key without revealing it (32 bits of its hash). */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    CURRENT_FORMAT,
    keyId(key),
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

function open(key: Buffer, iv: string, tag: string, body: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * Opens a sealed secret with `key` or one of `previous`. Throws on an unknown format, on a key id none of
 * the keys has, and on a ciphertext or tag that does not authenticate.
 */
export function decryptSecret(sealed: string, key: Buffer, previous: readonly Buffer[] = []): string {
  const parts = sealed.split('.');
  if (parts[0] === 'v2' && parts.length === 5) {
    const [, id, iv, tag, body] = parts as [string, string, string, string, string];
    const match = [key, ...previous].find((candidate) => keyId(candidate) === id);
    if (!match) throw new Error(`Sealed with an unknown key (${id}): is it in ENCRYPTION_KEYS_PREVIOUS?`);
    return open(match, iv, tag, body);
  }
  if (parts[0] === 'v1' && parts.length === 4) {
    const [, iv, tag, body] = parts as [string, string, string, string];
    let failure: unknown = null;
    for (const candidate of [key, ...previous]) {
      try {
        return open(candidate, iv, tag, body);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }
  throw new Error('Unrecognised secret format');
}

/** Whether `sealed` is already in the current format under `key` (nothing to reseal). */
export function isSealedWith(sealed: string, key: Buffer): boolean {
  return sealed.startsWith(`${CURRENT_FORMAT}.${keyId(key)}.`);
}
