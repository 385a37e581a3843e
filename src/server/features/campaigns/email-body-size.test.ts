import { createCampaignViaApi, stepBody } from '@tests/factories/campaigns';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Email bodies up to their stated limits (2 MB for campaign steps, newsletters, bulk emails and previews;
 * 512 KB for templates) reach validation: the app's request limit (BODY_LIMIT_BYTES, 256 KiB) refused
 * anything between with a bare "request body is too large", and the limit the forms state was never
 * the one applied. Past the limit the answer names it.
 */

let app: FastifyInstance;
let user: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  user = await createUser(app);
});
afterAll(async () => {
  await app.close();
});

const PARAGRAPH = '<p>Ìròyìn ọjà: ẹ̀gbẹ́ ọ̀nà, owó àti ọkọ̀ — 市场报告 “quoted” and \\ escaped</p>';

/** HTML of about `bytes` UTF-8 bytes, much of it in scripts that take two or three bytes a character. */
function bodyOf(bytes: number): string {
  let html = PARAGRAPH.repeat(Math.floor(bytes / Buffer.byteLength(PARAGRAPH)));
  while (Buffer.byteLength(html) < bytes) html += 'a';
  return html;
}

describe('email bodies up to their stated limit', () => {
  it('takes a 1.9 MB body (UTF-8 bytes; ~1 million characters) in a campaign step, a preview, a newsletter and a bulk email', async () => {
    const api = as(app, user.cookie);
    const html = bodyOf(1_900_000);
    const campaign = await createCampaignViaApi(app, user.cookie);
    const step = await api({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/steps`,
      payload: stepBody({ variants: [{ key: 'A', subject: 'Hi', bodyHtml: html, splitPercent: 100 }] }),
    });
    expect(step.statusCode, step.body.slice(0, 200)).toBe(201);

    const preview = await api({
      method: 'POST',
      url: '/api/personalize/preview',
      payload: { subject: 'Hi', html },
    });
    expect(preview.statusCode, preview.body.slice(0, 200)).toBe(200);

    const bulk = await api({
      method: 'POST',
      url: '/api/newsletters',
      payload: { kind: 'bulk', name: 'Big', subject: 'Report', html },
    });
    expect(bulk.statusCode, bulk.body.slice(0, 200)).toBe(201);
    const edited = await api({
      method: 'PATCH',
      url: `/api/newsletters/${bulk.json<{ id: string }>().id}`,
      payload: { html: `${html}<p>more</p>` },
    });
    expect(edited.statusCode, edited.body.slice(0, 200)).toBe(200);
  });

  it('names the limit past it, in bytes: 2 MB for email bodies, 512 KB for templates', async () => {
    const api = as(app, user.cookie);
    // Fewer than 2 MB characters, more than 2 MB as it would go out: refused when saved, not at sending.
    const wide = 'ọ'.repeat(1_100_000);
    const campaign = await createCampaignViaApi(app, user.cookie);
    const step = await api({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/steps`,
      payload: stepBody({ variants: [{ key: 'A', subject: 'Hi', bodyHtml: wide, splitPercent: 100 }] }),
    });
    expect(step.statusCode).toBe(400);
    expect(step.body).toContain('The email body is too large (max 2 MB)');
    const bulk = await api({
      method: 'POST',
      url: '/api/newsletters',
      payload: { kind: 'bulk', name: 'Too big', subject: 'Report', html: bodyOf(2 * 1024 * 1024 + 1) },
    });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.body).toContain('The email body is too large (max 2 MB)');

    const template = await api({
      method: 'POST',
      url: '/api/templates',
      payload: {
        category: 'cold-introduction',
        name: 'Big',
        subject: 'Hi',
        bodyHtml: bodyOf(512 * 1024 + 1),
      },
    });
    expect(template.statusCode).toBe(400);
    expect(template.body).toContain('The template body is too large (max 512 KB)');
    const fits = await api({
      method: 'POST',
      url: '/api/templates',
      payload: { category: 'cold-introduction', name: 'Fits', subject: 'Hi', bodyHtml: bodyOf(500 * 1024) },
    });
    expect(fits.statusCode, fits.body.slice(0, 200)).toBe(201);
  });

  it('reads a large body only from a signed-in user: without a session it is refused unread', async () => {
    const html = bodyOf(7 * 1024 * 1024);
    const routes = [
      ['POST', '/api/templates', { category: 'cold-introduction', name: 'x', subject: 'x', bodyHtml: html }],
      [
        'POST',
        '/api/admin/templates',
        { category: 'cold-introduction', name: 'x', subject: 'x', bodyHtml: html },
      ],
      ['POST', '/api/newsletters', { kind: 'bulk', name: 'x', html }],
      ['POST', '/api/personalize/preview', { html }],
    ] as const;
    for (const [method, url, payload] of routes) {
      const response = await app.inject({ method, url, payload });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 120)}`).toBe(401);
    }
    // A signed-in user who is not an admin is turned away from the admin's route before its body too.
    const admin = await as(
      app,
      user.cookie,
    )({ method: 'POST', url: '/api/admin/templates', payload: routes[1][2] });
    expect(admin.statusCode).toBe(403);
  });

  it('keeps the small limit everywhere else', async () => {
    const response = await as(
      app,
      user.cookie,
    )({
      method: 'POST',
      url: '/api/lists',
      payload: { name: 'x', description: bodyOf(300_000) },
    });
    expect(response.statusCode).toBe(413);
  });
});
