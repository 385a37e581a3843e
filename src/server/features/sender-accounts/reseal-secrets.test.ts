import { createCipheriv, randomBytes } from 'node:crypto';
import { senderAccounts } from '@server/db/schema/index';
import { decryptSecret, encryptSecret, isSealedWith } from '@server/lib/crypto';
import { createSinkAccount } from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resealSenderSecrets } from './reseal-secrets';

let app: FastifyInstance;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** The v1 format, as stored before sealed values named their key. */
function sealV1(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

describe('rotating ENCRYPTION_KEY', () => {
  it('reseals every password under the new key, once, and reports what no key opens', async () => {
    const { user } = await createUser(app);
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const lostKey = randomBytes(32);
    const account = (smtp: string, imap: string | null = null) =>
      createSinkAccount(app, user.id, { smtpPasswordEnc: smtp, imapPasswordEnc: imap, keyVersion: 1 });
    const legacy = await account(sealV1('legacy-pass', oldKey));
    const rotated = await account(encryptSecret('old-pass', oldKey), encryptSecret('imap-pass', oldKey));
    const current = await account(encryptSecret('new-pass', newKey));
    const lost = await account(encryptSecret('lost-pass', lostKey));

    const secrets = {
      sessionSecret: 'x'.repeat(32),
      encryptionKey: newKey,
      previousEncryptionKeys: [oldKey],
    };
    const summary = await resealSenderSecrets({ db: app.services.db, secrets, onlyUserId: user.id });
    expect(summary).toEqual({ resealed: 2, unreadable: [lost.id] });

    const row = async (id: string) =>
      (await app.services.db.select().from(senderAccounts).where(eq(senderAccounts.id, id)))[0]!;
    for (const [id, smtp, imap] of [
      [legacy.id, 'legacy-pass', null],
      [rotated.id, 'old-pass', 'imap-pass'],
    ] as const) {
      const after = await row(id);
      expect(isSealedWith(after.smtpPasswordEnc, newKey)).toBe(true);
      // The new key alone opens it now.
      expect(decryptSecret(after.smtpPasswordEnc, newKey)).toBe(smtp);
      expect(after.imapPasswordEnc === null ? null : decryptSecret(after.imapPasswordEnc, newKey)).toBe(imap);
      expect(after.keyVersion).toBe(2);
    }
    expect((await row(current.id)).smtpPasswordEnc).toBe(current.smtpPasswordEnc);
    expect((await row(lost.id)).smtpPasswordEnc).toBe(lost.smtpPasswordEnc);

    // Run again (another process starting): nothing left to do.
    expect(await resealSenderSecrets({ db: app.services.db, secrets, onlyUserId: user.id })).toEqual({
      resealed: 0,
      unreadable: [lost.id],
    });
  });
});
