import { countUsersWithEmail, TEST_PASSWORD, uniqueEmail } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('malformed requests', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp({ BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => app.close());

  it('answers malformed JSON with 400 and a plain message, and creates nothing', async () => {
    const email = uniqueEmail('broken');
    const response = await app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"${email}","password":"${TEST_PASSWORD}","firstName":"Ada"`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'The request body is not valid JSON.' });
    expect(await countUsersWithEmail(app, email)).toBe(0);
  });

  it('answers an empty JSON body with 400 and a message', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toEqual(expect.any(String));
  });

  it('answers fields of the wrong type with 400 and a message', async () => {
    const email = uniqueEmail('types');
    const response = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email: 123, password: TEST_PASSWORD, firstName: 'Ada' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Please enter a valid email address');

    const other = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email, password: ['a', 'b'], firstName: { first: 'Ada' } },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toEqual(expect.any(String));
    expect(await countUsersWithEmail(app, email)).toBe(0);
  });

  it('answers a JSON array or null body with 400', async () => {
    for (const payload of ['[]', 'null', '"text"']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual(expect.any(String));
    }
  });

  it('refuses a body over the size limit with 413 and creates nothing', async () => {
    const email = uniqueEmail('huge');
    const response = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email, password: TEST_PASSWORD, firstName: 'Ada', lastName: 'x'.repeat(10 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toEqual(expect.any(String));
    expect(await countUsersWithEmail(app, email)).toBe(0);
  });

  it('refuses a text/plain body with a JSON error and creates nothing', async () => {
    const email = uniqueEmail('plain');
    const response = await app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ email, password: TEST_PASSWORD, firstName: 'Ada' }),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toBe('Send the request body as JSON.');
    expect(await countUsersWithEmail(app, email)).toBe(0);
  });

  it('refuses a form-encoded body with 415 and creates nothing', async () => {
    const email = uniqueEmail('form');
    const response = await app.inject({
      method: 'POST',
      url: '/api/register',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email, password: TEST_PASSWORD, firstName: 'Ada' }).toString(),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toEqual(expect.any(String));
    expect(await countUsersWithEmail(app, email)).toBe(0);
  });
});
