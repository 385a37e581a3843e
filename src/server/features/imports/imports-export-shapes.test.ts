import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contactLists, listContacts } from '@server/db/schema/index';
import {
  IMPORT_MESSAGES,
  IMPORT_REASONS,
  type ImportMapping,
  type ImportSummary,
  type ImportUploadResult,
} from '@shared/imports';
import { makeList, runImportJob, uploadCsv } from '@tests/factories/imports';
import { createUser, type TestUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { parse } from 'csv-parse/sync';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Real-world export shapes (tests/fixtures/imports/exports): each maps by name, with no custom field
// for a column that is empty, bookkeeping, or one a list cannot hold.

const EXPORTS = fileURLToPath(new URL('../../../../tests/fixtures/imports/exports/', import.meta.url));
const exportFile = (name: string) => readFileSync(path.join(EXPORTS, name));

let app: FastifyInstance;
let dataDir: string;
let owner: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-import-shapes-'));
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

async function upload(name: string, listId: string, cookie = owner.cookie): Promise<ImportUploadResult> {
  const response = await uploadCsv(app, cookie, exportFile(name), { target: 'list', listId }, name);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ImportUploadResult>();
}

async function startAndRun(
  result: ImportUploadResult,
  extra: { maxRows?: number } = {},
  cookie = owner.cookie,
): Promise<ImportSummary> {
  const started = await app.inject({
    method: 'POST',
    url: `/api/imports/${result.importId}/start`,
    headers: { cookie },
    payload: {
      mapping: result.suggestedMapping,
      hasHeader: result.hasHeader,
      ...(extra.maxRows ? { options: { maxRows: extra.maxRows } } : {}),
    },
  });
  expect(started.statusCode, started.body).toBe(200);
  expect(await runImportJob(app, result.importId)).toBe('completed');
  const summary = await app.inject({
    method: 'GET',
    url: `/api/imports/${result.importId}`,
    headers: { cookie },
  });
  return summary.json<ImportSummary>();
}

/** Built-in field → the header mapped to it. */
function fieldsOf(result: ImportUploadResult): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(result.suggestedMapping)) {
    if (value !== 'ignore' && !value.startsWith('custom:')) out[value] = result.columns[Number(key)]!.header;
  }
  return out;
}

function customOf(mapping: ImportMapping): string[] {
  return Object.values(mapping)
    .filter((v) => v.startsWith('custom:'))
    .map((v) => v.slice('custom:'.length));
}

async function contactsOf(listId: string) {
  return app.services.db
    .select()
    .from(listContacts)
    .where(eq(listContacts.listId, listId))
    .orderBy(asc(listContacts.id));
}

describe('the header row need not be the first line', () => {
  it("finds LinkedIn's header below its notes, so names, company and position map", async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('linkedin-connections.csv', list.id);
    expect(result.hasHeader).toBe(true);
    expect(result.headerLine).toBe(4);
    expect(result.firstLines?.[0]).toEqual({ line: 1, text: 'Notes:' });
    expect(result.columns.map((c) => c.header)).toEqual([
      'First Name',
      'Last Name',
      'URL',
      'Email Address',
      'Company',
      'Position',
      'Connected On',
    ]);
    expect(fieldsOf(result)).toEqual({
      first_name: 'First Name',
      last_name: 'Last Name',
      website: 'URL',
      email: 'Email Address',
      company: 'Company',
      job_title: 'Position',
    });
    expect(customOf(result.suggestedMapping)).toEqual(['connected_on']);
    const summary = await startAndRun(result);
    // Five connections, one of whom hides the address; the notes are no rows at all.
    expect(summary).toMatchObject({ processedRows: 5, importedRows: 4, invalidRows: 1 });
    const ada = (await contactsOf(list.id)).find((c) => c.email === 'ada.obi@obiholdings.example.com');
    expect(ada).toMatchObject({
      firstName: 'Ada',
      lastName: 'Obi',
      company: 'Obi Holdings',
      jobTitle: 'Chief Executive Officer',
    });
  });

  it('lets the user pick the header line, and refuses a line that is not there', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('linkedin-connections.csv', list.id);
    const picked = await app.inject({
      method: 'POST',
      url: `/api/imports/${result.importId}/inspect`,
      headers: { cookie: owner.cookie },
      payload: { headerLine: 1 },
    });
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json<ImportUploadResult>()).toMatchObject({ headerLine: 1, hasHeader: true });
    expect(picked.json<ImportUploadResult>().columns[0]!.header).toBe('Notes:');

    const back = await app.inject({
      method: 'POST',
      url: `/api/imports/${result.importId}/inspect`,
      headers: { cookie: owner.cookie },
      payload: { headerLine: 4 },
    });
    expect(back.json<ImportUploadResult>().headerLine).toBe(4);

    const missing = await app.inject({
      method: 'POST',
      url: `/api/imports/${result.importId}/inspect`,
      headers: { cookie: owner.cookie },
      payload: { headerLine: 3 },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(IMPORT_MESSAGES.headerLineMissing(3));

    const stranger = await createUser(app);
    const theirs = await app.inject({
      method: 'POST',
      url: `/api/imports/${result.importId}/inspect`,
      headers: { cookie: stranger.cookie },
      payload: { headerLine: 4 },
    });
    expect(theirs.statusCode).toBe(404);
  });
});

describe('known exports map by name', () => {
  it('Outlook (Windows-1252): Job Title rather than the empty Title, business city and country', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('outlook-windows-1252.csv', list.id);
    expect(result.encoding).toBe('windows-1252');
    expect(fieldsOf(result)).toMatchObject({
      email: 'E-mail Address',
      first_name: 'First Name',
      last_name: 'Last Name',
      company: 'Company',
      job_title: 'Job Title',
      city: 'Business City',
      country: 'Business Country/Region',
      phone: 'Business Phone',
      website: 'Web Page',
    });
    const custom = customOf(result.suggestedMapping);
    // Outlook's 92 columns: only the ones holding something; no "0/0/00" birthdays, no SMTP types.
    expect(custom).toEqual(['business_street', 'mobile_phone', 'categories', 'initials', 'notes']);
    const summary = await startAndRun(result);
    expect(summary.importedRows).toBe(4);
    const chloe = (await contactsOf(list.id)).find((c) => c.email === 'chloe.dubois@sgci.example.com');
    expect(chloe).toMatchObject({
      firstName: 'Chloé',
      jobTitle: 'Directrice financière',
      city: 'Abidjan',
      countryCode: 'CI',
    });
  });

  it('Google Contacts: "E-mail 1 - Value", "Phone 1 - Value", Organization Name and Title', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('google-contacts.csv', list.id);
    expect(fieldsOf(result)).toEqual({
      first_name: 'First Name',
      last_name: 'Last Name',
      company: 'Organization Name',
      job_title: 'Organization Title',
      email: 'E-mail 1 - Value',
      phone: 'Phone 1 - Value',
      city: 'Address 1 - City',
      country: 'Address 1 - Country',
      website: 'Website 1 - Value',
    });
    expect(customOf(result.suggestedMapping)).not.toContain('e_mail_1_label');
    expect(customOf(result.suggestedMapping)).not.toContain('labels');
    const summary = await startAndRun(result);
    expect(summary.importedRows).toBe(4);
    const ada = (await contactsOf(list.id)).find((c) => c.email === 'ada.obi@obiholdings.example.com');
    expect(ada).toMatchObject({ phone: '+234 803 111 2222', jobTitle: 'CEO', countryCode: 'NG' });
  });

  it('Mailchimp: Email Address, CC as the country, none of its opt-in bookkeeping', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('mailchimp-audience.csv', list.id);
    expect(fieldsOf(result)).toEqual({
      email: 'Email Address',
      first_name: 'First Name',
      last_name: 'Last Name',
      phone: 'Phone Number',
      company: 'Company',
      country: 'CC',
    });
    expect(customOf(result.suggestedMapping)).toEqual(['address', 'region', 'tags']);
    const summary = await startAndRun(result);
    expect(summary.importedRows).toBe(3);
    const kwame = (await contactsOf(list.id)).find((c) => c.email === 'kwame@accrafreight.example.com');
    expect(kwame?.countryCode).toBe('GH');
  });

  it('HubSpot: Company Name, Country/Region; record ids and owners are not custom fields', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('hubspot-contacts.csv', list.id);
    expect(fieldsOf(result)).toEqual({
      first_name: 'First Name',
      last_name: 'Last Name',
      email: 'Email',
      phone: 'Phone Number',
      company: 'Company Name',
      job_title: 'Job Title',
      city: 'City',
      country: 'Country/Region',
    });
    expect(customOf(result.suggestedMapping)).not.toContain('record_id');
    expect((await startAndRun(result)).importedRows).toBe(3);
  });

  it('Apollo: Title is the job title, First Phone the phone, within 20 custom fields', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('apollo-people.csv', list.id);
    expect(fieldsOf(result)).toEqual({
      first_name: 'First Name',
      last_name: 'Last Name',
      job_title: 'Title',
      company: 'Company',
      email: 'Email',
      phone: 'First Phone',
      website: 'Website',
      city: 'City',
      country: 'Country',
    });
    expect(customOf(result.suggestedMapping).length).toBeLessThanOrEqual(20);
    expect(customOf(result.suggestedMapping)).not.toContain('apollo_contact_id');
    expect((await startAndRun(result)).importedRows).toBe(3);
  });

  it('Zoho CRM: Account Name, Title, mailing city and country; Full Name beside the parts is left out', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('zoho-contacts.csv', list.id);
    expect(fieldsOf(result)).toEqual({
      first_name: 'First Name',
      last_name: 'Last Name',
      company: 'Account Name',
      email: 'Email',
      job_title: 'Title',
      phone: 'Phone',
      city: 'Mailing City',
      country: 'Mailing Country',
    });
    expect(customOf(result.suggestedMapping)).toEqual(['lead_source', 'salutation']);
    expect((await startAndRun(result)).importedRows).toBe(3);
  });

  it('Excel (BOM, semicolons, French headers): every column, and the empty row counted', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('excel-bom-semicolon.csv', list.id);
    expect(result.delimiter).toBe(';');
    expect(result.emptyRows).toBe(1);
    expect(fieldsOf(result)).toEqual({
      email: 'Adresse e-mail',
      first_name: 'Prénom',
      last_name: 'Nom',
      company: 'Société',
      job_title: 'Fonction',
      phone: 'Téléphone',
      city: 'Ville',
      country: 'Pays',
    });
    const summary = await startAndRun(result);
    expect(summary).toMatchObject({ importedRows: 3, processedRows: 3, emptyRows: 1 });
  });
});

describe('empty rows', () => {
  it('are counted between rows, not at the end, and survive a resumed import', async () => {
    const list = await makeList(app, owner.user.id);
    const text = 'Email,Name\na@example.com,Ada\n,\n\nb@example.com,Bola\n;\nc@example.com,Chidi\n\n\n';
    const uploaded = await uploadCsv(app, owner.cookie, text, { target: 'list', listId: list.id });
    const result = uploaded.json<ImportUploadResult>();
    // ",", a blank line and a lone ";" (one cell holding it) are rows of nothing but the ";".
    expect(result.emptyRows).toBe(2);
    const started = await app.inject({
      method: 'POST',
      url: `/api/imports/${result.importId}/start`,
      headers: { cookie: owner.cookie },
      payload: { mapping: result.suggestedMapping, hasHeader: true },
    });
    expect(started.statusCode).toBe(200);
    const controller = new AbortController();
    const first = await runImportJob(app, result.importId, {
      batchSize: 1,
      signal: controller.signal,
      onBatch: () => controller.abort(),
    });
    expect(first).toBe('interrupted');
    expect(await runImportJob(app, result.importId, { batchSize: 1 })).toBe('completed');
    const summary = await app.inject({
      method: 'GET',
      url: `/api/imports/${result.importId}`,
      headers: { cookie: owner.cookie },
    });
    expect(summary.json<ImportSummary>()).toMatchObject({
      importedRows: 3,
      processedRows: 4,
      invalidRows: 1,
      emptyRows: 2,
    });
  });
});

describe('re-importing our own export', () => {
  it('drops the formula-escape apostrophe and maps source and added_at to nothing', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('tambari-export.csv', list.id);
    expect(fieldsOf(result)).toEqual({
      email: 'email',
      first_name: 'first_name',
      last_name: 'last_name',
      company: 'company',
      job_title: 'job_title',
      phone: 'phone',
      website: 'website',
      city: 'city',
      country: 'country_code',
    });
    expect(customOf(result.suggestedMapping)).toEqual(['industry']);
    await startAndRun(result);
    const contacts = await contactsOf(list.id);
    expect(contacts.find((c) => c.email === 'ada.obi@obiholdings.example.com')).toMatchObject({
      phone: '+2348012345000',
      customFields: { industry: 'Finance' },
    });
    expect(contacts.find((c) => c.email === 'wanjiru@savannahtech.example.co.ke')?.company).toBe(
      '=Savannah Tech',
    );
  });
});

describe('custom field suggestions', () => {
  it("stay within the list's 20, its own fields included, so the suggestion is accepted", async () => {
    const list = await makeList(app, owner.user.id);
    const own = Array.from({ length: 18 }, (_, i) => `field_${i + 1}`);
    await app.services.db
      .update(contactLists)
      .set({ customFields: [...own, 'notes'] })
      .where(eq(contactLists.id, list.id));
    const result = await upload('outlook-windows-1252.csv', list.id);
    const custom = customOf(result.suggestedMapping);
    // One new field fits beside the list's 19; "notes" is the list's own and costs nothing.
    expect(custom).toEqual(['business_street', 'notes']);
    const summary = await startAndRun(result);
    expect(summary.importedRows).toBe(4);
    const [row] = await app.services.db.select().from(contactLists).where(eq(contactLists.id, list.id));
    expect(row!.customFields).toHaveLength(20);
  });

  it('are not offered for columns empty in every row', async () => {
    const list = await makeList(app, owner.user.id);
    const result = await upload('google-contacts.csv', list.id);
    const custom = customOf(result.suggestedMapping);
    for (const empty of ['middle_name', 'nickname', 'birthday', 'photo', 'address_1_po_box'])
      expect(custom).not.toContain(empty);
  });
});

describe("a file over the plan's recipient limit", () => {
  it('is flagged at the mapping step, and the first N can be imported', async () => {
    const user = await createUser(app, { plan: 'free' });
    const list = await makeList(app, user.user.id);
    const rows = Array.from({ length: 510 }, (_, i) => `person${i + 1}@example.com,Person ${i + 1}`);
    const uploaded = await uploadCsv(
      app,
      user.cookie,
      `Email,Name\n${rows.join('\n')}\n`,
      { target: 'list', listId: list.id },
      'big.csv',
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const result = uploaded.json<ImportUploadResult>();
    expect(result.estimatedRows).toBe(510);
    expect(result.capacity).toEqual({ limit: 500, used: 0, available: 500 });

    const summary = await startAndRun(result, { maxRows: 500 }, user.cookie);
    expect(summary).toMatchObject({ importedRows: 500, invalidRows: 10, options: { maxRows: 500 } });
    const report = await app.inject({
      method: 'GET',
      url: `/api/imports/${result.importId}/report.csv`,
      headers: { cookie: user.cookie },
    });
    const reportRows = parse(report.body, { bom: true, relax_column_count: true }) as string[][];
    expect(reportRows.filter((r) => r.includes(IMPORT_REASONS.overLimit))).toHaveLength(10);
  });

  it('has no flag on an unlimited plan', async () => {
    const list = await makeList(app, owner.user.id);
    expect((await upload('hubspot-contacts.csv', list.id)).capacity).toBeNull();
  });
});
