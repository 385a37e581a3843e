import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contactLists, importRejections, imports, listContacts, users } from '@server/db/schema/index';
import {
  IMPORT_MESSAGES,
  IMPORT_REASONS,
  type ImportSummary,
  type ImportUploadResult,
} from '@shared/imports';
import { fixture, importFile, makeList, runImportJob, uploadCsv } from '@tests/factories/imports';
import { createUser, type TestUser } from '@tests/factories/users';
import { startFakeDns } from '@tests/fakes/dns';
import { createTestApp } from '@tests/setup/test-app';
import { parse } from 'csv-parse/sync';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { stagingTable } from './import-staging';
import { MxChecker } from './row-rules';

let app: FastifyInstance;
let dataDir: string;
let owner: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-imports-'));
  app = await createTestApp({ DATA_DIR: dataDir });
  owner = await createUser(app, {
    plan: 'enterprise',
    status: 'active',
    periodEnd: new Date(Date.now() + 30 * 86_400_000),
  });
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function contactsOf(listId: string) {
  return app.services.db
    .select()
    .from(listContacts)
    .where(eq(listContacts.listId, listId))
    .orderBy(asc(listContacts.id));
}

async function listRow(listId: string) {
  const [row] = await app.services.db.select().from(contactLists).where(eq(contactLists.id, listId));
  return row!;
}

async function summary(id: string, cookie = owner.cookie): Promise<ImportSummary> {
  const response = await app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: { cookie } });
  expect(response.statusCode).toBe(200);
  return response.json<ImportSummary>();
}

async function report(id: string, cookie = owner.cookie): Promise<string[][]> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/imports/${id}/report.csv`,
    headers: { cookie },
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/csv');
  return parse(response.body, { bom: true, relax_column_count: true }) as string[][];
}

async function start(id: string, payload: object, cookie = owner.cookie) {
  return app.inject({ method: 'POST', url: `/api/imports/${id}/start`, headers: { cookie }, payload });
}

describe('an import end to end', () => {
  it('imports the good rows and reports the others with their reasons', async () => {
    const list = await makeList(app, owner.user.id);
    const { upload, outcome } = await importFile(app, owner.cookie, fixture('mixed.csv'), {
      target: 'list',
      listId: list.id,
    });
    expect(outcome).toBe('completed');
    expect(upload.suggestedMapping['9']).toBe('custom:favourite_colour');
    const result = await summary(upload.importId);
    expect(result).toMatchObject({
      status: 'completed',
      processedRows: 8,
      totalRows: 8,
      importedRows: 4,
      duplicateRows: 1,
      existingRows: 0,
      invalidRows: 3,
      roleAddressRows: 1,
      percent: 100,
      listId: list.id,
      listName: list.name,
    });

    const contacts = await contactsOf(list.id);
    expect(contacts.map((c) => c.emailNormalized)).toEqual([
      'ada.obi@example.com',
      'info@adefoods.example.com',
      'kwame@example.com',
      'wanjiru@example.co.ke',
    ]);
    expect(contacts[0]).toMatchObject({
      email: 'ada.obi@example.com',
      firstName: 'Ada',
      lastName: 'Obi',
      company: 'Obi Holdings',
      jobTitle: 'CEO',
      phone: '+234 803 111 2222',
      website: 'https://obi.example.com',
      city: 'Lagos',
      countryCode: 'NG',
      customFields: { favourite_colour: 'Green' },
      roleAddress: false,
      source: 'import',
      userId: owner.user.id,
    });
    expect(contacts[1]!.roleAddress).toBe(true);
    expect(contacts[2]!.countryCode).toBe('GH');
    const updated = await listRow(list.id);
    expect(updated.contactCount).toBe(4);
    expect(updated.customFields).toEqual(['favourite_colour']);

    const rows = await report(upload.importId);
    expect(rows[0]).toEqual([
      'line',
      'reason',
      'Email',
      'First Name',
      'Last Name',
      'Company',
      'Job Title',
      'Phone',
      'Website',
      'City',
      'Country',
      'Favourite Colour',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual([
      ['4', IMPORT_REASONS.invalidEmail, 'not-an-email'],
      ['5', IMPORT_REASONS.missingEmail, ''],
      ['6', IMPORT_REASONS.disposable, 'temp@mailinator.com'],
      ['7', IMPORT_REASONS.duplicate(2), 'ADA.OBI@example.com'],
    ]);
    // The uploaded file is gone; the report stays.
    const [stored] = await app.services.db.select().from(imports).where(eq(imports.id, upload.importId));
    expect(existsSync(stored!.filePath)).toBe(false);

    const page = await app.inject({
      method: 'GET',
      url: `/api/imports/${upload.importId}/rejections?limit=2`,
      headers: { cookie: owner.cookie },
    });
    expect(page.json()).toMatchObject({ nextAfter: 5, rows: [{ line: 4 }, { line: 5 }] });
    expect(page.json().columns[0]).toBe('Email');

    // Safe to run twice: a finished import is left alone.
    expect(await runImportJob(app, upload.importId)).toBe('already-finished');
    expect(await contactsOf(list.id)).toHaveLength(4);
    expect((await summary(upload.importId)).importedRows).toBe(4);
  });

  it('counts addresses already in the list, whatever their case, as existing', async () => {
    const list = await makeList(app, owner.user.id);
    await importFile(app, owner.cookie, 'email,first_name\nAda@Example.com,Ada\n', {
      target: 'list',
      listId: list.id,
    });
    const { upload } = await importFile(
      app,
      owner.cookie,
      'email,first_name\nada@EXAMPLE.com,Ada\nnew@example.com,New\n',
      {
        target: 'list',
        listId: list.id,
      },
    );
    expect(await summary(upload.importId)).toMatchObject({ importedRows: 1, existingRows: 1 });
    expect((await report(upload.importId)).slice(1)).toEqual([
      ['2', IMPORT_REASONS.existing, 'ada@EXAMPLE.com', 'Ada'],
    ]);
    expect((await listRow(list.id)).contactCount).toBe(2);
    expect((await contactsOf(list.id)).map((c) => c.email)).toEqual(['Ada@example.com', 'new@example.com']);
  });

  it('keeps the first of addresses that differ only by case', async () => {
    const list = await makeList(app, owner.user.id);
    const { upload } = await importFile(app, owner.cookie, fixture('duplicates-case.csv'), {
      target: 'list',
      listId: list.id,
    });
    expect(await summary(upload.importId)).toMatchObject({ importedRows: 2, duplicateRows: 2 });
    expect((await contactsOf(list.id)).map((c) => [c.email, c.firstName])).toEqual([
      ['Ada@example.com', 'Ada'],
      ['bola@example.com', 'Bola'],
    ]);
    expect((await report(upload.importId)).slice(1).map((r) => r.slice(0, 2))).toEqual([
      ['3', 'Duplicate of line 2'],
      ['4', 'Duplicate of line 2'],
    ]);
  });

  it('stores formulas as text and escapes them in the report', async () => {
    const list = await makeList(app, owner.user.id);
    const { upload } = await importFile(app, owner.cookie, fixture('formulas.csv'), {
      target: 'list',
      listId: list.id,
    });
    const [contact] = await contactsOf(list.id);
    expect(contact).toMatchObject({
      firstName: '=HYPERLINK("http://x","y")',
      company: '+2348031234567',
      customFields: { notes: '@SUM(A1:A2)' },
    });
    const rows = await report(upload.importId);
    expect(rows[1]).toEqual([
      '3',
      IMPORT_REASONS.invalidEmail,
      "'=cmd|' /C calc'!A0",
      'Mallory',
      "'-1+1",
      "'=1+1",
    ]);
  });

  it('keeps emoji and right-to-left names intact', async () => {
    const list = await makeList(app, owner.user.id);
    await importFile(app, owner.cookie, fixture('emoji-rtl.csv'), { target: 'list', listId: list.id });
    expect((await contactsOf(list.id)).map((c) => [c.firstName, c.lastName, c.company])).toEqual([
      ['ليلى', 'العربي', 'شركة النور'],
      ['דוד', 'כהן', 'חברת אור'],
      ['Ade 🎉', 'Okon 🇳🇬', 'Jollof & Co 🍲'],
    ]);
  });

  it('decodes Windows-1252 and UTF-16 files', async () => {
    const list = await makeList(app, owner.user.id);
    await importFile(app, owner.cookie, fixture('windows-1252.csv'), { target: 'list', listId: list.id });
    await importFile(app, owner.cookie, fixture('utf16le-bom.csv'), { target: 'list', listId: list.id });
    expect((await contactsOf(list.id)).map((c) => [c.email, c.firstName, c.lastName ?? c.city])).toEqual([
      ['jose@example.com', 'José', 'Muñoz'],
      ['renee@example.com', 'Renée', 'Ñúñez'],
      ['ngozi@example.com', 'Ngozi', 'Lagos'],
      ['kwame@example.com', 'Kwame', 'Accra'],
    ]);
  });

  it('reads a UTF-8 file with a Windows-1252 line as UTF-8 and rejects that line, storing nothing garbled', async () => {
    const list = await makeList(app, owner.user.id);
    const { upload, outcome } = await importFile(app, owner.cookie, fixture('mixed-encodings.csv'), {
      target: 'list',
      listId: list.id,
    });
    expect(outcome).toBe('completed');
    expect(upload.encoding).toBe('utf-8');
    expect((await contactsOf(list.id)).map((c) => [c.email, c.firstName, c.lastName])).toEqual([
      ['ada@example.com', 'Adé', 'Okonkwo'],
      ['zoe@example.com', 'Zoë', 'Ålund'],
      ['chloe@example.com', 'Chloé', 'Dupont'],
    ]);
    expect((await report(upload.importId)).slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['3', IMPORT_REASONS.unreadable, 'hans@example.com'],
    ]);
  });

  it('splits a full name column', async () => {
    const list = await makeList(app, owner.user.id);
    await importFile(app, owner.cookie, fixture('tab-delimited.csv'), { target: 'list', listId: list.id });
    expect((await contactsOf(list.id)).map((c) => [c.firstName, c.lastName, c.phone])).toEqual([
      ['Ada', 'Obi', '+234 803 111 2222'],
      ['Bola', 'Ade', '+234 803 333 4444'],
    ]);
  });

  it('rejects the row of an unbalanced quote and imports the rest', async () => {
    const list = await makeList(app, owner.user.id);
    const { upload, outcome } = await importFile(app, owner.cookie, fixture('unbalanced-quotes.csv'), {
      target: 'list',
      listId: list.id,
    });
    expect(outcome).toBe('completed');
    expect((await contactsOf(list.id)).map((c) => [c.email, c.company])).toEqual([
      ['bola@example.com', 'Adeyemi Ltd'],
      ['chidi@example.com', 'Eze "Best" Foods'],
      ['dayo@example.com', 'Multi\nline notes'],
      ['efe@example.com', 'Plain'],
    ]);
    expect((await report(upload.importId)).slice(1).map((r) => r.slice(0, 2))).toEqual([
      ['2', IMPORT_REASONS.malformed],
    ]);
  });

  it('rejects a 10 MB line on its own and imports the lines around it', async () => {
    const list = await makeList(app, owner.user.id);
    const huge = `huge@example.com,${'x'.repeat(10 * 1024 * 1024)}`;
    const { upload, outcome } = await importFile(
      app,
      owner.cookie,
      `email,notes\nbefore@example.com,ok\n${huge}\nafter@example.com,ok\n`,
      { target: 'list', listId: list.id },
    );
    expect(outcome).toBe('completed');
    expect((await contactsOf(list.id)).map((c) => c.email)).toEqual([
      'before@example.com',
      'after@example.com',
    ]);
    const rows = await report(upload.importId);
    expect(rows.slice(1)).toEqual([['3', IMPORT_REASONS.tooLong]]);
    expect(await summary(upload.importId)).toMatchObject({ importedRows: 2, invalidRows: 1 });
  });

  it('lists only my imports, newest first', async () => {
    const other = await createUser(app);
    const otherList = await makeList(app, other.user.id);
    await uploadCsv(app, other.cookie, 'email\nx@example.com\n', { target: 'list', listId: otherList.id });
    const response = await app.inject({
      method: 'GET',
      url: '/api/imports',
      headers: { cookie: other.cookie },
    });
    const mine = response.json<{ imports: ImportSummary[] }>().imports;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'uploaded', listName: otherList.name, fileName: 'contacts.csv' });
  });

  it('makes the new list when the import starts', async () => {
    const name = `Imported ${Date.now()}`;
    const { upload } = await importFile(app, owner.cookie, fixture('utf8-bom.csv'), {
      target: 'list',
      newListName: name,
    });
    const result = await summary(upload.importId);
    expect(result.listName).toBe(name);
    expect((await listRow(result.listId!)).contactCount).toBe(2);
  });
});

describe('the MX check', () => {
  it('rejects addresses whose domain receives no mail, only when asked', async () => {
    const dns = await startFakeDns({
      'mail.test': { mx: [{ priority: 10, exchange: 'mx.mail.test' }] },
      'nullmx.test': { mx: [{ priority: 0, exchange: '' }] },
    });
    try {
      const content = 'email\nada@mail.test\nbola@nomail.test\nchidi@nullmx.test\ndayo@mail.test\n';
      const list = await makeList(app, owner.user.id);
      const mx = new MxChecker({ servers: [dns.server] });
      const off = await uploadCsv(app, owner.cookie, content, { target: 'list', listId: list.id });
      await start(off.json().importId, { mapping: { '0': 'email' }, hasHeader: true });
      await runImportJob(app, off.json().importId, { mx });
      expect(dns.queries).toEqual([]);
      expect((await summary(off.json().importId)).importedRows).toBe(4);

      const other = await makeList(app, owner.user.id);
      const on = await uploadCsv(app, owner.cookie, content, { target: 'list', listId: other.id });
      const id = on.json().importId;
      await start(id, { mapping: { '0': 'email' }, hasHeader: true, options: { checkMx: true } });
      expect(await runImportJob(app, id, { mx })).toBe('completed');
      expect(await summary(id)).toMatchObject({
        importedRows: 2,
        invalidRows: 2,
        options: { checkMx: true },
      });
      expect((await report(id)).slice(1).map((r) => r.slice(0, 3))).toEqual([
        ['3', IMPORT_REASONS.noMx, 'bola@nomail.test'],
        ['4', IMPORT_REASONS.noMx, 'chidi@nullmx.test'],
      ]);
      // One lookup per domain.
      expect(dns.queries.filter((q) => q.name === 'mail.test')).toHaveLength(1);
    } finally {
      await dns.close();
    }
  });
});

describe('the mapping', () => {
  let upload: ImportUploadResult;
  beforeAll(async () => {
    const list = await makeList(app, owner.user.id);
    const response = await uploadCsv(app, owner.cookie, fixture('mixed.csv'), {
      target: 'list',
      listId: list.id,
    });
    upload = response.json<ImportUploadResult>();
  });

  const cases: [string, Record<string, string>, string][] = [
    ['no email column', { '1': 'first_name' }, IMPORT_MESSAGES.mappingNoEmail],
    ['two email columns', { '0': 'email', '3': 'email' }, IMPORT_MESSAGES.mappingManyEmails],
    [
      'a column that does not exist',
      { '0': 'email', '42': 'city' },
      IMPORT_MESSAGES.mappingUnknownColumn('43'),
    ],
    [
      'a field twice',
      { '0': 'email', '1': 'city', '2': 'city' },
      IMPORT_MESSAGES.mappingDuplicateField('City'),
    ],
    [
      'full name with first name',
      { '0': 'email', '1': 'first_name', '2': 'full_name' },
      IMPORT_MESSAGES.mappingFullAndParts,
    ],
    [
      'a category in a list',
      { '0': 'email', '3': 'category' },
      IMPORT_MESSAGES.mappingFieldNotAllowed('Category'),
    ],
    [
      'a custom field named like a built-in one',
      { '0': 'email', '3': 'custom:phone' },
      IMPORT_MESSAGES.mappingReservedCustom('phone'),
    ],
  ];
  it.each(cases)('refuses %s', async (_name, mapping, message) => {
    const response = await start(upload.importId, { mapping, hasHeader: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect((await summary(upload.importId)).status).toBe('uploaded');
  });

  it('refuses a custom field name longer than a list accepts (the same rule as PATCH /api/lists/:id)', async () => {
    const name = `f${'x'.repeat(40)}`;
    const response = await start(upload.importId, {
      mapping: { '0': 'email', '1': `custom:${name}` },
      hasHeader: true,
    });
    expect(response.statusCode).toBe(400);
    const list = await app.inject({
      method: 'POST',
      url: '/api/lists',
      headers: { cookie: owner.cookie },
      payload: { name: `${name}-list`, customFields: [name] },
    });
    expect(list.statusCode).toBe(400);
    expect((await summary(upload.importId)).status).toBe('uploaded');
  });

  it('refuses a mapping that is not a field', async () => {
    const response = await start(upload.importId, {
      mapping: { '0': 'email', '1': 'shoe_size' },
      hasHeader: true,
    });
    expect(response.statusCode).toBe(400);
  });

  it('queues the import once', async () => {
    const first = await start(upload.importId, {
      mapping: { '0': 'email' },
      hasHeader: true,
      options: { checkMx: false },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'queued', options: { checkMx: false } });
    const again = await start(upload.importId, { mapping: { '0': 'email' }, hasHeader: true });
    expect(again.statusCode).toBe(409);
  });
});

describe('cancel, failure, resume', () => {
  const bigFile = (n: number) =>
    `email,first_name\n${Array.from({ length: n }, (_, i) => `person${i}@example.com,Person ${i}`).join('\n')}\n`;

  async function queued(content: string, listId: string): Promise<string> {
    const uploaded = await uploadCsv(app, owner.cookie, content, { target: 'list', listId });
    const { importId, suggestedMapping } = uploaded.json<ImportUploadResult>();
    expect((await start(importId, { mapping: suggestedMapping, hasHeader: true })).statusCode).toBe(200);
    return importId;
  }

  it('cancelled mid-way, leaves the list exactly as it was', async () => {
    const list = await makeList(app, owner.user.id);
    await importFile(app, owner.cookie, 'email\nkeep@example.com\n', { target: 'list', listId: list.id });
    const id = await queued(bigFile(200), list.id);
    let batches = 0;
    const outcome = await runImportJob(app, id, {
      batchSize: 20,
      onBatch: async () => {
        batches++;
        if (batches === 3) {
          const response = await app.inject({
            method: 'POST',
            url: `/api/imports/${id}/cancel`,
            headers: { cookie: owner.cookie },
          });
          expect(response.statusCode).toBe(200);
        }
      },
    });
    expect(outcome).toBe('cancelled');
    expect(batches).toBe(3);
    expect((await contactsOf(list.id)).map((c) => c.email)).toEqual(['keep@example.com']);
    expect((await listRow(list.id)).contactCount).toBe(1);
    const result = await summary(id);
    expect(result.status).toBe('cancelled');
    expect(result.finishedAt).not.toBeNull();
    const [stored] = await app.services.db.select().from(imports).where(eq(imports.id, id));
    expect(existsSync(stored!.filePath)).toBe(false);
    const staging = await app.services.database.executeSql('SELECT to_regclass($1) AS t', [stagingTable(id)]);
    expect(staging.rows[0]!.t).toBeNull();
    const again = await app.inject({
      method: 'POST',
      url: `/api/imports/${id}/cancel`,
      headers: { cookie: owner.cookie },
    });
    expect(again.statusCode).toBe(409);
  });

  it('an address someone adds to the list during the import is neither lost nor doubled', async () => {
    const list = await makeList(app, owner.user.id);
    const id = await queued(bigFile(30), list.id);
    let adding: Promise<{ statusCode: number }> | null = null;
    const outcome = await runImportJob(app, id, {
      batchSize: 10,
      onBatch: async () => {
        if (adding) return;
        // A real writer (the API). On PostgreSQL it waits for the import's lock, so it is not awaited
        // here; on PGlite (no eager move) it goes in between two batches.
        adding = app.inject({
          method: 'POST',
          url: `/api/lists/${list.id}/contacts`,
          headers: { cookie: owner.cookie },
          payload: { email: 'Person2@example.com' },
        });
        if (app.services.database.kind === 'pglite') await adding;
      },
    });
    expect(outcome).toBe('completed');
    const added = await adding!;
    if (app.services.database.kind === 'postgres') {
      // The eager move holds the user's contacts lock: the add waits, then finds the address imported.
      expect(added.statusCode).toBe(409);
      expect(await summary(id)).toMatchObject({ importedRows: 30, existingRows: 0 });
    } else {
      // person2 was already staged: the final move meets it in the list and counts it as existing.
      expect(added.statusCode).toBe(201);
      expect(await summary(id)).toMatchObject({ importedRows: 29, existingRows: 1 });
    }
    expect(await contactsOf(list.id)).toHaveLength(30);
    expect((await listRow(list.id)).contactCount).toBe(30);
  });

  it.skipIf(!inject('databaseUrl'))(
    'on PostgreSQL, when the eager move loses its connection, the staged rows still all arrive once',
    async () => {
      const list = await makeList(app, owner.user.id);
      const id = await queued(bigFile(30), list.id);
      let terminated = -1;
      const outcome = await runImportJob(app, id, {
        batchSize: 10,
        onBatch: async () => {
          if (terminated >= 0) return;
          // The eager move's connection: in its one COPY into the list, waiting for the next batch.
          const { rows } = await app.services.database.executeSql(
            `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()
               AND query LIKE 'COPY list_contacts %'`,
          );
          terminated = rows.length;
        },
      });
      expect(terminated).toBe(1);
      expect(outcome).toBe('completed');
      expect(await summary(id)).toMatchObject({ status: 'completed', importedRows: 30, existingRows: 0 });
      expect(await contactsOf(list.id)).toHaveLength(30);
      expect((await listRow(list.id)).contactCount).toBe(30);
    },
  );

  it('cancelled before it runs, the job does nothing', async () => {
    const list = await makeList(app, owner.user.id);
    const id = await queued(bigFile(5), list.id);
    const cancelled = await app.inject({
      method: 'POST',
      url: `/api/imports/${id}/cancel`,
      headers: { cookie: owner.cookie },
    });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect(await runImportJob(app, id)).toBe('already-finished');
    expect(await contactsOf(list.id)).toHaveLength(0);
  });

  it('cancelled, takes away the new list it was to create, so nothing is left behind', async () => {
    const name = `New list ${Date.now()}`;
    const uploaded = await uploadCsv(app, owner.cookie, 'email\nnew@example.com\n', {
      target: 'list',
      newListName: name,
    });
    const { importId, suggestedMapping } = uploaded.json<ImportUploadResult>();
    expect((await start(importId, { mapping: suggestedMapping, hasHeader: true })).statusCode).toBe(200);
    const made = await app.services.db
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(and(eq(contactLists.userId, owner.user.id), eq(contactLists.name, name)));
    expect(made).toHaveLength(1);

    await app.inject({
      method: 'POST',
      url: `/api/imports/${importId}/cancel`,
      headers: { cookie: owner.cookie },
    });
    expect(await runImportJob(app, importId)).toBe('already-finished');
    const left = await app.services.db
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(and(eq(contactLists.userId, owner.user.id), eq(contactLists.name, name)));
    expect(left).toHaveLength(0);
    // The same name is free again for the next attempt.
    const retry = await uploadCsv(app, owner.cookie, 'email\nnew@example.com\n', {
      target: 'list',
      newListName: name,
    });
    expect(retry.statusCode).toBe(201);
  });

  it('failing in the final move (a database error), leaves the list unchanged', async () => {
    const list = await makeList(app, owner.user.id);
    await importFile(app, owner.cookie, 'email\nkeep@example.com\n', { target: 'list', listId: list.id });
    const poison = `boom-${Date.now()}@example.com`;
    const trigger = `import_test_boom_${Date.now()}`;
    await app.services.database.executeSql(
      `CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'simulated failure'; END $$;
       CREATE TRIGGER ${trigger} BEFORE INSERT ON list_contacts FOR EACH ROW
       WHEN (NEW.email_normalized = '${poison}') EXECUTE FUNCTION ${trigger}();`,
    );
    try {
      const id = await queued(`email\nfirst@example.com\n${poison}\nlast@example.com\n`, list.id);
      expect(await runImportJob(app, id)).toBe('failed');
      const result = await summary(id);
      expect(result.status).toBe('failed');
      expect(result.errorMessage).toMatch(/Your list was not changed/);
      expect((await contactsOf(list.id)).map((c) => c.email)).toEqual(['keep@example.com']);
      expect((await listRow(list.id)).contactCount).toBe(1);
      expect(await runImportJob(app, id)).toBe('already-finished');
    } finally {
      await app.services.database.executeSql(
        `DROP TRIGGER IF EXISTS ${trigger} ON list_contacts; DROP FUNCTION IF EXISTS ${trigger}();`,
      );
    }
  });

  it('after a transient database error (a deadlock), keeps its progress and a rerun completes it', async () => {
    const list = await makeList(app, owner.user.id);
    const poison = `deadlock-${Date.now()}@example.com`;
    const trigger = `import_test_deadlock_${Date.now()}`;
    await app.services.database.executeSql(
      `CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'simulated deadlock' USING ERRCODE = '40P01'; END $$;
       CREATE TRIGGER ${trigger} BEFORE INSERT ON list_contacts FOR EACH ROW
       WHEN (NEW.email_normalized = '${poison}') EXECUTE FUNCTION ${trigger}();`,
    );
    let id: string;
    try {
      id = await queued(`email\nfirst@example.com\n${poison}\n`, list.id);
      expect(await runImportJob(app, id)).toBe('interrupted');
      expect(await summary(id)).toMatchObject({ status: 'running', processedRows: 2 });
      expect(await contactsOf(list.id)).toHaveLength(0);
    } finally {
      await app.services.database.executeSql(
        `DROP TRIGGER IF EXISTS ${trigger} ON list_contacts; DROP FUNCTION IF EXISTS ${trigger}();`,
      );
    }
    expect(await runImportJob(app, id)).toBe('completed');
    expect((await contactsOf(list.id)).map((c) => c.email)).toEqual(['first@example.com', poison]);
  });

  it('interrupted (worker stopping), resumes where it stopped without doubling rows', async () => {
    const list = await makeList(app, owner.user.id);
    const content = `${bigFile(95)}person3@example.com,Again\n`;
    const id = await queued(content, list.id);
    const controller = new AbortController();
    let batches = 0;
    const first = await runImportJob(app, id, {
      batchSize: 10,
      signal: controller.signal,
      onBatch: () => {
        if (++batches === 4) controller.abort();
      },
    });
    expect(first).toBe('interrupted');
    const midway = await summary(id);
    expect(midway).toMatchObject({ status: 'running', processedRows: 40 });
    expect(await contactsOf(list.id)).toHaveLength(0);

    expect(await runImportJob(app, id, { batchSize: 10 })).toBe('completed');
    expect(await summary(id)).toMatchObject({
      status: 'completed',
      importedRows: 95,
      duplicateRows: 1,
      processedRows: 96,
    });
    expect(await contactsOf(list.id)).toHaveLength(95);
    expect((await report(id)).slice(1)).toEqual([
      ['97', IMPORT_REASONS.duplicate(5), 'person3@example.com', 'Again'],
    ]);
  });

  it('starts over when the staging table lost its rows (server crash)', async () => {
    const list = await makeList(app, owner.user.id);
    const id = await queued(bigFile(50), list.id);
    const controller = new AbortController();
    await runImportJob(app, id, {
      batchSize: 10,
      signal: controller.signal,
      onBatch: () => controller.abort(),
    });
    await app.services.database.executeSql(`TRUNCATE ${stagingTable(id)}`);
    expect(await runImportJob(app, id, { batchSize: 10 })).toBe('completed');
    expect(await summary(id)).toMatchObject({ importedRows: 50, processedRows: 50, duplicateRows: 0 });
    expect(await contactsOf(list.id)).toHaveLength(50);
  });

  it("answers 404 for another user's import", async () => {
    const list = await makeList(app, owner.user.id);
    const id = await queued(bigFile(3), list.id);
    const stranger = await createUser(app);
    const requests = [
      { method: 'GET', url: `/api/imports/${id}` },
      { method: 'GET', url: `/api/imports/${id}/preview` },
      { method: 'GET', url: `/api/imports/${id}/report.csv` },
      { method: 'GET', url: `/api/imports/${id}/rejections` },
      { method: 'POST', url: `/api/imports/${id}/cancel` },
      {
        method: 'POST',
        url: `/api/imports/${id}/start`,
        payload: { mapping: { '0': 'email' }, hasHeader: true },
      },
      { method: 'POST', url: `/api/imports/${id}/inspect`, payload: {} },
    ] as const;
    for (const request of requests) {
      const response = await app.inject({ ...request, headers: { cookie: stranger.cookie } });
      expect(response.statusCode, request.url).toBe(404);
    }
    expect((await summary(id)).status).toBe('queued');
  });

  it('refuses an import that would pass the plan recipient limit, changing nothing', async () => {
    const free = await createUser(app);
    const list = await makeList(app, free.user.id);
    const uploaded = await uploadCsv(app, free.cookie, bigFile(501), { target: 'list', listId: list.id });
    const { importId, suggestedMapping } = uploaded.json<ImportUploadResult>();
    expect(
      (await start(importId, { mapping: suggestedMapping, hasHeader: true }, free.cookie)).statusCode,
    ).toBe(200);
    expect(await runImportJob(app, importId)).toBe('failed');
    const result = await summary(importId, free.cookie);
    expect(result.errorMessage).toMatch(/Free plan allows 500 recipients/);
    expect(await contactsOf(list.id)).toHaveLength(0);
  });

  it('fails whole when the list gained custom fields meanwhile and would pass the 20-field limit', async () => {
    const list = await makeList(app, owner.user.id);
    const uploaded = await uploadCsv(app, owner.cookie, 'email,notes\nada@example.com,Call back\n', {
      target: 'list',
      listId: list.id,
    });
    const { importId } = uploaded.json<ImportUploadResult>();
    const mapping = { '0': 'email', '1': 'custom:notes' };
    expect((await start(importId, { mapping, hasHeader: true })).statusCode).toBe(200);
    const fields = Array.from({ length: 20 }, (_, i) => `field_${i}`);
    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/lists/${list.id}`,
      headers: { cookie: owner.cookie },
      payload: { customFields: fields },
    });
    expect(patched.statusCode).toBe(200);
    expect(await runImportJob(app, importId)).toBe('failed');
    expect((await summary(importId)).errorMessage).toBe(IMPORT_MESSAGES.mappingTooManyCustom);
    expect(await contactsOf(list.id)).toHaveLength(0);
    const [after] = await app.services.db.select().from(contactLists).where(eq(contactLists.id, list.id));
    expect(after!.customFields).toEqual(fields);
  });

  it('refused by the plan recipient limit, takes away the new list it was to create', async () => {
    const free = await createUser(app);
    const name = `Too big ${Date.now()}`;
    const uploaded = await uploadCsv(app, free.cookie, bigFile(501), { target: 'list', newListName: name });
    const { importId, suggestedMapping } = uploaded.json<ImportUploadResult>();
    expect(
      (await start(importId, { mapping: suggestedMapping, hasHeader: true }, free.cookie)).statusCode,
    ).toBe(200);
    expect(await runImportJob(app, importId)).toBe('failed');
    expect((await summary(importId, free.cookie)).errorMessage).toMatch(/Free plan allows 500 recipients/);
    const left = await app.services.db
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(eq(contactLists.userId, free.user.id));
    expect(left).toHaveLength(0);
  });
});

describe('the database state', () => {
  it('keeps the rejected rows and nothing of the staging table after completion', async () => {
    const list = await makeList(app, owner.user.id);
    const { upload } = await importFile(app, owner.cookie, fixture('mixed.csv'), {
      target: 'list',
      listId: list.id,
    });
    const staging = await app.services.database.executeSql('SELECT to_regclass($1) AS t', [
      stagingTable(upload.importId),
    ]);
    expect(staging.rows[0]!.t).toBeNull();
    const [row] = await app.services.db
      .select()
      .from(imports)
      .where(and(eq(imports.id, upload.importId), eq(imports.userId, owner.user.id)));
    expect(row!.stagedRows).toBe(4);
  });

  it("takes an account's import reports with it, and only that account's", async () => {
    const leaving = await createUser(app, {
      plan: 'enterprise',
      status: 'active',
      periodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    const reportsOf = (userId: string) =>
      app.services.db.select().from(importRejections).where(eq(importRejections.userId, userId));
    const theirs = await makeList(app, leaving.user.id);
    const mine = await makeList(app, owner.user.id);
    await importFile(app, leaving.cookie, fixture('mixed.csv'), { target: 'list', listId: theirs.id });
    const { upload } = await importFile(app, owner.cookie, fixture('mixed.csv'), {
      target: 'list',
      listId: mine.id,
    });
    expect((await reportsOf(leaving.user.id)).length).toBe(4);
    const before = (await reportsOf(owner.user.id)).length;

    await app.services.db.delete(users).where(eq(users.id, leaving.user.id));

    expect(await reportsOf(leaving.user.id)).toEqual([]);
    expect((await reportsOf(owner.user.id)).length).toBe(before);
    expect((await report(upload.importId)).length).toBeGreaterThan(1);
  });
});
