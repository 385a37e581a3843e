import { directoryContacts, emailVerifications, listContacts } from '@server/db/schema';
import { advanceClock, resetClock } from '@server/lib/clock';
import { EMAIL_VERIFICATION_REASONS, type ListVerification } from '@shared/verification';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { type MailExchanger, startMailExchanger } from '@tests/fakes/mail-exchanger';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createList } from '../lists/lists.service';
import { recheckGreylisted, runListVerification, verifyAndRecord } from './verification.service';
import {
  type MailHost,
  normaliseForVerification,
  type VerifierOptions,
  verifyAddresses,
} from './verify-addresses';
import { EMAIL_CHECK_VERIFIER, verifyDueDirectoryRecords } from './verify-directory';

/*
 * The verifier against real SMTP servers on loopback that answer as receiving servers do: a known
 * mailbox, an unknown one, a full one, a catch-all domain, greylisting, a domain with no mail server and
 * one whose server is down.
 */

describe('email verification', () => {
  let company: MailExchanger;
  let catchAll: MailExchanger;
  let greylisting: MailExchanger;
  let verifier: VerifierOptions;
  const closedPort = async () => {
    const probe = await startMailExchanger();
    await probe.close();
    return probe.port;
  };

  beforeAll(async () => {
    company = await startMailExchanger({
      mailboxes: ['ada@kilimo.co.ke', 'info@kilimo.co.ke'],
      full: ['busy@kilimo.co.ke'],
    });
    catchAll = await startMailExchanger({ catchAll: true });
    greylisting = await startMailExchanger({
      greylist: true,
      mailboxes: ['kofi@slow.com.gh', 'ama@slow.com.gh'],
    });
    const down = await closedPort();
    const hosts: Record<string, MailHost[]> = {
      'kilimo.co.ke': [{ host: '127.0.0.1', port: company.port }],
      'anything.ng': [{ host: '127.0.0.1', port: catchAll.port }],
      'slow.com.gh': [{ host: '127.0.0.1', port: greylisting.port }],
      // The first server is down; the backup answers.
      'backup.ng': [
        { host: '127.0.0.1', port: down },
        { host: '127.0.0.1', port: catchAll.port },
      ],
      'down.ng': [{ host: '127.0.0.1', port: down }],
    };
    verifier = {
      mailHostsOf: async (domain) => {
        if (domain === 'dnsfail.ng') throw Object.assign(new Error('timeout'), { code: 'ETIMEOUT' });
        return hosts[domain] ?? [];
      },
      heloName: 'tambari.test',
      mailFrom: 'verify@tambari.test',
      timeoutMs: 5000,
    };
  });

  afterAll(async () => {
    await Promise.all([company.close(), catchAll.close(), greylisting.close()]);
  });

  it('gives each address a status and a reason, and never sends a message', async () => {
    const verdicts = await verifyAddresses(
      [
        'Ada@Kilimo.co.ke',
        'nobody@kilimo.co.ke',
        'busy@kilimo.co.ke',
        'info@kilimo.co.ke',
        'whoever@anything.ng',
        'kofi@slow.com.gh',
        'x@nomail.ng',
        'x@down.ng',
        'x@dnsfail.ng',
        'y@backup.ng',
        'not-an-address',
        'temp@mailinator.com',
      ],
      verifier,
    );
    const byEmail = Object.fromEntries(
      verdicts.map((v) => [v.email, `${v.status}/${v.reason}/${v.smtpCode ?? '-'}`]),
    );
    expect(byEmail).toEqual({
      'ada@kilimo.co.ke': 'valid/accepted/250',
      'nobody@kilimo.co.ke': 'invalid/rejected/550',
      'busy@kilimo.co.ke': 'risky/mailbox_full/452',
      'info@kilimo.co.ke': 'risky/role/250',
      'whoever@anything.ng': 'risky/catch_all/250',
      'kofi@slow.com.gh': 'risky/greylisted/451',
      'x@nomail.ng': 'invalid/no_mx/-',
      'x@down.ng': 'unknown/unreachable/-',
      'x@dnsfail.ng': 'unknown/dns_error/-',
      'y@backup.ng': 'risky/catch_all/250',
      'not-an-address': 'invalid/syntax/-',
      'temp@mailinator.com': 'invalid/disposable/-',
    });
    expect(verdicts.find((v) => v.reason === 'greylisted')?.retryAt).toBeInstanceOf(Date);
    expect(company.dataAttempts + catchAll.dataAttempts + greylisting.dataAttempts).toBe(0);
    // One conversation for the whole domain, with a random address asked first (the catch-all test).
    expect(company.asked[0]).toMatch(/^[0-9a-f]{16}-verify@kilimo\.co\.ke$/);
  });

  it('writes international domains in their ASCII form', () => {
    expect(normaliseForVerification('Ada@Bücher.de')).toEqual({
      email: 'ada@xn--bcher-kva.de',
      domain: 'xn--bcher-kva.de',
    });
    expect(normaliseForVerification('two@@signs.com')).toBeNull();
  });

  describe('with the database', () => {
    let app: FastifyInstance;
    let owner: TestUser;
    let stranger: TestUser;
    let listId: string;

    beforeAll(async () => {
      app = await createTestApp();
      owner = await createUser(app);
      stranger = await createUser(app);
      const list = await createList({ db: app.services.db, userId: owner.user.id, name: 'Kenya buyers' });
      listId = list.id;
      const emails = ['ada@kilimo.co.ke', 'nobody@kilimo.co.ke', 'whoever@anything.ng', 'ama@slow.com.gh'];
      await app.services.db.insert(listContacts).values(
        emails.map((email) => ({
          userId: owner.user.id,
          listId,
          email,
          emailNormalized: email,
          source: 'manual' as const,
        })),
      );
    });

    afterAll(async () => {
      await app.close();
    });

    it('verifies a list on request, with progress and a breakdown; other users get 404', async () => {
      const api = as(app, owner.cookie);
      const before = (
        await api({ method: 'GET', url: `/api/lists/${listId}/verification` })
      ).json<ListVerification>();
      expect(before).toMatchObject({ run: null, breakdown: { unchecked: 4 } });

      const started = await api({ method: 'POST', url: `/api/lists/${listId}/verify` });
      expect(started.statusCode, started.body).toBe(202);
      const run = started.json<ListVerification>().run!;
      expect(run).toMatchObject({ state: 'queued', total: 4, checked: 0 });
      expect((await api({ method: 'POST', url: `/api/lists/${listId}/verify` })).statusCode).toBe(409);

      await runListVerification({ db: app.services.db, runId: run.id, verifier });
      const after = (
        await api({ method: 'GET', url: `/api/lists/${listId}/verification` })
      ).json<ListVerification>();
      expect(after.run).toMatchObject({ state: 'completed', checked: 4 });
      expect(after.breakdown).toEqual({ valid: 1, risky: 2, invalid: 1, unknown: 0, unchecked: 0 });
      expect(after.reasons.map((r) => r.reason).sort()).toEqual([
        'accepted',
        'catch_all',
        'greylisted',
        'rejected',
      ]);

      const other = as(app, stranger.cookie);
      expect((await other({ method: 'GET', url: `/api/lists/${listId}/verification` })).statusCode).toBe(404);
      expect((await other({ method: 'POST', url: `/api/lists/${listId}/verify` })).statusCode).toBe(404);
    });

    it("spends the plan's monthly allowance: a list larger than what is left is refused, naming the plan", async () => {
      // A Free account: 100 addresses a month. A list of 60 passes, then one of 41 would pass the limit.
      const free = await createUser(app);
      const api = as(app, free.cookie);
      const listOf = async (name: string, size: number) => {
        const list = await createList({ db: app.services.db, userId: free.user.id, name });
        await app.services.db.insert(listContacts).values(
          Array.from({ length: size }, (_, i) => ({
            userId: free.user.id,
            listId: list.id,
            email: `${name}${i}@kilimo.co.ke`,
            emailNormalized: `${name}${i}@kilimo.co.ke`,
            source: 'manual' as const,
          })),
        );
        return list.id;
      };
      const first = await listOf('first', 60);
      const second = await listOf('second', 41);
      const fresh = (
        await api({ method: 'GET', url: `/api/lists/${first}/verification` })
      ).json<ListVerification>();
      expect(fresh.allowance).toMatchObject({
        planName: 'Free',
        limit: 100,
        usedThisMonth: 0,
        remaining: 100,
      });

      expect((await api({ method: 'POST', url: `/api/lists/${first}/verify` })).statusCode).toBe(202);
      const refused = await api({ method: 'POST', url: `/api/lists/${second}/verify` });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        message: 'Your Free plan allows 100 addresses verified a month. Upgrade to Starter for 5,000.',
        reason: 'plan_limit',
      });
      const spent = (
        await api({ method: 'GET', url: `/api/lists/${second}/verification` })
      ).json<ListVerification>();
      expect(spent.run).toBeNull();
      expect(spent.allowance).toMatchObject({ usedThisMonth: 60, remaining: 40 });

      // Next month the allowance is whole again.
      advanceClock(32 * 86_400_000);
      try {
        expect((await api({ method: 'POST', url: `/api/lists/${second}/verify` })).statusCode).toBe(202);
      } finally {
        resetClock();
      }
    });

    it('asks again only what is stale or greylisted and due', async () => {
      const asked = company.asked.length;
      expect(await verifyAndRecord({ db: app.services.db, emails: ['ada@kilimo.co.ke'], verifier })).toBe(0);
      expect(company.asked.length).toBe(asked);
      await app.services.db
        .update(emailVerifications)
        .set({ retryAt: new Date(Date.now() - 1000) })
        .where(eq(emailVerifications.email, 'ama@slow.com.gh'));
      expect(await verifyAndRecord({ db: app.services.db, emails: ['ama@slow.com.gh'], verifier })).toBe(1);
      const [ama] = await app.services.db
        .select()
        .from(emailVerifications)
        .where(eq(emailVerifications.email, 'ama@slow.com.gh'));
      // The greylisting server lets the second attempt through.
      expect(ama).toMatchObject({ status: 'valid', reason: 'accepted', retryAt: null });
    });

    it("sets directory records' status from their mail server, dated, and asks again only after 90 days", async () => {
      const tag = uniqueTag();
      const domain = `${tag.toLowerCase()}.co.ke`;
      const server = await startMailExchanger({ mailboxes: [`ada@${domain}`, `officer@${domain}`] });
      const own: VerifierOptions = {
        ...verifier,
        mailHostsOf: async (d) => (d === domain ? [{ host: '127.0.0.1', port: server.port }] : []),
      };
      try {
        const officerVerifiedAt = new Date(Date.now() - 10 * 86_400_000);
        const rows = await insertDirectoryContacts(app, tag, [
          { email: `ada@${domain}` },
          { email: `gone@${domain}`, verificationStatus: 'verified', verifiedBy: 'officer-1' },
          {
            email: `officer@${domain}`,
            verificationStatus: 'verified',
            verifiedBy: 'officer-2',
            verifiedAt: officerVerifiedAt,
          },
          { email: `sample@${domain}`, synthetic: true },
          { email: `x@nomail-${domain}` },
        ]);
        const ids = rows.map((row) => row.id);
        const run = await verifyDueDirectoryRecords({ db: app.services.db, verifier: own, ids });
        expect(run).toEqual({ asked: 4, verified: 1, invalid: 2, undecided: 0 });

        const after = await app.services.db
          .select()
          .from(directoryContacts)
          .where(inArray(directoryContacts.id, ids));
        const byEmail = new Map(after.map((row) => [row.email.split('@')[0], row]));
        expect(byEmail.get('ada')).toMatchObject({
          verificationStatus: 'verified',
          verifiedBy: EMAIL_CHECK_VERIFIER,
        });
        expect(byEmail.get('ada')!.verifiedAt).toBeInstanceOf(Date);
        // A mailbox its server refuses is not verified, whoever verified it before.
        expect(byEmail.get('gone')).toMatchObject({
          verificationStatus: 'invalid',
          verifiedBy: null,
          invalidReason: EMAIL_VERIFICATION_REASONS.rejected,
        });
        // An officer's recent check stands; the answer only dates the record's last ask.
        expect(byEmail.get('officer')).toMatchObject({
          verificationStatus: 'verified',
          verifiedBy: 'officer-2',
        });
        expect(byEmail.get('officer')!.verifiedAt).toEqual(officerVerifiedAt);
        expect(byEmail.get('x')).toMatchObject({
          verificationStatus: 'invalid',
          invalidReason: EMAIL_VERIFICATION_REASONS.no_mx,
        });
        // Sample data is never asked and never verified.
        expect(byEmail.get('sample')).toMatchObject({
          verificationStatus: 'unverified',
          emailCheckedAt: null,
        });

        // Nothing is due again until 90 days have passed.
        expect(await verifyDueDirectoryRecords({ db: app.services.db, verifier: own, ids })).toMatchObject({
          asked: 0,
        });
        advanceClock(91 * 86_400_000);
        expect(await verifyDueDirectoryRecords({ db: app.services.db, verifier: own, ids })).toMatchObject({
          asked: 4,
        });
        expect(server.dataAttempts).toBe(0);
      } finally {
        resetClock();
        await server.close();
      }
    });

    it('asks each greylisted address once when two rechecks run at once (a run outlasting its 5 minutes)', async () => {
      const server = await startMailExchanger({ mailboxes: ['a@late.ng', 'b@late.ng', 'c@later.ng'] });
      try {
        const emails = ['a@late.ng', 'b@late.ng', 'c@later.ng'];
        await app.services.db.insert(emailVerifications).values(
          emails.map((email) => ({
            email,
            domain: email.split('@')[1]!,
            status: 'risky' as const,
            reason: 'greylisted' as const,
            checkedAt: new Date(Date.now() - 20 * 60_000),
            retryAt: new Date(Date.now() - 5 * 60_000),
          })),
        );
        // A slow DNS answer keeps the first run busy while the second one starts.
        const slow: VerifierOptions = {
          ...verifier,
          mailHostsOf: async () => {
            await new Promise((resolve) => setTimeout(resolve, 150));
            return [{ host: '127.0.0.1', port: server.port }];
          },
        };
        const probed = await Promise.all([
          recheckGreylisted({ db: app.services.db, verifier: slow }),
          recheckGreylisted({ db: app.services.db, verifier: slow }),
        ]);
        expect(probed.reduce((a, b) => a + b, 0)).toBe(3);
        // (The verifier also asks one made-up address a domain, to tell a catch-all server.)
        expect(server.asked.filter((a) => emails.includes(a)).sort()).toEqual(emails);
        const rows = await app.services.db
          .select()
          .from(emailVerifications)
          .where(inArray(emailVerifications.email, emails));
        expect(rows.map((r) => [r.email, r.status, r.reason, r.retryAt]).sort()).toEqual([
          ['a@late.ng', 'valid', 'accepted', null],
          ['b@late.ng', 'valid', 'accepted', null],
          ['c@later.ng', 'valid', 'accepted', null],
        ]);
        // Nothing is due any more.
        expect(await recheckGreylisted({ db: app.services.db, verifier: slow })).toBe(0);
      } finally {
        await server.close();
      }
    });
  });
});
