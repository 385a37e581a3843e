import { campaignContacts, outboxMessages } from '@server/db/schema/index';
import { createCampaignWithMessage } from '@tests/factories/sending';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueMessages } from './outbox.service';

/*
 * The keys a newsletter writes at every step of every message start with the time (migration
 * 0071_time_ordered_keys, lib/time-ordered-id.ts): outbox and recipient ids, tracking tokens. Rows
 * queued together then sit together in each index, so a million-message send writes to a few index
 * pages at a time instead of a random page of each index per row version (bench/newsletter-million).
 */

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('time-ordered keys', () => {
  it('gives recipients and outbox rows added later larger ids', async () => {
    const user = await createUser(app);
    const { campaign } = await createCampaignWithMessage(app, { userId: user.user.id });
    const { db } = app.services;
    const addRecipients = async (from: number) =>
      db
        .insert(campaignContacts)
        .values(
          Array.from({ length: 20 }, (_, i) => ({
            campaignId: campaign.id,
            userId: user.user.id,
            email: `reader${from + i}@example.com`,
          })),
        )
        .returning({ id: campaignContacts.id, email: campaignContacts.email });
    const queue = async (contacts: { id: string; email: string }[]) =>
      (
        await queueMessages({
          db,
          queue: null,
          appUrl: 'http://tambari.test',
          campaign,
          messages: contacts.map((c) => ({
            campaignContactId: c.id,
            toEmail: c.email,
            subject: 'News',
            html: '<p>Hello</p>',
          })),
        })
      ).ids;
    const firstContacts = await addRecipients(0);
    const firstMessages = await queue(firstContacts);
    await pause(5);
    const laterContacts = await addRecipients(100);
    const laterMessages = await queue(laterContacts);

    const maxOf = (ids: string[]) => [...ids].sort().at(-1)!;
    const minOf = (ids: string[]) => [...ids].sort()[0]!;
    const contactIds = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(maxOf(contactIds(firstContacts)) < minOf(contactIds(laterContacts))).toBe(true);
    expect(maxOf(firstMessages) < minOf(laterMessages)).toBe(true);
    for (const id of [...firstMessages, ...contactIds(firstContacts)]) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('gives the messages queued in the same second tokens that share their start, and random ends', async () => {
    const user = await createUser(app);
    const { campaign, contact } = await createCampaignWithMessage(app, { userId: user.user.id });
    const { ids } = await queueMessages({
      db: app.services.db,
      queue: null,
      appUrl: 'http://tambari.test',
      campaign,
      messages: Array.from({ length: 50 }, () => ({
        campaignContactId: contact.id,
        toEmail: contact.email,
        subject: 'News',
        html: '<p>Hello</p>',
      })),
    });
    const rows = await app.services.db
      .select({ token: outboxMessages.token })
      .from(outboxMessages)
      .where(inArray(outboxMessages.id, ids));
    const tokens = rows.map((r) => r.token);
    expect(new Set(tokens).size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{27}$/);
    // Four bytes of seconds: the first five characters (30 bits) are the same within a second (a call
    // queued across a second's turn may differ there; this one is 50 messages).
    const starts = new Set(tokens.map((t) => t.slice(0, 5)));
    expect(starts.size).toBeLessThanOrEqual(2);
    // 128 random bits after the prefix: the tails all differ in most places.
    const tails = new Set(tokens.map((t) => t.slice(-16)));
    expect(tails.size).toBe(50);
  });
});
