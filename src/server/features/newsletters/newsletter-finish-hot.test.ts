import type { Database } from '@server/db/client';
import { openDatabase } from '@server/db/client';
import { insertSendingNewsletter } from '@tests/factories/newsletters';
import { createUser } from '@tests/factories/users';
import { ownDatabase } from '@tests/setup/own-database';
import { createTestApp } from '@tests/setup/test-app';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishNewsletterSends } from './newsletter-send.service';

/*
 * The finish of a newsletter rewrites every recipient's row ('active' -> 'completed'). Those updates are
 * meant to be HOT (heap-only: the new version on the same page, no new index entries): no index or index
 * predicate mentions status, and the table's fillfactor leaves room on each page (migration 0072). At
 * 1,000,000 recipients that is a third of the PostgreSQL CPU and ~60 % of the WAL.
 *
 * Read from pg_stat_user_tables, so on PostgreSQL in a database of its own (the run's database is shared
 * with the files running meanwhile) and through one connection, whose counters are flushed before they
 * are read. PGlite keeps the same counters in its one backend.
 */

let app: FastifyInstance;
let dropDatabase: () => Promise<void> = async () => {};
let databaseUrl: string | undefined;

beforeAll(async () => {
  const own = await ownDatabase('finish_hot');
  dropDatabase = own.drop;
  databaseUrl = own.env.DATABASE_URL;
  app = await createTestApp(own.env);
});
afterAll(async () => {
  await app.close();
  await dropDatabase();
});

const RECIPIENTS = 3000;

async function contactUpdates(db: Database) {
  // A backend reports its counters at most once a second unless told to: the next report is forced.
  await db.execute(sql`SELECT pg_stat_force_next_flush()`);
  await db.execute(sql`SELECT 1`);
  await db.execute(sql`SELECT pg_stat_clear_snapshot()`);
  const result: unknown = await db.execute(sql`
    SELECT n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables
    WHERE relname = 'campaign_contacts'`);
  const [row] = (result as { rows: { upd: number; hot: number }[] }).rows;
  return row ?? { upd: 0, hot: 0 };
}

describe('newsletters: the finish writes HOT updates', () => {
  it('completes most recipients without new index entries', async () => {
    const user = await createUser(app);
    const userId = user.user.id;
    const db = app.services.db;
    const { campaignId } = await insertSendingNewsletter(app, userId, new Date());
    // As an imported list's recipients: names, a city, custom fields.
    await db.execute(sql`
      INSERT INTO campaign_contacts (campaign_id, user_id, email, first_name, last_name, company, city,
        country_code, time_zone, fields, current_step)
      SELECT ${campaignId}::uuid, ${userId}, 'Reader.' || g || '@example.com', 'First' || g, 'Last' || g,
        'Company ' || (g % 97), 'Lagos', 'NG', 'Africa/Lagos', jsonb_build_object('plan', 'gold'), 1
      FROM generate_series(1, ${RECIPIENTS}::int) g`);

    // One connection on PostgreSQL, so that one flush makes every update of the finish visible.
    const own = databaseUrl ? await openDatabase({ url: databaseUrl, poolSize: 1 }) : null;
    try {
      const finishDb = own ? own.db : db;
      const before = await contactUpdates(finishDb);
      expect(await finishNewsletterSends({ db: finishDb, contactBatch: 500 })).toBe(1);
      const after = await contactUpdates(finishDb);

      const updated = after.upd - before.upd;
      const hot = after.hot - before.hot;
      expect(updated).toBe(RECIPIENTS);
      expect(hot / updated).toBeGreaterThan(0.9);
    } finally {
      await own?.close();
    }
  });
});
