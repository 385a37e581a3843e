import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { directoryContacts, suppressions } from '@server/db/schema/index';
import { maskEmail } from '@shared/contacts';
import { IMPORT_REASONS, type ImportSummary } from '@shared/imports';
import { fixture, importFile } from '@tests/factories/imports';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { parse } from 'csv-parse/sync';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmail, isSuppressed } from '../suppression/suppression.service';

let app: FastifyInstance;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-imports-'));
  app = await createTestApp({ DATA_DIR: dataDir });
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function summary(id: string, cookie: string): Promise<ImportSummary> {
  return (
    await app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: { cookie } })
  ).json<ImportSummary>();
}

describe('suppression imports', () => {
  it('suppresses every valid address, hashed, with a reason from the file', async () => {
    const user = await createUser(app);
    const { upload, outcome } = await importFile(app, user.cookie, fixture('suppression.csv'), {
      target: 'suppression',
    });
    expect(outcome).toBe('completed');
    expect(upload.suggestedMapping).toEqual({ '0': 'email', '1': 'reason' });
    expect(await summary(upload.importId, user.cookie)).toMatchObject({ importedRows: 3, invalidRows: 1 });
    const db = app.services.db;
    expect(await isSuppressed({ db, userId: user.user.id, email: 'gone@example.com' })).toBe(true);
    expect(await isSuppressed({ db, userId: user.user.id, email: ' BOUNCE@example.com ' })).toBe(true);
    expect(await isSuppressed({ db, userId: user.user.id, email: 'plain@example.com' })).toBe(true);
    expect(await isSuppressed({ db, userId: user.user.id, email: 'other@example.com' })).toBe(false);
    const other = await createUser(app);
    expect(await isSuppressed({ db, userId: other.user.id, email: 'gone@example.com' })).toBe(false);

    const rows = await db
      .select()
      .from(suppressions)
      .where(eq(suppressions.userId, user.user.id))
      .orderBy(suppressions.emailHint);
    expect(rows.map((r) => [r.emailHint, r.reason, r.source, r.note])).toEqual([
      [maskEmail('bounce@example.com'), 'bounced', 'import', 'hard bounce'],
      [maskEmail('Gone@Example.com'), 'unsubscribed', 'import', 'unsubscribed by phone'],
      [maskEmail('plain@example.com'), 'manual', 'import', null],
    ]);
    expect(rows.find((r) => r.reason === 'bounced')!.emailHash).toBe(hashEmail('bounce@example.com'));

    // Importing the same file again adds nothing and counts them as already there.
    const again = await importFile(app, user.cookie, fixture('suppression.csv'), { target: 'suppression' });
    expect(await summary(again.upload.importId, user.cookie)).toMatchObject({
      importedRows: 0,
      existingRows: 3,
    });
  });
});

describe('directory imports', () => {
  it('adds directory contacts with a known category and country, rejecting the rest', async () => {
    const admin = await createUser(app, { role: 'super_admin' });
    const unique = Date.now().toString(36);
    const content = fixture('directory.csv')
      .toString('utf8')
      .replaceAll('.example.com', `-${unique}.example.com`);
    const { upload, outcome } = await importFile(app, admin.cookie, content, { target: 'directory' });
    expect(outcome).toBe('completed');
    expect(upload.suggestedMapping).toEqual({
      '0': 'company',
      '1': 'full_name',
      '2': 'email',
      '3': 'phone',
      '4': 'city',
      '5': 'country',
      '6': 'category',
    });
    expect(await summary(upload.importId, admin.cookie)).toMatchObject({ importedRows: 2, invalidRows: 2 });
    const rows = await app.services.db
      .select()
      .from(directoryContacts)
      .where(
        inArray(sql`lower(${directoryContacts.email})`, [
          `hello@obi-holdings-${unique}.example.com`,
          `bola@ade-foods-${unique}.example.com`,
        ]),
      )
      .orderBy(directoryContacts.companyName);
    expect(
      rows.map((r) => [r.companyName, r.contactName, r.countryCode, r.category, r.source, r.createdBy]),
    ).toEqual([
      ['Ade Foods', 'Bola Ade', 'NG', 'bakeries', 'import', admin.user.id],
      ['Obi Holdings', 'Ada Obi', 'NG', 'restaurants', 'import', admin.user.id],
    ]);
    const report = await app.inject({
      method: 'GET',
      url: `/api/imports/${upload.importId}/report.csv`,
      headers: { cookie: admin.cookie },
    });
    const lines = parse(report.body, { bom: true }) as string[][];
    expect(lines.slice(1).map((r) => [r[0], r[1]])).toEqual([
      ['4', IMPORT_REASONS.unknownCategory],
      ['5', IMPORT_REASONS.missingCompany],
    ]);

    const again = await importFile(app, admin.cookie, content, { target: 'directory' });
    expect(await summary(again.upload.importId, admin.cookie)).toMatchObject({
      importedRows: 0,
      existingRows: 2,
    });
  });

  it('needs company, country and category in the mapping', async () => {
    const admin = await createUser(app, { role: 'super_admin' });
    await expect(
      importFile(
        app,
        admin.cookie,
        fixture('directory.csv'),
        { target: 'directory' },
        { mapping: { '2': 'email', '0': 'company' } },
      ),
    ).rejects.toThrow(/need a company, a country and a category/);
  });
});
