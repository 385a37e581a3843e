import { auditLog, databaseDownloads } from '@server/db/schema/index';
import {
  DATABASE_DOWNLOAD_MESSAGES,
  type DatabaseDownloadSummary,
  DOWNLOAD_COLUMNS,
} from '@shared/database-download';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DAY = 86_400_000;
const STARTER_ALLOWANCE = 2_000;

/* Issue #16 §5: /database-download, a plan-limited, audited, formula-safe export of the directory records
 * a subscriber added to their lists. */
describe('database download', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp({ LEADS_RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => app.close());

  const paid = () =>
    createUser(app, { plan: 'starter', status: 'active', periodEnd: new Date(Date.now() + 30 * DAY) });
  const call = (user: TestUser) => as(app, user.cookie);
  const summary = async (user: TestUser) => {
    const response = await call(user)({ method: 'GET', url: '/api/database-download' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<DatabaseDownloadSummary>();
  };
  const download = (user: TestUser, payload: Record<string, unknown> = {}) =>
    call(user)({ method: 'POST', url: '/api/database-download', payload });

  /** A list named `name` holding the given directory records, added through Browse Contacts. */
  async function listOf(user: TestUser, name: string, contactIds: string[]): Promise<string> {
    const response = await call(user)({
      method: 'POST',
      url: '/api/leads/add-to-list',
      payload: { newListName: name, contactIds },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ listId: string }>().listId;
  }

  /** Marks `rows` as already downloaded this month. */
  const spend = (user: TestUser, rows: number) =>
    app.services.db
      .insert(databaseDownloads)
      .values({ userId: user.user.id, rowCount: rows, listIds: [], fileName: 'earlier.csv' });

  async function directory(count = 3) {
    const tag = uniqueTag();
    const rows = await insertDirectoryContacts(app, tag, [
      {
        companyName: `=HYPERLINK("http://evil.test","${tag} Click")`,
        contactName: 'Amaka Obi',
        phone: '+2348012345000',
        source: 'data_entry',
        verificationStatus: 'verified',
        verifiedAt: new Date('2026-11-12T10:00:00Z'),
      },
      { companyName: `${tag} Scraped Ltd`, source: 'scraper', sourceUrl: 'https://chamber.example.org/m' },
      { companyName: `${tag} Sample Co`, synthetic: true },
      ...Array.from({ length: Math.max(0, count - 3) }, (_, i) => ({ companyName: `${tag} Extra ${i}` })),
    ]);
    return rows.slice(0, count);
  }

  it('downloads the directory records of the chosen lists with source and verification, formula-safe', async () => {
    const user = await paid();
    const records = await directory();
    const listId = await listOf(
      user,
      'Lagos logistics',
      records.map((r) => r.id),
    );
    await listOf(user, 'Other list', [records[0]!.id]);

    const before = await summary(user);
    expect(before.allowance).toMatchObject({
      limit: STARTER_ALLOWANCE,
      usedThisMonth: 0,
      remaining: STARTER_ALLOWANCE,
    });
    expect(before.lists.find((l) => l.id === listId)).toMatchObject({ directoryContacts: 3 });

    const response = await download(user, { listIds: [listId] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="tambari-contacts-/);
    expect(response.headers['x-row-count']).toBe('3');
    const text = response.body;
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header, ...lines] = text.slice(1).trim().split(/\r?\n/);
    expect(header).toBe(DOWNLOAD_COLUMNS.join(','));
    expect(lines).toHaveLength(3);
    const formula = lines.find((line) => line.includes('HYPERLINK'))!;
    // A leading apostrophe keeps a spreadsheet from running the cell; the phone keeps its + as text.
    expect(formula.startsWith(`"'=HYPERLINK(`)).toBe(true);
    expect(formula).toContain("'+2348012345000");
    expect(formula).toContain('data_entry');
    expect(formula).toContain('verified,2026-11-12T10:00:00.000Z,no');
    expect(lines.find((line) => line.includes('Scraped Ltd'))).toContain('https://chamber.example.org/m');
    expect(lines.find((line) => line.includes('Sample Co'))).toMatch(/,unverified,,yes$/);
    expect(text).toContain(',Nigeria,');

    const after = await summary(user);
    expect(after.allowance).toMatchObject({ usedThisMonth: 3, remaining: STARTER_ALLOWANCE - 3 });
    expect(after.history[0]).toMatchObject({ rowCount: 3, lists: ['Lagos logistics'] });

    const audited = await app.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'database.downloaded'), eq(auditLog.actorId, user.user.id)));
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({ rows: 3 });
  });

  it('takes every list when none is chosen, counting a record in two lists once', async () => {
    const user = await paid();
    const records = await directory();
    await listOf(
      user,
      'First',
      records.map((r) => r.id),
    );
    await listOf(user, 'Second', [records[0]!.id, records[1]!.id]);
    const response = await download(user);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['x-row-count']).toBe('3');
  });

  it('holds the monthly allowance: refuses a file larger than what is left, or takes the first N', async () => {
    const user = await paid();
    const records = await directory(5);
    const listId = await listOf(
      user,
      'Big list',
      records.map((r) => r.id),
    );
    await spend(user, STARTER_ALLOWANCE - 2);

    const refused = await download(user, { listIds: [listId] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden', reason: 'plan_limit' });
    expect(refused.json<{ message: string }>().message).toContain('Your Starter plan allows 2,000');

    const firstTwo = await download(user, { listIds: [listId], maxRows: 2 });
    expect(firstTwo.statusCode, firstTwo.body).toBe(200);
    expect(firstTwo.headers['x-row-count']).toBe('2');
    expect(firstTwo.body.trim().split(/\r?\n/)).toHaveLength(3);

    const spent = await download(user, { listIds: [listId], maxRows: 1 });
    expect(spent.statusCode).toBe(403);
    expect(spent.json<{ message: string }>().message).toBe(DATABASE_DOWNLOAD_MESSAGES.noAllowanceLeft);
    expect((await summary(user)).allowance).toMatchObject({ usedThisMonth: STARTER_ALLOWANCE, remaining: 0 });
  });

  it('lets only one of two downloads at once spend the last of the allowance', async () => {
    const user = await paid();
    const records = await directory(3);
    const listId = await listOf(
      user,
      'Race list',
      records.map((r) => r.id),
    );
    await spend(user, STARTER_ALLOWANCE - 3);
    const [a, b] = await Promise.all([
      download(user, { listIds: [listId] }),
      download(user, { listIds: [listId] }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 403]);
    expect((await summary(user)).allowance.usedThisMonth).toBe(STARTER_ALLOWANCE);
  });

  it('is not part of the Free plan, nor of a paid plan that is not paid for', async () => {
    for (const user of [
      await createUser(app),
      await createUser(app, { plan: 'starter', status: 'past_due', periodEnd: new Date(Date.now() - DAY) }),
    ]) {
      expect((await summary(user)).allowance.limit).toBe(0);
      const refused = await download(user);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        message: DATABASE_DOWNLOAD_MESSAGES.notIncluded,
        reason: 'plan_limit',
      });
    }
  });

  it("answers 404 for another user's list and shows nobody else's lists or downloads", async () => {
    const owner = await paid();
    const other = await paid();
    const records = await directory();
    const listId = await listOf(
      owner,
      'Private list',
      records.map((r) => r.id),
    );
    await download(owner, { listIds: [listId] });

    const foreign = await download(other, { listIds: [listId] });
    expect(foreign.statusCode).toBe(404);
    const seen = await summary(other);
    expect(seen.lists).toEqual([]);
    expect(seen.history).toEqual([]);
    expect(seen.allowance.usedThisMonth).toBe(0);
  });

  it('refuses hostile input with a clear message and records nothing', async () => {
    const user = await paid();
    for (const payload of [
      { listIds: ['not-a-uuid'] },
      { listIds: 'all' },
      { maxRows: 0 },
      { maxRows: 1.5 },
      { format: 'xlsx' },
    ]) {
      const response = await download(user, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const nothing = await download(user);
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json<{ message: string }>().message).toBe(DATABASE_DOWNLOAD_MESSAGES.nothing);
    expect((await summary(user)).history).toEqual([]);
  });
});
