import { randomUUID } from 'node:crypto';
import { campaignContacts, campaigns, newsletters, outboxMessages } from '@server/db/schema/index';
import { insertSendingNewsletter } from '@tests/factories/newsletters';
import { createUser } from '@tests/factories/users';
import { createTestApp } from '@tests/setup/test-app';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { finishNewsletterSends } from './newsletter-send.service';

/*
 * The end of a newsletter send: once every recipient is queued and nothing is queued or in flight, the
 * newsletter is 'sent', its engine campaign 'completed', and every contact still 'active' 'completed';
 * a contact that replied, bounced, unsubscribed or is paused keeps its status and its date. The contacts
 * are completed in batches (so no statement holds a million rows' locks), which must come to the same.
 */

let app: FastifyInstance;
const sharedDatabase = Boolean(inject('databaseUrl'));

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const EARLIER = new Date('2026-01-02T03:04:05.000Z');
const ENDED = ['replied', 'bounced', 'unsubscribed', 'paused'] as const;

/** A newsletter 'sending' whose audience is all queued: `active` active contacts and one of each ENDED. */
async function sendingNewsletter(userId: string, active: number, options: { queued?: boolean } = {}) {
  const db = app.services.db;
  const { campaignId, newsletterId } = await insertSendingNewsletter(app, userId, EARLIER);
  const rows = [
    ...Array.from({ length: active }, (_, i) => ({
      email: `Reader${i}@Example.com`,
      status: 'active' as const,
    })),
    ...ENDED.map((status) => ({ email: `${status}@example.com`, status })),
  ];
  const contacts = await db
    .insert(campaignContacts)
    .values(
      rows.map((r) => ({
        campaignId,
        userId,
        email: r.email,
        status: r.status,
        currentStep: 1,
        statusChangedAt: r.status === 'active' ? null : EARLIER,
        createdAt: EARLIER,
        updatedAt: EARLIER,
      })),
    )
    .returning({ id: campaignContacts.id });
  if (options.queued) {
    await db.insert(outboxMessages).values({
      token: randomUUID(),
      userId,
      campaignId,
      campaignContactId: contacts[0]!.id,
      toEmail: rows[0]!.email,
      subject: 'News',
      html: '<p>News</p>',
      state: 'queued',
    });
  }
  return { campaignId, newsletterId };
}

async function state(ids: { campaignId: string; newsletterId: string }) {
  const db = app.services.db;
  const [newsletter] = await db.select().from(newsletters).where(eq(newsletters.id, ids.newsletterId));
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, ids.campaignId));
  const contacts = await db
    .select()
    .from(campaignContacts)
    .where(eq(campaignContacts.campaignId, ids.campaignId))
    .orderBy(asc(campaignContacts.email));
  return { newsletter: newsletter!, campaign: campaign!, contacts };
}

/** The send's contacts in the finish's walk order (by email). */
function contactsByEmail(campaignId: string) {
  return app.services.db
    .select({ id: campaignContacts.id })
    .from(campaignContacts)
    .where(eq(campaignContacts.campaignId, campaignId))
    .orderBy(asc(campaignContacts.email));
}

describe('newsletters: the finish', () => {
  for (const contactBatch of [undefined, 3]) {
    it(`completes the active contacts, keeps the others (batch ${contactBatch ?? 'default'})`, async () => {
      const user = await createUser(app);
      const ids = await sendingNewsletter(user.user.id, 10);
      const other = await sendingNewsletter(user.user.id, 4, { queued: true });

      expect(await finishNewsletterSends({ db: app.services.db, contactBatch })).toBeGreaterThanOrEqual(1);

      const after = await state(ids);
      expect(after.newsletter.status).toBe('sent');
      expect(after.campaign.status).toBe('completed');
      expect(after.campaign.completedAt).not.toBeNull();
      const active = after.contacts.filter((c) => c.email.startsWith('Reader'));
      expect(active).toHaveLength(10);
      for (const c of active) {
        expect(c.status).toBe('completed');
        expect(c.statusChangedAt).toEqual(after.campaign.completedAt);
        expect(c.updatedAt).toEqual(after.campaign.completedAt);
      }
      for (const status of ENDED) {
        const c = after.contacts.find((x) => x.email === `${status}@example.com`)!;
        expect(c.status).toBe(status);
        expect(c.statusChangedAt).toEqual(EARLIER);
        expect(c.updatedAt).toEqual(EARLIER);
      }

      // A send with a message still queued is left as it is, contacts and all.
      const waiting = await state(other);
      expect(waiting.newsletter.status).toBe('sending');
      expect(waiting.campaign.status).toBe('active');
      expect(waiting.contacts.filter((c) => c.status === 'active')).toHaveLength(4);
      expect(waiting.contacts.every((c) => c.updatedAt.getTime() === EARLIER.getTime())).toBe(true);
    });
  }

  // Two connections at once: PostgreSQL only (a PGlite database has one).
  it.skipIf(!sharedDatabase)(
    'completes a contact that another transaction changes while the finish runs',
    async () => {
      const user = await createUser(app);
      const ids = await sendingNewsletter(user.user.id, 6);
      const db = app.services.db;
      const contacts = await contactsByEmail(ids.campaignId);
      // A writer (a reply's, an import's) holds two active contacts, changed but still active, while the
      // finish reads them; its commit gives them new row versions after the finish has read the old ones.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const lockedNow = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const writer = db.transaction(async (tx) => {
        for (const c of [contacts[1]!, contacts[4]!]) {
          await tx
            .update(campaignContacts)
            .set({ firstName: 'Changed' })
            .where(eq(campaignContacts.id, c.id));
        }
        locked();
        await held;
      });
      await lockedNow;
      const finishing = finishNewsletterSends({ db, contactBatch: 3 });
      await new Promise((r) => setTimeout(r, 300));
      release();
      await writer;
      await finishing;

      const after = await state(ids);
      expect(after.newsletter.status).toBe('sent');
      const readers = after.contacts.filter((c) => c.email.startsWith('Reader'));
      expect(readers.map((c) => c.status)).toEqual(Array(6).fill('completed'));
      expect(readers.filter((c) => c.firstName === 'Changed')).toHaveLength(2);
      for (const c of readers) expect(c.statusChangedAt).toEqual(after.campaign.completedAt);
    },
  );

  it('finishes a send whose contacts were partly completed by an interrupted run', async () => {
    const user = await createUser(app);
    const ids = await sendingNewsletter(user.user.id, 7);
    const db = app.services.db;
    // As a run that died after its first batch leaves it: some contacts completed, the newsletter not sent.
    const first = (await contactsByEmail(ids.campaignId)).slice(0, 3);
    for (const c of first) {
      await db
        .update(campaignContacts)
        .set({ status: 'completed', statusChangedAt: EARLIER })
        .where(eq(campaignContacts.id, c.id));
    }

    await finishNewsletterSends({ db, contactBatch: 2 });

    const after = await state(ids);
    expect(after.newsletter.status).toBe('sent');
    expect(after.contacts.filter((c) => c.status === 'active')).toHaveLength(0);
    expect(after.contacts.filter((c) => c.status === 'completed')).toHaveLength(7);
    // A second run finds nothing to do.
    const again = await finishNewsletterSends({ db, contactBatch: 2 });
    expect((await state(ids)).newsletter.updatedAt).toEqual(after.newsletter.updatedAt);
    expect(again).toBeGreaterThanOrEqual(0);
  });
});
