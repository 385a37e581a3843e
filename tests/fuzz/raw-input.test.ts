import { type FakePaystack, startFakePaystack } from '@server/features/payments/dev-paystack';
import { UNSTORABLE_TEXT_MESSAGE } from '@server/lib/input-hygiene';
import type { ImportUploadResult } from '@shared/imports';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeList, multipartBody, runImportJob, uploadCsv } from '../factories/imports';
import { postWebhook } from '../factories/payments';
import { createUser, type TestUser } from '../factories/users';
import { createTestApp } from '../setup/test-app';

/*
 * The bodies the JSON hook does not see — multipart fields, uploaded CSV text, the Paystack webhook's raw
 * bytes — answer bad text with a 4xx (or store it cleaned), never a 500.
 */
describe('NUL bytes and lone surrogates outside JSON bodies', () => {
  let app: FastifyInstance;
  let paystack: FakePaystack;
  let owner: TestUser;
  beforeAll(async () => {
    paystack = await startFakePaystack();
    app = await createTestApp({
      PAYSTACK_SECRET_KEY: paystack.secretKey,
      PAYSTACK_PUBLIC_KEY: paystack.publicKey,
      PAYSTACK_BASE_URL: paystack.url,
    });
    owner = await createUser(app);
  });
  afterAll(async () => {
    await app.close();
    await paystack.close();
  });

  it('refuses a NUL in a multipart text field with 400', async () => {
    const response = await uploadCsv(app, owner.cookie, 'email\nada@tambari.test\n', {
      target: 'list',
      newListName: 'Lagos\u0000 leads',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'bad_request', message: UNSTORABLE_TEXT_MESSAGE });
  });

  it('takes a file name with a NUL or a lone surrogate, keeping a readable name', async () => {
    const list = await makeList(app, owner.user.id);
    for (const name of ['a\u0000b.csv', 'a\ud800b.csv']) {
      const response = await uploadCsv(
        app,
        owner.cookie,
        'email\nada@tambari.test\n',
        { target: 'list', listId: list.id },
        name,
      );
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().import.fileName).toBe('a\ufffdb.csv');
    }
  });

  it('refuses a CSV holding NUL bytes as not a text file (400)', async () => {
    const list = await makeList(app, owner.user.id);
    const content = Buffer.from('email,first_name,company\nada@tambari.test,A\u0000da,Kola\u0000 Ltd\n');
    const response = await uploadCsv(app, owner.cookie, content, { target: 'list', listId: list.id });
    expect(response.statusCode, response.body).toBe(400);
  });

  it('imports a UTF-16 CSV holding a lone surrogate without a 500 or a failed job', async () => {
    const list = await makeList(app, owner.user.id);
    // UTF-16LE with a BOM; one first name holds an unpaired high surrogate (0xD800). Enough other rows
    // that one unreadable character does not make the file look binary.
    const others = Array.from({ length: 50 }, (_, i) => `person${i}@tambari.test,Person${i}\n`).join('');
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`email,first_name\n${others}bola@tambari.test,B`, 'utf16le'),
      Buffer.from([0x00, 0xd8]),
      Buffer.from('ola\n', 'utf16le'),
    ]);
    for (const content of [utf16]) {
      const uploaded = await uploadCsv(app, owner.cookie, content, { target: 'list', listId: list.id });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const upload = uploaded.json<ImportUploadResult>();
      const preview = await app.inject({
        method: 'GET',
        url: `/api/imports/${upload.importId}/preview`,
        headers: { cookie: owner.cookie },
      });
      expect(preview.statusCode, preview.body).toBeLessThan(500);
      const started = await app.inject({
        method: 'POST',
        url: `/api/imports/${upload.importId}/start`,
        headers: { cookie: owner.cookie },
        payload: { mapping: upload.suggestedMapping, hasHeader: upload.hasHeader },
      });
      expect(started.statusCode, started.body).toBeLessThan(500);
      const outcome = await runImportJob(app, upload.importId);
      expect(outcome).toBe('completed');
    }
    const contacts = await app.inject({
      method: 'GET',
      url: `/api/lists/${list.id}/contacts?q=person49`,
      headers: { cookie: owner.cookie },
    });
    // The other rows are in; the one with the unreadable character is reported as an encoding error.
    expect(contacts.json().items.map((c: { firstName: string | null }) => c.firstName)).toEqual(['Person49']);
  });

  it('imports a custom field cut at its length limit between the halves of an emoji', async () => {
    const list = await makeList(app, owner.user.id);
    const notes = `${'a'.repeat(999)}😀 and more`;
    const uploaded = await uploadCsv(app, owner.cookie, `email,notes\nemoji@tambari.test,${notes}\n`, {
      target: 'list',
      listId: list.id,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const upload = uploaded.json<ImportUploadResult>();
    const started = await app.inject({
      method: 'POST',
      url: `/api/imports/${upload.importId}/start`,
      headers: { cookie: owner.cookie },
      payload: { mapping: { '0': 'email', '1': 'custom:notes' }, hasHeader: true },
    });
    expect(started.statusCode, started.body).toBeLessThan(300);
    expect(await runImportJob(app, upload.importId)).toBe('completed');
    const contacts = await app.inject({
      method: 'GET',
      url: `/api/lists/${list.id}/contacts`,
      headers: { cookie: owner.cookie },
    });
    expect(contacts.json().items[0].customFields.notes).toBe('a'.repeat(999));
  });

  it('refuses an image upload whose field or file name holds a NUL without a 500', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const body = multipartBody(
      { 'al\u0000t': 'x\u0000' },
      { name: 'a\u0000.png', content: png, type: 'image/png' },
    );
    const response = await app.inject({
      method: 'POST',
      url: '/api/newsletters/images',
      payload: body.payload,
      headers: { ...body.headers, cookie: owner.cookie },
    });
    expect(response.statusCode, response.body).toBeLessThan(500);
  });

  it('answers a signed Paystack webhook holding a NUL or a lone surrogate with 400', async () => {
    for (const email of ['a\\u0000b@tambari.test', 'a\\ud800b@tambari.test']) {
      const body = `{"event":"charge.success","data":{"reference":"ref-${Date.now()}","customer":{"email":"${email}"}}}`;
      const response = await postWebhook(app, body, paystack.sign(body));
      expect(response.statusCode, response.body).toBe(400);
    }
  });
});
