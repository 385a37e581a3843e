import {
  countUsersWithEmail,
  createUser,
  TEST_PASSWORD,
  type TestUser,
  uniqueEmail,
} from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipText, findUnstorableText, toWellFormedText, UNSTORABLE_TEXT_MESSAGE } from './input-hygiene';

describe('findUnstorableText', () => {
  it('finds NUL and unpaired surrogates anywhere, keys included, and passes real text', () => {
    expect(findUnstorableText({ a: 'Olúwaseun 👋🏾', b: ['x', { c: 1 }], d: null })).toBeNull();
    expect(findUnstorableText({ a: 'a\u0000b' })).toBe('a');
    expect(findUnstorableText({ blocks: [{ text: 'ok' }, { text: 'a\ud800' }] })).toBe('blocks.1.text');
    expect(findUnstorableText(['\udc00x'])).toBe('0');
    expect(findUnstorableText({ custom: { 'bad\u0000key': 'v' } })).toBe('custom.bad\u0000key');
    expect(findUnstorableText('😀')).toBeNull();
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toMatch(/^0(\.0)*$/);
  });
});

describe('clipText and toWellFormedText', () => {
  it('never leaves half of a surrogate pair', () => {
    expect(clipText('ab😀', 3)).toBe('ab');
    expect(clipText('ab😀', 4)).toBe('ab😀');
    expect(clipText('abc', 2)).toBe('ab');
    expect(toWellFormedText('a\ud800b\udc00😀')).toBe('a\ufffdb\ufffd😀');
    expect(toWellFormedText('a\u0000b')).toBe('a\u0000b');
  });
});

describe('requests with text PostgreSQL cannot store', () => {
  let app: FastifyInstance;
  let owner: TestUser;
  beforeAll(async () => {
    app = await createTestApp();
    owner = await createUser(app);
  });
  afterAll(() => app.close());

  it('answers %00 in a public search with 400 and the error shape, not a 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/public/templates?q=a%00b' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: UNSTORABLE_TEXT_MESSAGE,
      code: 'bad_request',
      errors: [{ path: 'query.q', message: UNSTORABLE_TEXT_MESSAGE }],
    });
  });

  it('refuses a NUL in a JSON field and creates nothing', async () => {
    const email = uniqueEmail('nul');
    const response = await app.inject({
      method: 'POST',
      url: '/api/register',
      payload: { email, password: TEST_PASSWORD, firstName: 'Ada\u0000' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'bad_request', errors: [{ path: 'body.firstName' }] });
    expect(await countUsersWithEmail(app, email)).toBe(0);
  });

  it('refuses a lone surrogate in a JSONB field and a NUL in a key', async () => {
    const request = as(app, owner.cookie);
    const surrogate = await request({
      method: 'POST',
      url: '/api/newsletters',
      headers: { origin: 'http://localhost:3000' },
      payload: {
        kind: 'newsletter',
        name: 'News',
        subject: 'Hi',
        blocks: [{ id: 'b1', type: 'text', text: 'a\ud800b' }],
      },
    });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().errors[0].path).toBe('body.blocks.0.text');

    const list = await request({
      method: 'POST',
      url: '/api/lists',
      headers: { origin: 'http://localhost:3000' },
      payload: { name: 'Hygiene list' },
    });
    const key = await request({
      method: 'POST',
      url: `/api/lists/${list.json().id}/contacts`,
      headers: { origin: 'http://localhost:3000' },
      payload: { email: 'ada@tambari.test', customFields: { 'a\u0000b': 'x' } },
    });
    expect(key.statusCode).toBe(400);
    // The bad character is not echoed back.
    expect(key.body).not.toContain('\\u0000b');
  });

  it('refuses a NUL in a path parameter', async () => {
    const response = await as(
      app,
      owner.cookie,
    )({ method: 'DELETE', url: '/api/user/sessions/a%00b', headers: { origin: 'http://localhost:3000' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].path).toBe('params.id');
  });
});
