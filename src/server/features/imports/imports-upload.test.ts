import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imports } from '@server/db/schema/index';
import { CUSTOM_FIELD_NAME } from '@shared/contacts';
import { IMPORT_MESSAGES, type ImportUploadResult } from '@shared/imports';
import { fixture, makeList, multipartBody, uploadCsv } from '@tests/factories/imports';
import { createUser, type TestUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: FastifyInstance;
let dataDir: string;
let owner: TestUser;
let listId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-imports-'));
  app = await createTestApp({ DATA_DIR: dataDir });
  owner = await createUser(app);
  listId = (await makeList(app, owner.user.id)).id;
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Files left in the user's upload folder: a refused upload must leave none. */
function storedFiles(userId: string): string[] {
  try {
    return readdirSync(path.join(dataDir, 'uploads', userId));
  } catch {
    return [];
  }
}

async function importsOf(userId: string) {
  return app.services.db.select().from(imports).where(eq(imports.userId, userId));
}

describe('POST /api/imports: files that cannot be imported', () => {
  const cases: [string, Buffer | string, string][] = [
    ['an empty file', fixture('empty.csv'), IMPORT_MESSAGES.empty],
    ['a file of blank lines', '\r\n\r\n   \n', IMPORT_MESSAGES.empty],
    ['a header row only', fixture('header-only.csv'), IMPORT_MESSAGES.headerOnly],
    ['a PNG renamed .csv', fixture('binary.csv'), IMPORT_MESSAGES.notCsv],
    [
      'an email column of phone numbers',
      fixture('email-phone-numbers.csv'),
      IMPORT_MESSAGES.emailColumnEmpty('email'),
    ],
    ['a file with no addresses at all', 'name,city\nAda,Lagos\nBola,Accra\n', IMPORT_MESSAGES.noEmailColumn],
    [
      'an Excel workbook',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
      IMPORT_MESSAGES.spreadsheet,
    ],
  ];
  it.each(cases)('refuses %s with a clear message and keeps nothing', async (_name, content, message) => {
    const user = await createUser(app);
    const list = await makeList(app, user.user.id);
    const response = await uploadCsv(app, user.cookie, content, { target: 'list', listId: list.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(storedFiles(user.user.id)).toEqual([]);
    expect(await importsOf(user.user.id)).toHaveLength(0);
  });

  it('refuses a file with 5,000 columns', async () => {
    const header = Array.from({ length: 5000 }, (_, i) => `c${i}`);
    header[0] = 'email';
    const row = Array.from({ length: 5000 }, (_, i) => (i === 0 ? 'ada@example.com' : `v${i}`));
    const response = await uploadCsv(app, owner.cookie, `${header.join(',')}\n${row.join(',')}\n`, {
      target: 'list',
      listId,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(IMPORT_MESSAGES.tooManyColumns(5000, 1000));
  });

  it('answers 413 over IMPORT_MAX_BYTES and deletes the partial file', async () => {
    const small = await createTestApp({ DATA_DIR: dataDir, IMPORT_MAX_BYTES: '10000' });
    try {
      const user = await createUser(small);
      const list = await makeList(small, user.user.id);
      const big = `email\n${Array.from({ length: 2000 }, (_, i) => `person${i}@example.com`).join('\n')}\n`;
      const response = await uploadCsv(small, user.cookie, big, { target: 'list', listId: list.id });
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe('This file is larger than 10 KB. Split it or contact support.');
      expect(storedFiles(user.user.id)).toEqual([]);
      const fits = await uploadCsv(small, user.cookie, 'email\nada@example.com\n', {
        target: 'list',
        listId: list.id,
      });
      expect(fits.statusCode).toBe(201);
    } finally {
      await small.close();
    }
  });

  it('says 50 MB in the default limit message', () => {
    expect(IMPORT_MESSAGES.tooLarge('50 MB')).toBe(
      'This file is larger than 50 MB. Split it or contact support.',
    );
  });

  it('accepts a file larger than the JSON body limit, streamed to disk', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `person${i}@example.com,Person ${i}`);
    const response = await uploadCsv(app, owner.cookie, `email,name\n${rows.join('\n')}\n`, {
      target: 'list',
      listId,
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<ImportUploadResult>();
    expect(body.estimatedRows).toBeGreaterThan(15_000);
    expect(body.estimatedRows).toBeLessThan(25_000);
    expect(storedFiles(owner.user.id)).toContain(`${body.importId}.csv`);
  });

  it('needs a file, a list, and a session', async () => {
    const noFile = multipartBody({ target: 'list', listId });
    const missing = await app.inject({
      method: 'POST',
      url: '/api/imports',
      payload: noFile.payload,
      headers: { ...noFile.headers, cookie: owner.cookie },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(IMPORT_MESSAGES.noFile);

    const noList = await uploadCsv(app, owner.cookie, fixture('mixed.csv'), { target: 'list' });
    expect(noList.statusCode).toBe(400);
    expect(noList.json().message).toBe(IMPORT_MESSAGES.listRequired);

    const other = await createUser(app);
    const othersList = await makeList(app, other.user.id);
    const foreign = await uploadCsv(app, owner.cookie, fixture('mixed.csv'), {
      target: 'list',
      listId: othersList.id,
    });
    expect(foreign.statusCode).toBe(404);

    const body = multipartBody({ target: 'list', listId }, { name: 'a.csv', content: fixture('mixed.csv') });
    const anonymous = await app.inject({ method: 'POST', url: '/api/imports', ...body });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses two files and a body that is not multipart data, keeping nothing', async () => {
    const user = await createUser(app);
    const list = await makeList(app, user.user.id);
    const boundary = '----tambari-two-files';
    const file = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.csv"\r\nContent-Type: text/csv\r\n\r\nemail\r\nada@example.com\r\n\r\n`;
    const two = await app.inject({
      method: 'POST',
      url: '/api/imports',
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="listId"\r\n\r\n${list.id}\r\n${file('a')}${file('b')}--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: user.cookie },
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toBe(IMPORT_MESSAGES.oneFile);
    const garbage = await app.inject({
      method: 'POST',
      url: '/api/imports',
      payload: 'this is not multipart',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: user.cookie },
    });
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toBe(IMPORT_MESSAGES.unreadableUpload);
    expect(storedFiles(user.user.id)).toEqual([]);
    expect(await importsOf(user.user.id)).toHaveLength(0);
  });

  it('lets only a super admin import into the directory', async () => {
    const refused = await uploadCsv(app, owner.cookie, fixture('directory.csv'), { target: 'directory' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(IMPORT_MESSAGES.directoryForbidden);
    const admin = await createUser(app, { role: 'super_admin' });
    const allowed = await uploadCsv(app, admin.cookie, fixture('directory.csv'), { target: 'directory' });
    expect(allowed.statusCode).toBe(201);
    expect(allowed.json().suggestedMapping).toMatchObject({
      '0': 'company',
      '1': 'full_name',
      '2': 'email',
      '6': 'category',
    });
  });
});

describe('POST /api/imports: what the inspection finds', () => {
  async function inspect(content: Buffer | string): Promise<ImportUploadResult> {
    const response = await uploadCsv(app, owner.cookie, content, { target: 'list', listId });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<ImportUploadResult>();
  }

  it('reads a UTF-8 file with a BOM, and suggests fields and custom fields from the header', async () => {
    const result = await inspect(fixture('utf8-bom.csv'));
    expect(result).toMatchObject({ encoding: 'utf-8', delimiter: ',', hasHeader: true, estimatedRows: 2 });
    expect(result.columns.map((c) => c.header)).toEqual(['Email', 'First Name', 'Last Name']);
    expect(result.previewRows[0]).toEqual(['zoe@example.com', 'Zoë', 'Ångström']);
    expect(result.suggestedMapping).toEqual({ '0': 'email', '1': 'first_name', '2': 'last_name' });
    expect(result.import.status).toBe('uploaded');
  });

  it('reads Windows-1252 with a semicolon delimiter', async () => {
    const result = await inspect(fixture('windows-1252.csv'));
    expect(result).toMatchObject({ encoding: 'windows-1252', delimiter: ';', hasHeader: true });
    expect(result.columns.map((c) => c.header)).toEqual(['email', 'prénom', 'nom', 'société']);
    expect(result.previewRows[1]).toEqual(['renee@example.com', 'Renée', 'Ñúñez', 'Crème Brûlée SARL']);
    expect(result.suggestedMapping).toEqual({
      '0': 'email',
      '1': 'first_name',
      '2': 'last_name',
      '3': 'company',
    });
  });

  it('reads UTF-16 LE with a BOM and tabs', async () => {
    const result = await inspect(fixture('utf16le-bom.csv'));
    expect(result).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', hasHeader: true });
    expect(result.previewRows).toEqual([
      ['ngozi@example.com', 'Ngozi', 'Lagos'],
      ['kwame@example.com', 'Kwame', 'Accra'],
    ]);
  });

  it('finds semicolons even when cells hold commas, tabs, and pipes', async () => {
    const semicolon = await inspect(fixture('semicolon.csv'));
    expect(semicolon.delimiter).toBe(';');
    expect(semicolon.previewRows[0]).toEqual(['hans@example.com', 'Hans', 'Müller, Schmidt & Co']);
    // German headers are known names too.
    expect(semicolon.suggestedMapping).toEqual({ '0': 'email', '1': 'first_name', '2': 'company' });
    const tab = await inspect(fixture('tab-delimited.csv'));
    expect(tab.delimiter).toBe('\t');
    expect(tab.suggestedMapping).toEqual({ '0': 'email', '1': 'full_name', '2': 'phone' });
    const pipe = await inspect(fixture('pipe-delimited.csv'));
    expect(pipe.delimiter).toBe('|');
    expect(pipe.suggestedMapping).toEqual({ '0': 'email', '1': 'company', '2': 'website' });
  });

  it('suggests custom field names a list accepts, however long the header', async () => {
    const header = 'Preferred delivery window for weekday shipments and returns';
    const result = await inspect(`email,${header}\nada@example.com,Mornings\n`);
    expect(result.suggestedMapping['1']).toBe('custom:preferred_delivery_window_for_weekday_sh');
    expect(result.suggestedMapping['1']?.slice('custom:'.length)).toMatch(CUSTOM_FIELD_NAME);
  });

  it('sees when there is no header row', async () => {
    const result = await inspect(fixture('no-header.csv'));
    expect(result.hasHeader).toBe(false);
    expect(result.columns.map((c) => c.header)).toEqual(['Column 1', 'Column 2', 'Column 3']);
    expect(result.previewRows).toHaveLength(3);
    expect(result.suggestedMapping['0']).toBe('email');
  });

  it('shows the first 10 rows and 5 samples per column', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `p${i}@example.com,Name ${i}`);
    const result = await inspect(`email,name\n${rows.join('\n')}\n`);
    expect(result.previewRows).toHaveLength(10);
    expect(result.columns[1]!.sample).toEqual(['Name 0', 'Name 1', 'Name 2', 'Name 3', 'Name 4']);
    expect(result.estimatedRows).toBe(30);
  });

  it('looks again with another delimiter or header choice when asked', async () => {
    const result = await inspect(fixture('semicolon.csv'));
    const again = await app.inject({
      method: 'POST',
      url: `/api/imports/${result.importId}/inspect`,
      headers: { cookie: owner.cookie },
      payload: { delimiter: ',', hasHeader: false },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ delimiter: ',', hasHeader: false });
    const preview = await app.inject({
      method: 'GET',
      url: `/api/imports/${result.importId}/preview`,
      headers: { cookie: owner.cookie },
    });
    expect(preview.json()).toMatchObject({ delimiter: ',', hasHeader: false, importId: result.importId });
  });
});
