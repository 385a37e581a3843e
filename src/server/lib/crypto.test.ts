import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, isSealedWith, keyId } from './crypto';

describe('secret encryption', () => {
  const key = randomBytes(32);

  it('decrypts what it encrypted, including non-ASCII text', () => {
    for (const plain of ['smtp-password', '', 'naïve ₦ 🥁 páss']) {
      const sealed = encryptSecret(plain, key);
      if (plain) expect(sealed).not.toContain(plain);
      expect(decryptSecret(sealed, key)).toBe(plain);
    }
  });

  it('seals the same secret differently each time', () => {
    expect(encryptSecret('same', key)).not.toBe(encryptSecret('same', key));
  });

  it('refuses a tampered ciphertext', () => {
    const [version, id, iv, tag, body] = encryptSecret('smtp-password', key).split('.');
    const bytes = Buffer.from(body!, 'base64url');
    bytes[0]! ^= 0x01;
    const tampered = [version, id, iv, tag, bytes.toString('base64url')].join('.');
    expect(() => decryptSecret(tampered, key)).toThrow();
  });

  it('refuses a tampered authentication tag', () => {
    const [version, id, iv, tag, body] = encryptSecret('smtp-password', key).split('.');
    const bytes = Buffer.from(tag!, 'base64url');
    bytes[0]! ^= 0x01;
    expect(() =>
      decryptSecret([version, id, iv, bytes.toString('base64url'), body].join('.'), key),
    ).toThrow();
  });

  it('refuses to decrypt with another key', () => {
    const sealed = encryptSecret('smtp-password', key);
    expect(() => decryptSecret(sealed, randomBytes(32))).toThrow();
  });

  it('refuses text that is not a sealed secret', () => {
    expect(() => decryptSecret('plain-text-password', key)).toThrow('Unrecognised secret format');
    expect(() => decryptSecret('v2.a.b.c', key)).toThrow('Unrecognised secret format');
    expect(() => decryptSecret('v3.a.b.c.d', key)).toThrow('Unrecognised secret format');
  });

  it('names its key in the sealed value, and opens it among older keys after a rotation', () => {
    const old = randomBytes(32);
    const sealed = encryptSecret('smtp-password', old);
    expect(sealed.split('.')[1]).toBe(keyId(old));
    expect(isSealedWith(sealed, old)).toBe(true);
    expect(isSealedWith(sealed, key)).toBe(false);
    expect(decryptSecret(sealed, key, [randomBytes(32), old])).toBe('smtp-password');
    expect(() => decryptSecret(sealed, key, [randomBytes(32)])).toThrow('unknown key');
  });

  it('still reads the v1 format (no key id) with the current or an older key', () => {
    const old = randomBytes(32);
    // v1 as it was written before key ids: v1.<iv>.<tag>.<ciphertext>
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', old, iv);
    const body = Buffer.concat([cipher.update('legacy-pass', 'utf8'), cipher.final()]);
    const v1 = ['v1', iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
    expect(decryptSecret(v1, old)).toBe('legacy-pass');
    expect(decryptSecret(v1, key, [old])).toBe('legacy-pass');
    expect(() => decryptSecret(v1, key)).toThrow();
    expect(isSealedWith(v1, old)).toBe(false);
  });
});
