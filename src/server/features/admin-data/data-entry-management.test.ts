import { randomUUID } from 'node:crypto';
import { directoryContacts } from '@server/db/schema/index';
import {
  dataEntryAssignmentSchema,
  myAssignmentSchema,
  officerListSchema,
  officerQualitySchema,
  sampleSchema,
} from '@shared/data-entry';
import { auditEntriesOf } from '@tests/factories/audit';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: FastifyInstance;
let admin: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  admin = await createUser(app, { role: 'super_admin' });
});
afterAll(() => app.close());

const asAdmin = () => as(app, admin.cookie);

async function allOfficers() {
  const officers = [];
  let cursor: string | null = null;
  do {
    const response = await asAdmin()({
      method: 'GET',
      url: `/api/admin/data-entry/officers?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    });
    expect(response.statusCode).toBe(200);
    const page = officerListSchema.parse(response.json());
    officers.push(...page.officers);
    cursor = page.nextCursor;
  } while (cursor);
  return officers;
}

describe('Data Entry Management', () => {
  it('lists officers with their throughput over 14 days from the records they created', async () => {
    const officer = await createUser(app, { role: 'data_entry' });
    const tag = uniqueTag();
    const day = 86_400_000;
    await insertDirectoryContacts(app, tag, [
      { createdBy: officer.user.id, source: 'data_entry' },
      { createdBy: officer.user.id, source: 'data_entry' },
      { createdBy: officer.user.id, source: 'data_entry', createdAt: new Date(Date.now() - 3 * day) },
      // Older than the window: counted in the total only.
      { createdBy: officer.user.id, source: 'data_entry', createdAt: new Date(Date.now() - 30 * day) },
    ]);
    const row = (await allOfficers()).find((o) => o.id === officer.user.id);
    expect(row).toMatchObject({ email: officer.email, enteredToday: 2, entered14d: 3, totalEntered: 4 });
    expect(row!.daily).toHaveLength(14);
    expect(row!.daily.at(-1)?.entered).toBe(2);
    expect(row!.quality).toEqual({ reviewed: 0, correct: 0, corrected: 0, invalid: 0, accuracy: null });
    expect(row!.assignment).toMatchObject({ countryCode: null, strict: false, dailyQuota: null });
    // Users who are not officers are not listed.
    expect((await allOfficers()).some((o) => o.id === admin.user.id)).toBe(false);
  });

  it('sets an assignment and quota (audited); a strict one holds the officer to it on /data-entry', async () => {
    const officer = await createUser(app, { role: 'data_entry' });
    const put = (body: Record<string, unknown>) =>
      asAdmin()({
        method: 'PUT',
        url: `/api/admin/data-entry/officers/${officer.user.id}/assignment`,
        payload: body,
      });
    const loose = await put({
      countryCode: 'ng',
      category: 'agriculture',
      queue: 'new_records',
      strict: false,
      dailyQuota: 40,
    });
    expect(loose.statusCode).toBe(200);
    expect(dataEntryAssignmentSchema.parse(loose.json())).toMatchObject({
      countryCode: 'NG',
      category: 'agriculture',
      dailyQuota: 40,
    });

    const mine = await as(app, officer.cookie)({ method: 'GET', url: '/api/data-entry/assignment' });
    expect(myAssignmentSchema.parse(mine.json())).toMatchObject({
      countryCode: 'NG',
      category: 'agriculture',
      dailyQuota: 40,
      enteredToday: 0,
    });

    const tag = uniqueTag();
    const record = (countryCode: string, category: string) => ({
      companyName: `${tag} ${countryCode} ${category}`,
      email: `${tag.toLowerCase()}-${randomUUID().slice(0, 6)}@farm.test`,
      countryCode,
      category,
    });
    // Not strict: the assignment is a default; other records are accepted.
    const outsideLoose = await as(
      app,
      officer.cookie,
    )({ method: 'POST', url: '/api/data-entry/contacts', payload: record('GH', 'logistics') });
    expect(outsideLoose.statusCode).toBe(201);

    expect(
      (
        await put({
          countryCode: 'NG',
          category: 'agriculture',
          queue: 'new_records',
          strict: true,
          dailyQuota: 40,
        })
      ).statusCode,
    ).toBe(200);
    const refused = await as(
      app,
      officer.cookie,
    )({ method: 'POST', url: '/api/data-entry/contacts', payload: record('GH', 'agriculture') });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('You are assigned to Nigeria / Agriculture & Farming only');
    const inside = await as(
      app,
      officer.cookie,
    )({ method: 'POST', url: '/api/data-entry/contacts', payload: record('NG', 'agriculture') });
    expect(inside.statusCode).toBe(201);
    // Moving a record out of the assignment is refused the same way.
    const moved = await as(
      app,
      officer.cookie,
    )({
      method: 'PATCH',
      url: `/api/data-entry/contacts/${inside.json().id}`,
      payload: { countryCode: 'KE' },
    });
    expect(moved.statusCode).toBe(403);

    const after = myAssignmentSchema.parse(
      (await as(app, officer.cookie)({ method: 'GET', url: '/api/data-entry/assignment' })).json(),
    );
    expect(after.enteredToday).toBe(2);

    // Validation: a strict assignment without a country or category, a quota of 0, an unknown category.
    expect(
      (await put({ countryCode: null, category: null, queue: 'new_records', strict: true, dailyQuota: null }))
        .statusCode,
    ).toBe(400);
    expect(
      (await put({ countryCode: 'NG', category: null, queue: 'new_records', strict: false, dailyQuota: 0 }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await put({
          countryCode: 'NG',
          category: 'nonsense',
          queue: 'new_records',
          strict: false,
          dailyQuota: 5,
        })
      ).statusCode,
    ).toBe(400);
    // Only officers have assignments.
    const notOfficer = await asAdmin()({
      method: 'PUT',
      url: `/api/admin/data-entry/officers/${admin.user.id}/assignment`,
      payload: { countryCode: 'NG', category: null, queue: 'new_records', strict: false, dailyQuota: 5 },
    });
    expect(notOfficer.statusCode).toBe(400);

    const audits = (await auditEntriesOf(app, admin.user.id)).filter(
      (e) => e.action === 'data_entry.assignment_updated' && e.targetId === officer.user.id,
    );
    expect(audits).toHaveLength(2);
    expect(audits[1]!.details).toMatchObject({ changes: { strict: { from: false, to: true } } });
  });

  it('samples unreviewed records at random and computes quality from the reviews', async () => {
    const officer = await createUser(app, { role: 'data_entry' });
    const other = await createUser(app, { role: 'data_entry' });
    const tag = uniqueTag();
    const records = await insertDirectoryContacts(
      app,
      tag,
      Array.from({ length: 6 }, () => ({ createdBy: officer.user.id, source: 'data_entry' as const })),
    );
    const [foreign] = await insertDirectoryContacts(app, `${tag}x`, [
      { createdBy: other.user.id, source: 'data_entry' },
    ]);

    const sampleUrl = `/api/admin/data-entry/officers/${officer.user.id}/sample?size=4`;
    const sample = sampleSchema.parse((await asAdmin()({ method: 'GET', url: sampleUrl })).json());
    expect(sample.records).toHaveLength(4);
    expect(sample.unreviewed).toBe(6);
    const ids = new Set(records.map((r) => r.id));
    expect(sample.records.every((r) => ids.has(r.id))).toBe(true);

    const review = (contactId: string, outcome: string, note?: string) =>
      asAdmin()({
        method: 'POST',
        url: `/api/admin/data-entry/officers/${officer.user.id}/reviews`,
        payload: { contactId, outcome, note },
      });
    const [a, b, c, d] = sample.records.map((r) => r.id) as [string, string, string, string];
    expect((await review(a, 'correct')).statusCode).toBe(200);
    expect((await review(b, 'correct')).statusCode).toBe(200);
    expect((await review(c, 'corrected', 'Phone had a digit missing')).statusCode).toBe(200);
    expect((await review(d, 'invalid')).statusCode).toBe(400); // an invalid record needs a reason
    const last = await review(d, 'invalid', 'Business closed in 2024');
    expect(officerQualitySchema.parse(last.json())).toEqual({
      reviewed: 4,
      correct: 2,
      corrected: 1,
      invalid: 1,
      accuracy: 0.5,
    });
    // "Invalid" marks the record invalid in the directory, with the reason.
    const [invalidRow] = await app.services.db
      .select()
      .from(directoryContacts)
      .where(eq(directoryContacts.id, d));
    expect(invalidRow).toMatchObject({
      verificationStatus: 'invalid',
      invalidReason: 'Second review: Business closed in 2024',
    });
    // Reviewing again replaces the review.
    await review(c, 'correct');
    const row = (await allOfficers()).find((o) => o.id === officer.user.id);
    expect(row?.quality).toMatchObject({ reviewed: 4, correct: 3, corrected: 0, invalid: 1, accuracy: 0.75 });

    // The next sample leaves out what was reviewed; another officer's record cannot be reviewed here.
    const next = sampleSchema.parse((await asAdmin()({ method: 'GET', url: sampleUrl })).json());
    expect(next.unreviewed).toBe(2);
    expect(next.records.every((r) => ![a, b, c, d].includes(r.id))).toBe(true);
    expect((await review(foreign!.id, 'correct')).statusCode).toBe(404);

    const audited = (await auditEntriesOf(app, admin.user.id)).filter(
      (e) => e.action === 'data_entry.record_reviewed',
    );
    expect(audited.map((e) => e.targetId)).toEqual(expect.arrayContaining([a, b, c, d]));
  });
});
