import { campaignContacts, outboxAll, outboxMessages } from '@server/db/schema/index';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareQueuedBody } from './message-content';
import { resolveTrackingBaseUrl } from './message-envelope';
import { queueMessages } from './outbox.service';
import { deleteUnusedSharedBodies, resolveSharedBodies, sharedBodyHtml } from './outbox-bodies';

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
    const rows = await app.services.db.select().from(outboxAll).where(inArray(outboxAll.id, ids));
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

describe("bodies shared by a campaign's messages", () => {
  const appUrl = 'http://tambari.test';
  const trackingBaseUrl = resolveTrackingBaseUrl({ appUrl, trackingDomain: null });

  /** A newsletter's copies: two bodies (by first name) used three times each, and one used once. */
  async function queueCopies(campaign: Awaited<ReturnType<typeof createCampaignWithMessage>>['campaign']) {
    const body = newsletterBody();
    const names = ['Ada', 'Bola', 'Ada', 'Bola', 'Ada', 'Bola', 'Chidi'];
    const contacts = await app.services.db
      .insert(campaignContacts)
      .values(
        names.map((name, i) => ({
          campaignId: campaign.id,
          userId: campaign.userId,
          email: `${name.toLowerCase()}-${i}-${Math.random().toString(36).slice(2)}@example.com`,
        })),
      )
      .returning();
    const inputs = names.map((name, i) => ({
      campaignContactId: contacts[i]!.id,
      toEmail: contacts[i]!.email,
      subject: 'News',
      html: body.html.replace('<body>', `<body><p>Hello ${name} &amp; co</p>`),
      text: i === 6 ? null : body.text,
    }));
    const { ids } = await queueMessages({
      db: app.services.db,
      queue: null,
      appUrl,
      campaign,
      messages: inputs,
    });
    return { ids, inputs, contacts };
  }

  /** What each message held when every row had its own copy: its body prepared alone with its token. */
  function preparedAlone(
    campaign: Awaited<ReturnType<typeof createCampaignWithMessage>>['campaign'],
    input: { html: string; text: string | null },
    token: string,
  ) {
    const alone = prepareQueuedBody({
      html: input.html,
      text: input.text,
      token,
      trackingBaseUrl,
      trackOpens: campaign.trackOpens,
      trackClicks: campaign.trackClicks,
      bodyFormat: campaign.bodyFormat,
      kind: campaign.kind,
    });
    return { html: alone.html, text: alone.text, links: alone.links };
  }

  it('stores a shared body once, and every reader sees each message byte for byte as before', async () => {
    const user = await createUser(app);
    const { campaign } = await createCampaignWithMessage(app, { userId: user.user.id });
    await app.services.db.execute(sql`UPDATE campaigns SET track_opens = true WHERE id = ${campaign.id}`);
    campaign.trackOpens = true;
    const { ids, inputs } = await queueCopies(campaign);
    // Two calls: the second finds the first one's bodies (stored with another stand-in).
    const second = await queueCopies(campaign);

    const bodies = rowsOf<{ n: number }>(
      await app.services.db.execute(
        sql`SELECT count(*)::int AS n FROM outbox_bodies WHERE campaign_id = ${campaign.id}::uuid`,
      ),
    );
    expect(bodies[0]!.n).toBe(2);
    const allIds = [...ids, ...second.ids];
    const allInputs = [...inputs, ...second.inputs];
    const stored = await app.services.db
      .select()
      .from(outboxMessages)
      .where(inArray(outboxMessages.id, allIds));
    const storedById = new Map(stored.map((row) => [row.id, row]));
    allIds.forEach((id, i) => {
      const row = storedById.get(id)!;
      // The copies name their body and hold none; the one-off keeps its own.
      if (i % 7 === 6) expect(row.bodyId).toBeNull();
      else
        expect({ bodyId: row.bodyId, html: row.html, text: row.text, links: row.links }).toEqual({
          bodyId: expect.any(String),
          html: null,
          text: null,
          links: null,
        });
    });

    // Read through outbox_all (the inbox thread, tracking, exports) and as the dispatcher reads them.
    const viewed = await app.services.db.select().from(outboxAll).where(inArray(outboxAll.id, allIds));
    const viewedById = new Map(viewed.map((row) => [row.id, row]));
    const claimed = await resolveSharedBodies(app.services.db, stored);
    const claimedById = new Map(claimed.map((row) => [row.id, row]));
    allIds.forEach((id, i) => {
      const token = storedById.get(id)!.token;
      const expected = preparedAlone(campaign, allInputs[i]!, token);
      expect(expected.html).toContain(token);
      const view = viewedById.get(id)!;
      expect({ html: view.html, text: view.text, links: view.links }).toEqual(expected);
      const read = claimedById.get(id)!;
      expect({ html: sharedBodyHtml(read), text: read.text, links: read.links }).toEqual(expected);
      // A copy's HTML is built only when asked for: the dispatcher composes it from its body's parts.
      if (i % 7 !== 6)
        expect({ html: read.html, body: read.sharedBody !== undefined }).toEqual({ html: null, body: true });
    });
  });

  it('deletes a shared body once no message names it, and only then', async () => {
    const user = await createUser(app);
    const { campaign } = await createCampaignWithMessage(app, { userId: user.user.id });
    const { ids, contacts } = await queueCopies(campaign);
    const named = async () =>
      rowsOf<{ id: string }>(
        await app.services.db.execute(
          sql`SELECT id FROM outbox_bodies WHERE campaign_id = ${campaign.id}::uuid ORDER BY id`,
        ),
      ).map((r) => r.id);
    expect(await named()).toHaveLength(2);
    expect(await deleteUnusedSharedBodies({ db: app.services.db, campaignIds: [campaign.id] })).toBe(0);
    // Every recipient of "Ada" leaves the campaign, with their messages.
    const adas = [0, 2, 4];
    const [adaBody] = rowsOf<{ body_id: string }>(
      await app.services.db.execute(sql`SELECT body_id FROM outbox_messages WHERE id = ${ids[0]!}::uuid`),
    );
    await app.services.db.delete(campaignContacts).where(
      inArray(
        campaignContacts.id,
        adas.map((i) => contacts[i]!.id),
      ),
    );
    expect(await deleteUnusedSharedBodies({ db: app.services.db, campaignIds: [campaign.id] })).toBe(1);
    const left = await named();
    expect(left).toHaveLength(1);
    expect(left).not.toContain(adaBody!.body_id);
    // The others still read as they were.
    const [bola] = await app.services.db.select().from(outboxAll).where(eq(outboxAll.id, ids[1]!));
    expect(bola!.html).toContain('Hello Bola');
    expect(bola!.html).toContain(bola!.token);
    // The campaign's deletion takes its bodies with it.
    await app.services.db.execute(sql`DELETE FROM campaigns WHERE id = ${campaign.id}::uuid`);
    expect(await named()).toEqual([]);
  });

  it('leaves a row whose body is missing without html, for the dispatcher to fail it alone', async () => {
    const row: { token: string; bodyId: string; html: string | null; text: string | null; links: unknown } = {
      token: 'tok',
      bodyId: '00000000-0000-4000-8000-000000000000',
      html: null,
      text: null,
      links: null,
    };
    const [read] = await resolveSharedBodies(app.services.db, [row]);
    expect(read!.html).toBeNull();
    expect(read!.sharedBody).toBeUndefined();
    expect(sharedBodyHtml(read!)).toBeNull();
  });
});
