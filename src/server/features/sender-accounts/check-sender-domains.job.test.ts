import { randomUUID } from 'node:crypto';
import { senderAccounts } from '@server/db/schema/index';
import { encryptSecret } from '@server/lib/crypto';
import { createUser } from '@tests/factories/users';
import { type FakeDns, startFakeDns } from '@tests/fakes/dns';
import { createTestApp } from '@tests/setup/test-app';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkStaleSenderDomains } from './check-sender-domains.job';
import { createDnsResolver } from './domain-check.service';

describe('check-sender-domains job', () => {
  let app: FastifyInstance;
  let dns: FakeDns;
  beforeAll(async () => {
    app = await createTestApp();
    dns = await startFakeDns({
      'daily.test': {
        txt: ['v=spf1 ip4:127.0.0.0/8 -all'],
        mx: [{ priority: 10, exchange: 'mx.daily.test' }],
      },
      '_dmarc.daily.test': { txt: ['v=DMARC1; p=reject'] },
    });
  });
  afterAll(async () => {
    await app.close();
    await dns.close();
  });

  it('re-checks accounts whose check is missing or older than a day, skips fresh ones, and passes the test mailbox without DNS', async () => {
    const user = await createUser(app);
    const key = app.services.secrets.encryptionKey;
    const row = (suffix: string, domainCheckedAt: Date | null, isDevMailbox = false) => ({
      userId: user.user.id,
      label: suffix,
      fromName: 'Ada',
      fromEmail: `${suffix}-${randomUUID().slice(0, 8)}@daily.test`,
      postalAddress: '12 Marina Road, Lagos',
      smtpHost: '127.0.0.1',
      smtpPort: 2525,
      smtpSecurity: 'none' as const,
      smtpUser: 'ada',
      smtpPasswordEnc: encryptSecret('x', key),
      domainCheckedAt,
      isDevMailbox,
    });
    const hourAgo = new Date(Date.now() - 3_600_000);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const inserted = await app.services.db
      .insert(senderAccounts)
      .values([row('never', null), row('stale', twoDaysAgo), row('fresh', hourAgo), row('dev', null, true)])
      .returning();
    const ids = inserted.map((r) => r.id);

    const result = await checkStaleSenderDomains({
      db: app.services.db,
      network: 'loopback',
      dnsResolver: createDnsResolver({ servers: [dns.server] }),
    });
    // Other test files' accounts may be due too (one shared database): ours are among those checked.
    expect(result.checked).toBeGreaterThanOrEqual(3);
    expect(result.failed).toBe(0);

    const after = await app.services.db.select().from(senderAccounts).where(inArray(senderAccounts.id, ids));
    const byLabel = new Map(after.map((r) => [r.label, r]));
    for (const label of ['never', 'stale']) {
      const checked = byLabel.get(label)!;
      expect(checked.domainCheckedAt!.getTime(), label).toBeGreaterThan(hourAgo.getTime());
      expect(checked.domainCheck, label).toMatchObject({
        domain: 'daily.test',
        spf: { status: 'pass' },
        dmarc: { status: 'pass' },
        mx: { status: 'pass' },
        dkim: { status: 'fail' },
      });
    }
    expect(byLabel.get('fresh')!.domainCheck).toBeNull();
    expect(byLabel.get('fresh')!.domainCheckedAt!.getTime()).toBe(hourAgo.getTime());
    expect(byLabel.get('dev')!.domainCheck).toMatchObject({
      spf: { status: 'pass', detail: 'Development mailbox: no DNS needed' },
    });

    // A second run right away finds nothing of ours to do.
    const before = byLabel.get('never')!.domainCheckedAt!.getTime();
    await checkStaleSenderDomains({
      db: app.services.db,
      network: 'loopback',
      dnsResolver: createDnsResolver({ servers: [dns.server] }),
    });
    const [again] = await app.services.db
      .select()
      .from(senderAccounts)
      .where(eq(senderAccounts.id, byLabel.get('never')!.id));
    expect(again!.domainCheckedAt!.getTime()).toBe(before);
  });
});
