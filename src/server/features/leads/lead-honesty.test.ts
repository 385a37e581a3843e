import { advanceClock, resetClock } from '@server/lib/clock';
import { type DirectoryStats, type Lead, roundDownFigure } from '@shared/leads';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/* Issue #16 §1: "Verified" only with evidence and its date; sample data labelled; honest public figures. */
describe('an honest directory', () => {
  let app: FastifyInstance;
  let subscriber: TestUser;
  beforeAll(async () => {
    app = await createTestApp({ LEADS_RATE_LIMIT_MAX: '100000' });
    subscriber = await createUser(app, {
      plan: 'starter',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * DAY),
    });
  });
  afterAll(() => app.close());

  const get = (url: string) => as(app, subscriber.cookie)({ method: 'GET', url });
  const search = async (params: string) => {
    const response = await get(`/api/leads/search?${params}&limit=100`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: Lead[] }>().items;
  };
  const count = async (params: string) => {
    const response = await get(`/api/leads/count?${params}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ count: number }>().count;
  };

  describe('browse', () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    beforeAll(async () => {
      await insertDirectoryContacts(app, tag, [
        {
          companyName: `${tag} A Sample Co`,
          synthetic: true,
          email: `${tag.toLowerCase()}@x.ng.example.com`,
        },
        {
          companyName: `${tag} B Real Verified`,
          verificationStatus: 'verified',
          verifiedAt: new Date('2026-11-12T10:00:00Z'),
          verifiedBy: 'officer-1',
          source: 'data_entry',
        },
        {
          companyName: `${tag} D Scraped`,
          source: 'scraper',
          sourceUrl: 'https://chamber.example.org/members',
        },
      ]);
    });

    it('flags a synthetic record as sample data and never calls it verified', async () => {
      const items = await search(`city=${city}`);
      expect(items.map((lead) => lead.companyName)).toHaveLength(3);
      const sample = items.find((lead) => lead.companyName.endsWith('A Sample Co'))!;
      expect(sample).toMatchObject({ sample: true, verified: false, verifiedAt: null, source: 'seed' });
      for (const lead of items.filter((l) => l !== sample)) expect(lead.sample).toBe(false);
    });

    it('calls a record verified only with a result and its date, and names source and date added', async () => {
      const items = await search(`city=${city}`);
      const byName = (suffix: string) => items.find((lead) => lead.companyName.endsWith(suffix))!;
      expect(byName('B Real Verified')).toMatchObject({
        verified: true,
        verifiedAt: '2026-11-12T10:00:00.000Z',
        verificationMethod: 'officer_check',
        source: 'data_entry',
      });
      expect(byName('D Scraped')).toMatchObject({
        source: 'scraper',
        sourceUrl: 'https://chamber.example.org/members',
        verified: false,
      });
      for (const lead of items) expect(Date.parse(lead.createdAt)).not.toBeNaN();
    });

    it('refuses to store sample data as verified, or "verified" without its date', async () => {
      await expect(
        insertDirectoryContacts(app, tag, [
          {
            synthetic: true,
            verificationStatus: 'verified',
            verifiedAt: new Date(),
            email: `${tag}-v@x.test`,
          },
        ]),
      ).rejects.toThrow();
      await expect(
        insertDirectoryContacts(app, tag, [
          { verificationStatus: 'verified', verifiedAt: null, email: `${tag}-n@x.test` },
        ]),
      ).rejects.toThrow();
    });

    it('will not let an officer verify sample data (409), though it may mark it invalid', async () => {
      const officer = await createUser(app, { role: 'data_entry' });
      const [row] = await insertDirectoryContacts(app, `${tag}o`, [{ synthetic: true }]);
      const call = (payload: Record<string, unknown>) =>
        as(
          app,
          officer.cookie,
        )({ method: 'POST', url: `/api/data-entry/contacts/${row!.id}/verify`, payload });
      const refused = await call({ status: 'verified' });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().message).toMatch(/sample data/i);
      expect((await call({ status: 'invalid', reason: 'Not a real business' })).statusCode).toBe(200);
    });
  });

  describe('filters by verification status and age', () => {
    const tag = uniqueTag();
    const city = `${tag}ville`;
    beforeAll(async () => {
      await insertDirectoryContacts(app, tag, [
        { companyName: `${tag} Fresh`, verificationStatus: 'verified', verifiedAt: daysAgo(10) },
        { companyName: `${tag} Recent`, verificationStatus: 'verified', verifiedAt: daysAgo(60) },
        { companyName: `${tag} Old`, verificationStatus: 'verified', verifiedAt: daysAgo(200) },
        { companyName: `${tag} Unchecked` },
        { companyName: `${tag} Sample`, synthetic: true },
      ]);
    });
    const names = (items: Lead[]) => items.map((lead) => lead.companyName.slice(tag.length + 1)).sort();

    it('by status: verified or unverified, in the rows and in the count', async () => {
      expect(names(await search(`city=${city}&verification=verified`))).toEqual(['Fresh', 'Old', 'Recent']);
      expect(names(await search(`city=${city}&verification=unverified`))).toEqual(['Sample', 'Unchecked']);
      expect(await count(`city=${city}&verification=verified`)).toBe(3);
      expect(await count(`city=${city}&verification=unverified`)).toBe(2);
      expect(await count(`city=${city}`)).toBe(5);
    });

    it('by age: verified within 30 or 90 days', async () => {
      expect(names(await search(`city=${city}&verifiedWithinDays=30`))).toEqual(['Fresh']);
      expect(names(await search(`city=${city}&verifiedWithinDays=90`))).toEqual(['Fresh', 'Recent']);
      expect(await count(`city=${city}&verifiedWithinDays=30`)).toBe(1);
      expect(await count(`city=${city}&verifiedWithinDays=90`)).toBe(2);
    });
  });
});

describe('marketing figures', () => {
  it('round down to three significant digits', () => {
    expect(roundDownFigure(0)).toBe(0);
    expect(roundDownFigure(987)).toBe(987);
    expect(roundDownFigure(1_234)).toBe(1_230);
    expect(roundDownFigure(12_437)).toBe(12_400);
    expect(roundDownFigure(1_234_567)).toBe(1_230_000);
    expect(roundDownFigure(1_000_000)).toBe(1_000_000);
  });

  // Exact figures need a directory of our own: in-memory PGlite gives each test file one; on the shared
  // PostgreSQL database other files add verified rows at the same time.
  it.skipIf(Boolean(inject('databaseUrl')))(
    'count only real verified records, round down, say nothing when there are none, and are cached',
    async () => {
      const app = await createTestApp();
      try {
        const stats = async () => {
          const response = await app.inject({ method: 'GET', url: '/api/public/directory-stats' });
          expect(response.statusCode, response.body).toBe(200);
          return response.json<DirectoryStats>();
        };
        expect(await stats()).toMatchObject({ verifiedContacts: 0, countries: 0, sampleData: false });

        const tag = uniqueTag();
        const verified = (i: number) => ({
          verificationStatus: 'verified' as const,
          verifiedAt: daysAgo(5),
          countryCode: ['NG', 'GH', 'KE'][i % 3]!,
        });
        await insertDirectoryContacts(
          app,
          tag,
          Array.from({ length: 1_234 }, (_, i) => verified(i)),
        );
        await insertDirectoryContacts(
          app,
          `${tag}s`,
          Array.from({ length: 40 }, () => ({ synthetic: true })),
        );
        await insertDirectoryContacts(
          app,
          `${tag}u`,
          Array.from({ length: 50 }, () => ({ countryCode: 'ZA' })),
        );
        await insertDirectoryContacts(app, `${tag}d`, [
          { ...verified(0), countryCode: 'EG', deletedAt: new Date() },
        ]);

        // Still the cached answer within five minutes…
        expect((await stats()).verifiedContacts).toBe(0);
        advanceClock(5 * 60_000 + 1);
        // …then the live figure: 1,234 real verified → "1,230+", in 3 countries; sample data present.
        expect(await stats()).toMatchObject({
          verifiedContacts: 1_230,
          verifiedContactsRounded: true,
          countries: 3,
          categories: 1,
          sampleData: true,
        });
      } finally {
        resetClock();
        await app.close();
      }
    },
    60_000,
  );
});
