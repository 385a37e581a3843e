import { newsletters } from '@server/db/schema/index';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import { insertSendingNewsletter } from '@tests/factories/newsletters';
import { createUser } from '@tests/factories/users';
import { ownDatabase } from '@tests/setup/own-database';
import { createTestApp } from '@tests/setup/test-app';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { finishNewsletterSends } from './newsletter-send.service';

/*
 * The finish is asked for after every drain that sent something, by two worker processes, and by the
 * per-minute schedule: several runs reach the same finished send at once. Each used to walk all of its
 * contacts, queueing on the others' row locks batch after batch (newsletter-million at 1,000,000: 'sent'
 * ~77 s after the last message for ~5 s of walking). One run must walk a send; the others leave it.
 *
 * The walk's statements are counted by a statement-level trigger on campaign_contacts, so the same test
 * runs on PGlite (the runs interleave on its one connection) and on PostgreSQL (a pool: truly at once).
 * On PostgreSQL in a database of its own: the trigger and the finish of every 'sending' newsletter must
 * not touch the files running meanwhile.
 */

let app: FastifyInstance;
let dropDatabase: () => Promise<void> = async () => {};

beforeAll(async () => {
  const own = await ownDatabase('finish_claim');
  dropDatabase = own.drop;
  app = await createTestApp(own.env);
  const db = app.services.db;
  await db.execute(
    sql`CREATE TABLE test_contact_updates (at timestamptz NOT NULL DEFAULT clock_timestamp())`,
  );
  await db.execute(sql`
    CREATE FUNCTION test_count_contact_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_contact_updates DEFAULT VALUES; RETURN NULL; END $$`);
  await db.execute(sql`
    CREATE TRIGGER test_count_contact_update AFTER UPDATE ON campaign_contacts
      FOR EACH STATEMENT EXECUTE FUNCTION test_count_contact_update()`);
});
afterEach(() => {
  resetClock();
});
afterAll(async () => {
  await app.close();
  await dropDatabase();
});

const RECIPIENTS = 3000;
const BATCH = 100;

async function sendingNewsletterWith(recipients: number) {
  const user = await createUser(app);
  const userId = user.user.id;
  const ids = await insertSendingNewsletter(app, userId, new Date());
  await app.services.db.execute(sql`
    INSERT INTO campaign_contacts (campaign_id, user_id, email, current_step)
    SELECT ${ids.campaignId}::uuid, ${userId}, 'Reader.' || g || '@example.com', 1
    FROM generate_series(1, ${recipients}::int) g`);
  return ids;
}

async function countOf(query: ReturnType<typeof sql>) {
  const result: unknown = await app.services.db.execute(query);
  return (result as { rows: { n: number }[] }).rows[0]!.n;
}

const contactUpdates = () => countOf(sql`SELECT count(*)::int AS n FROM test_contact_updates`);

async function statusOf(newsletterId: string) {
  const [row] = await app.services.db
    .select({ status: newsletters.status })
    .from(newsletters)
    .where(eq(newsletters.id, newsletterId));
  return row!.status;
}

const activeContacts = (campaignId: string) =>
  countOf(sql`SELECT count(*)::int AS n FROM campaign_contacts
    WHERE campaign_id = ${campaignId}::uuid AND status = 'active'`);

describe('newsletters: one finisher per send', () => {
  it('three finishes at once: one walks the contacts, the send is marked once', async () => {
    const ids = await sendingNewsletterWith(RECIPIENTS);
    const db = app.services.db;
    const before = await contactUpdates();

    const results = await Promise.all(
      [1, 2, 3].map(() => finishNewsletterSends({ db, contactBatch: BATCH })),
    );

    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await statusOf(ids.newsletterId)).toBe('sent');
    expect(await activeContacts(ids.campaignId)).toBe(0);
    // One walk by ctid: a statement per full batch and the short one that ends it (no second walk by id:
    // nothing changed the contacts meanwhile). Three walkers made about three times as many.
    expect((await contactUpdates()) - before).toBe(Math.floor(RECIPIENTS / BATCH) + 1);
  });

  it('leaves a send another finisher holds, and takes over one whose finisher died', async () => {
    const db = app.services.db;
    const held = await sendingNewsletterWith(10);
    const abandoned = await sendingNewsletterWith(10);
    // A finisher at work (its lease runs for another minute) and one that died (its lease ran out).
    await db
      .update(newsletters)
      .set({ finishingUntil: new Date(now().getTime() + 60_000) })
      .where(eq(newsletters.id, held.newsletterId));
    await db
      .update(newsletters)
      .set({ finishingUntil: new Date(now().getTime() - 1_000) })
      .where(eq(newsletters.id, abandoned.newsletterId));

    expect(await finishNewsletterSends({ db })).toBe(1);

    expect(await statusOf(held.newsletterId)).toBe('sending');
    expect(await activeContacts(held.campaignId)).toBe(10);
    expect(await statusOf(abandoned.newsletterId)).toBe('sent');
    expect(await activeContacts(abandoned.campaignId)).toBe(0);
    const [released] = await db
      .select({ finishingUntil: newsletters.finishingUntil })
      .from(newsletters)
      .where(eq(newsletters.id, abandoned.newsletterId));
    expect(released!.finishingUntil).toBeNull();

    // Once the holder's lease has run out (it died too), the next run finishes that one as well.
    await db
      .update(newsletters)
      .set({ finishingUntil: new Date(now().getTime() - 1) })
      .where(eq(newsletters.id, held.newsletterId));
    expect(await finishNewsletterSends({ db })).toBe(1);
    expect(await statusOf(held.newsletterId)).toBe('sent');
  });

  it('a long walk keeps its lease; a run whose lease another took over stops walking', async () => {
    const db = app.services.db;
    const ids = await sendingNewsletterWith(20_000);
    const leaseOf = async () => {
      const [row] = await db
        .select({ until: newsletters.finishingUntil })
        .from(newsletters)
        .where(eq(newsletters.id, ids.newsletterId));
      return row!.until;
    };
    const before = await contactUpdates();
    const walked = () => contactUpdates().then((n) => n - before);
    const until = async (what: () => Promise<boolean>) => {
      for (let i = 0; i < 2000 && !(await what()); i++) await new Promise((r) => setTimeout(r, 5));
      expect(await what()).toBe(true);
    };

    const finishing = finishNewsletterSends({ db, contactBatch: 100 });
    await until(async () => (await walked()) >= 5);
    const first = (await leaseOf())!;
    // 40 s later by the clock: the next batch extends the lease.
    advanceClock(40_000);
    await until(async () => ((await leaseOf())?.getTime() ?? 0) > first.getTime());
    expect((await leaseOf())!.getTime()).toBeGreaterThanOrEqual(first.getTime() + 40_000);
    // Then another run takes the send over (as if this one's lease had run out) and 40 s more pass:
    // this run finds the lease no longer its own and stops, leaving the send to that run.
    const theirs = new Date(now().getTime() + 60_000);
    await db.update(newsletters).set({ finishingUntil: theirs }).where(eq(newsletters.id, ids.newsletterId));
    advanceClock(40_000);
    expect(await finishing).toBe(0);

    expect(await walked()).toBeLessThan(20_000 / 100);
    expect(await statusOf(ids.newsletterId)).toBe('sending');
    expect(await activeContacts(ids.campaignId)).toBeGreaterThan(0);
    expect((await leaseOf())!.getTime()).toBe(theirs.getTime());
  });
});
