import { RUNBOOK_SLUGS, runbookSchema, runbookSummarySchema } from '@shared/documentation';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from './documentation.service';

describe('documentation API', () => {
  let app: FastifyInstance;
  let admin: TestUser;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await createUser(app, { role: 'super_admin' });
  });
  afterAll(() => app.close());

  it('answers 401 signed out and 403 to a user and a data entry officer', async () => {
    const user = await createUser(app);
    const dataEntry = await createUser(app, { role: 'data_entry' });
    for (const url of ['/api/admin/documentation', '/api/admin/documentation/deploy']) {
      expect((await app.inject({ url })).statusCode).toBe(401);
      for (const who of [user, dataEntry]) expect((await as(app, who.cookie)({ url })).statusCode).toBe(403);
    }
  });

  it('lists the seven runbooks with their titles and first paragraph', async () => {
    const response = await as(app, admin.cookie)({ url: '/api/admin/documentation' });
    expect(response.statusCode).toBe(200);
    const list = runbookSummarySchema.array().parse(response.json());
    expect(list.map((r) => r.slug)).toEqual([...RUNBOOK_SLUGS]);
    expect(list.find((r) => r.slug === 'refund')?.title).toBe('Refund a payment');
    for (const runbook of list) expect(runbook.summary.length).toBeGreaterThan(20);
  });

  it('renders one runbook as HTML with anchored headings and a table of contents', async () => {
    const response = await as(app, admin.cookie)({ url: '/api/admin/documentation/rotate-keys' });
    expect(response.statusCode).toBe(200);
    const runbook = runbookSchema.parse(response.json());
    expect(runbook.title).toBe('Rotate keys');
    expect(runbook.toc.map((entry) => entry.text)).toContain('ENCRYPTION_KEY (stored mailbox passwords)');
    for (const entry of runbook.toc) expect(runbook.html).toContain(`id="${entry.id}"`);
    expect(runbook.html).toContain('<code>ENCRYPTION_KEYS_PREVIOUS</code>');
  });

  it('answers 400 for a runbook that does not exist, without reading the disk', async () => {
    const response = await as(app, admin.cookie)({ url: '/api/admin/documentation/..%2F..%2Fpackage' });
    expect(response.statusCode).toBe(400);
  });
});

describe('renderMarkdown', () => {
  it('strips scripts, event handlers and javascript: links', () => {
    const { html } = renderMarkdown(
      '# T\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[x](javascript:alert(1)) [ok](https://example.com)',
    );
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
    expect(html).toContain('href="https://example.com"');
  });

  it('gives repeated headings distinct anchors', () => {
    const { toc } = renderMarkdown('# Doc\n\n## Steps\n\n## Steps\n');
    expect(toc.map((entry) => entry.id)).toEqual(['steps', 'steps-2']);
  });
});
