import { createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('GET /api/health', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('reports the database and the job queue as ok', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok', queue: 'ok' });
  });

  it('answers 503 naming the failing part when the database is gone', async () => {
    const broken = await createTestApp();
    const original = broken.services.database.executeSql;
    broken.services.database.executeSql = async () => {
      throw new Error('connection refused');
    };
    const response = await broken.inject({ method: 'GET', url: '/api/health' });
    broken.services.database.executeSql = original;
    await broken.close();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ status: 'failing', database: 'failing' });
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/register', '/api/user']),
    );
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toContain('not found');
  });
});
