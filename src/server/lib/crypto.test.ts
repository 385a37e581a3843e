import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './crypto';

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
    const [version, iv, tag, body] = encryptSecret('smtp-password', key).split('.');
    const bytes = Buffer.from(body!, 'base64url');
    bytes[0]! ^= 0x01;
    const tampered = [version, iv, tag, bytes.toString('base64url')].join('.');
    expect(() => decryptSecret(tampered, key)).toThrow();
  });

  it('refuses a tampered authentication tag', () => {
    const [version, iv, tag, body] = encryptSecret('smtp-password', key).split('.');
    const bytes = Buffer.from(tag!, 'base64url');
    bytes[0]! ^= 0x01;
    expect(() => decryptSecret([version, iv, bytes.toString('base64url'), body].join('.'), key)).toThrow();
  });

  it('refuses to decrypt with another key', () => {
    const sealed = encryptSecret('smtp-password', key);
    expect(() => decryptSecret(sealed, randomBytes(32))).toThrow();
  });

  it('refuses text that is not a sealed secret', () => {
    expect(() => decryptSecret('plain-text-password', key)).toThrow('Unrecognised secret format');
    expect(() => decryptSecret('v2.a.b.c', key)).toThrow('Unrecognised secret format');
  });
});
