import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LIBRARY_TEMPLATES } from '@server/seed/templates/index';
import type { Newsletter } from '@shared/newsletters';
import { createSinkAccount } from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNewsletterPlaceholders } from './presend-check';

let app: FastifyInstance;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tambari-presend-'));

beforeAll(async () => {
  app = await createTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await app.close();
});

interface ChecksFailed {
  code: string;
  message: string;
  errors: { code: string; message: string; where: string }[];
}

async function setUp(user: TestUser) {
  const req = as(app, user.cookie);
  const account = await createSinkAccount(app, user.user.id, { fromName: 'Kano Foods' });
  const list = await req({
    method: 'POST',
    url: '/api/lists',
    payload: { name: `L ${randomUUID().slice(0, 6)}` },
  });
  const listId = list.json<{ id: string }>().id;
  const added = await req({
    method: 'POST',
    url: `/api/lists/${listId}/contacts`,
    payload: { email: `ada-${randomUUID().slice(0, 6)}@client.test`, firstName: 'Ada' },
  });
  expect(added.statusCode).toBe(201);
  return { req, targets: { listIds: [listId], senderAccountIds: [account.id] } };
}

const eventBlocks = [
  { id: 'h', type: 'heading', text: 'You’re invited', level: 1 },
  { id: 't', type: 'text', text: 'Join us on [Date] at [Venue].' },
  { id: 'b', type: 'button', label: 'Reserve my seat', href: 'https://www.example.com/register' },
  { id: 'f', type: 'footer', text: 'Kano Foods · 12 Bompai Road, Kano' },
];

describe('pre-send check of newsletters and bulk emails', () => {
  it('refuses to send or schedule a newsletter with placeholders, naming each block and placeholder', async () => {
    const user = await createUser(app);
    const { req, targets } = await setUp(user);
    const created = await req({
      method: 'POST',
      url: '/api/newsletters',
      payload: { kind: 'newsletter', name: 'Event', subject: 'Join us', blocks: eventBlocks },
    });
    const newsletter = created.json<Newsletter>();

    const sent = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/send`,
      payload: targets,
    });
    expect(sent.statusCode).toBe(422);
    const body = sent.json<ChecksFailed>();
    expect(body.code).toBe('unprocessable');
    expect(body.message).toBe(
      'Replace the placeholders before sending: Block 2 (Text): [Date] is a placeholder: replace it with the real text; Block 2 (Text): [Venue] is a placeholder: replace it with the real text (and 1 more)',
    );
    expect(body.errors.map((e) => e.message)).toEqual([
      'Block 2 (Text): [Date] is a placeholder: replace it with the real text',
      'Block 2 (Text): [Venue] is a placeholder: replace it with the real text',
      'Block 3 (Button): The link https://www.example.com/register is a placeholder: link to your own page or remove it',
    ]);

    const scheduled = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/schedule`,
      payload: { ...targets, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(scheduled.statusCode).toBe(422);
    const still = await req({ method: 'GET', url: `/api/newsletters/${newsletter.id}` });
    expect(still.json<Newsletter>().status).toBe('draft');

    // Another user's send of it is a 404, not the check.
    const stranger = await createUser(app);
    const theirs = await as(
      app,
      stranger.cookie,
    )({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/send`,
      payload: targets,
    });
    expect(theirs.statusCode).toBe(404);

    // Filled in, it goes.
    const fixed = eventBlocks.map((b) =>
      b.id === 't'
        ? { ...b, text: 'Join us on 4 March at the Bompai Hall.' }
        : b.id === 'b'
          ? { ...b, href: 'https://kanofoods.test/register' }
          : b,
    );
    const patched = await req({
      method: 'PATCH',
      url: `/api/newsletters/${newsletter.id}`,
      payload: { blocks: fixed },
    });
    expect(patched.statusCode).toBe(200);
    const resent = await req({
      method: 'POST',
      url: `/api/newsletters/${newsletter.id}/send`,
      payload: targets,
    });
    expect(resent.statusCode).toBe(200);
  });

  it('refuses a bulk email with an unknown merge tag or an edit-me marker', async () => {
    const user = await createUser(app);
    const { req, targets } = await setUp(user);
    const created = await req({
      method: 'POST',
      url: '/api/newsletters',
      payload: {
        kind: 'bulk',
        name: 'Promo',
        subject: 'News for {{ firstName | default: "you" }}',
        html: '<p>Hello {{ frstName }},</p><p>Our customers see [[edit: 42% average open rate]].</p>',
      },
    });
    const sent = await req({
      method: 'POST',
      url: `/api/newsletters/${created.json<Newsletter>().id}/send`,
      payload: targets,
    });
    expect(sent.statusCode).toBe(422);
    expect(sent.json<ChecksFailed>().errors.map((e) => e.message)).toEqual([
      'Body: [[edit: 42% average open rate]] is marked to edit: replace it with your own “42% average open rate”',
      'Body: {{ frstName }} is not a merge tag (did you mean {{ firstName }}?): it would be sent empty',
    ]);
  });

  it('sends a test anyway and answers what the real send would refuse', async () => {
    const user = await createUser(app);
    const { req, targets } = await setUp(user);
    const created = await req({
      method: 'POST',
      url: '/api/newsletters',
      payload: {
        kind: 'newsletter',
        name: 'Typo',
        subject: 'News',
        blocks: [{ id: 't', type: 'text', text: 'Hello {{ frstName }}, see you on [Date].' }],
      },
    });
    const tested = await req({
      method: 'POST',
      url: `/api/newsletters/${created.json<Newsletter>().id}/test-send`,
      payload: { senderAccountId: targets.senderAccountIds[0] },
    });
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json()).toEqual({
      ok: true,
      warnings: [
        'Block 1 (Text): [Date] is a placeholder: replace it with the real text',
        'Block 1 (Text): {{ frstName }} is not a merge tag (did you mean {{ firstName }}?): it would be sent empty',
      ],
    });
  });

  it('finds the placeholders of every shipped newsletter layout until they are edited', () => {
    const layouts = LIBRARY_TEMPLATES.filter((t) => t.kind === 'newsletter');
    expect(layouts.length).toBeGreaterThanOrEqual(6);
    for (const layout of layouts) {
      const issues = findNewsletterPlaceholders({
        kind: 'newsletter',
        subject: layout.subject,
        preheader: '',
        html: layout.bodyHtml,
        blocks: layout.blocks,
        knownFields: [],
      });
      // Only edit-me markers remain to be filled: no bracketed text, no example links.
      for (const issue of issues) expect(issue.message, layout.slug).toMatch(/marked to edit/);
    }
  });
});
