import { outboxMessages } from '@server/db/schema/index';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareQueuedBody } from './message-content';
import { resolveTrackingBaseUrl } from './message-envelope';
import { queueMessages } from './outbox.service';

/*
 * How a queued message's bodies are stored (migration *_outbox_body_lz4): every state change of the
 * message writes its row again, so the body must stay out of the row and the plain-text part compressed
 * in it; where the server has lz4 (PostgreSQL as we run it; not PGlite), both are lz4, which costs a
 * fraction of pglz's CPU to write and to read back.
 */

let app: FastifyInstance;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** A newsletter-sized body: ~7.5 KB of HTML, repetitive as real ones are, and its ~1.4 KB text part. */
function newsletterBody(): { html: string; text: string } {
  const paragraph = 'We supply fresh produce to restaurants across Lagos, Abuja and Kano. '.repeat(6);
  const html = `<html><body>${Array.from(
    { length: 14 },
    (_, i) =>
      `<p style="margin:0 0 16px;font-family:Arial,sans-serif">${paragraph} <a href="https://kanofoods.test/p/${i}">Offer ${i}</a></p>`,
  ).join('')}</body></html>`;
  const text = Array.from({ length: 3 }, () => paragraph).join('\n\n');
  return { html, text };
}

describe('a queued message as stored', () => {
  it('keeps the body out of the row and the text part compressed in it, lz4 where the server has it', async () => {
    const user = await createUser(app);
    const { campaign, contact } = await createCampaignWithMessage(app, { userId: user.user.id });
    const body = newsletterBody();
    expect(body.html.length).toBeGreaterThan(7000);
    const { ids } = await queueMessages({
      db: app.services.db,
      queue: null,
      appUrl: 'http://tambari.test',
      campaign,
      messages: [{ campaignContactId: contact.id, toEmail: contact.email, subject: 'News', ...body }],
    });
    const [stored] = rowsOf<{ html: string | null; text: string | null; text_size: number }>(
      await app.services.db.execute(sql`
        SELECT pg_column_compression(html) AS html, pg_column_compression(text) AS text,
          pg_column_size(text) AS text_size
        FROM outbox_messages WHERE id = ${ids[0]!}::uuid`),
    );
    const method = onPostgres ? 'lz4' : 'pglz';
    expect(stored).toMatchObject({ html: method, text: method });
    expect(stored!.text_size).toBeLessThan(body.text.length / 2);
    // Compressed or not, what is read back is what was queued.
    const [row] = await app.services.db
      .select({ text: outboxMessages.text })
      .from(outboxMessages)
      .where(eq(outboxMessages.id, ids[0]!));
    expect(row!.text).toContain('We supply fresh produce');
  });
});

describe('a queued batch', () => {
  it('gives every message its own body with its own token, shared bodies and one-off ones alike', async () => {
    const user = await createUser(app);
    const { campaign, contact } = await createCampaignWithMessage(app, { userId: user.user.id });
    // 300 distinct bodies (more than one call remembers, so the last ones are prepared one by one)
    // between copies of two shared ones, in one call of two chunks.
    const html = (i: number) =>
      `<p>Hello ${i}, see <a href="https://kanofoods.test/menu?i=${i}">the menu</a></p>`;
    const bodies = Array.from({ length: 700 }, (_, i) => (i % 2 === 0 ? html(i % 600) : html(-(i % 4))));
    const { ids } = await queueMessages({
      db: app.services.db,
      queue: null,
      appUrl: 'http://tambari.test',
      campaign,
      messages: bodies.map((body, i) => ({
        campaignContactId: contact.id,
        toEmail: contact.email,
        subject: `News ${i}`,
        html: body,
      })),
    });
    expect(ids).toHaveLength(700);
    const rows = await app.services.db.select().from(outboxMessages).where(inArray(outboxMessages.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const trackingBaseUrl = resolveTrackingBaseUrl({ appUrl: 'http://tambari.test', trackingDomain: null });
    ids.forEach((id, i) => {
      const row = byId.get(id)!;
      expect(row.subject).toBe(`News ${i}`);
      const alone = prepareQueuedBody({
        html: bodies[i]!,
        token: row.token,
        trackingBaseUrl,
        trackOpens: campaign.trackOpens,
        trackClicks: campaign.trackClicks,
        bodyFormat: campaign.bodyFormat,
        kind: campaign.kind,
      });
      expect({ html: row.html, text: row.text, links: row.links }).toEqual({
        html: alone.html,
        text: alone.text,
        links: alone.links,
      });
    });
    expect(new Set(rows.map((row) => row.token)).size).toBe(700);
  });
});
