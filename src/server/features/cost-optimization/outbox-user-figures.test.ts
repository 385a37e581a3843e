import { campaigns, orders, outboxMessages, users } from '@server/db/schema/index';
import { foldRollupSlots } from '@server/features/analytics/rollup-slots.service';
import { purgeExpiredOwnedItems } from '@server/features/recycle-bin/recycle-bin.service';
import { costOptimizationSchema } from '@shared/cost-optimization';
import {
  type CampaignRow,
  type ContactRow,
  seedCampaign,
  seedContact,
  seedMessage,
} from '@tests/factories/campaign-stats';
import { paidOrderRow } from '@tests/factories/payments';
import { createUser, type TestUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowStartDay } from './cost-optimization.service';

const DAY_MS = 86_400_000;

/*
 * The per-user outbox figures Cost Optimization reads (outbox_user_totals, outbox_user_daily) are kept by
 * triggers on outbox_messages. After each kind of write the outbox sees, they must equal the same figures
 * computed from outbox_messages itself.
 */
describe('per-user outbox figures', () => {
  let app: FastifyInstance;
  let admin: TestUser;
  let busy: TestUser;
  let small: TestUser;
  let idle: TestUser;
  let busyCampaign: CampaignRow;
  let smallCampaign: CampaignRow;
  const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
  const ours = () => [busy.user.id, small.user.id, idle.user.id];

  beforeAll(async () => {
    app = await createTestApp();
    const paid = {
      plan: 'professional' as const,
      status: 'active',
      periodEnd: new Date(Date.now() + 20 * DAY_MS),
    };
    admin = await createUser(app, { role: 'super_admin' });
    busy = await createUser(app, paid);
    small = await createUser(app, paid);
    idle = await createUser(app, paid);
    // The idle list shows the best payers first, at most COST_USERS_LIMIT of them: on a database other tests
    // share, a large payment keeps ours on it.
    await app.services.db.insert(orders).values(paidOrderRow(idle.user.id, 2_000_000_000));
    busyCampaign = (await seedCampaign(app.services.db, busy.user.id)).campaign;
    smallCampaign = (await seedCampaign(app.services.db, small.user.id)).campaign;
  });
  afterAll(() => app.close());

  /** Kept figures and direct figures for our users, as comparable text (microseconds for times). */
  async function figures() {
    const db = app.services.db;
    const ids = sql.join(
      ours().map((id) => sql`${id}`),
      sql`, `,
    );
    const kept = {
      totals: rowsOf<Record<string, unknown>>(
        await db.execute(sql`SELECT user_id, messages::text AS n FROM outbox_user_totals
          WHERE user_id IN (${ids}) ORDER BY 1`),
      ),
      daily: rowsOf<Record<string, unknown>>(
        await db.execute(sql`SELECT user_id, day::text AS day, sum(sent)::text AS n,
          (extract(epoch FROM max(last_sent_at)) * 1000000)::bigint::text AS last
          FROM outbox_user_daily WHERE user_id IN (${ids}) GROUP BY 1, 2 ORDER BY 1, 2`),
      ),
    };
    const direct = {
      totals: rowsOf<Record<string, unknown>>(
        await db.execute(sql`SELECT user_id, count(*)::text AS n FROM outbox_messages
          WHERE user_id IN (${ids}) GROUP BY 1 ORDER BY 1`),
      ),
      daily: rowsOf<Record<string, unknown>>(
        await db.execute(sql`SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date::text AS day, count(*)::text AS n,
          (extract(epoch FROM max(sent_at)) * 1000000)::bigint::text AS last
          FROM outbox_messages WHERE user_id IN (${ids}) AND sent_at IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`),
      ),
    };
    return { kept, direct };
  }

  async function expectKeptEqualsDirect() {
    const { kept, direct } = await figures();
    expect(kept).toEqual(direct);
    return direct;
  }

  /** Messages written in one statement, as the bench and imports do: some with a send time in the past. */
  async function insertMessages(campaign: CampaignRow, rows: { state: 'queued' | 'sent'; sentAt?: Date }[]) {
    const contacts: ContactRow[] = [];
    for (const [i] of rows.entries())
      contacts.push(
        await seedContact(app.services.db, campaign, { email: `r${i}-${Date.now()}@example.com` }),
      );
    return app.services.db
      .insert(outboxMessages)
      .values(
        rows.map((r, i) => ({
          token: `t-${campaign.id}-${i}-${Date.now()}`,
          userId: campaign.userId,
          campaignId: campaign.id,
          campaignContactId: contacts[i]!.id,
          toEmail: contacts[i]!.email,
          subject: 'Hello',
          html: '<p>Hello</p>',
          state: r.state,
          sendAfter: new Date(),
          sentAt: r.sentAt ?? null,
        })),
      )
      .returning();
  }

  it('match the outbox after inserts, sends, bounces, re-stamps, deletions, purges and a deleted user', async () => {
    const db = app.services.db;
    await expectKeptEqualsDirect();

    // Inserted: queued, sent today (one row a statement) and sent days ago (many rows in one statement).
    const queued = [];
    for (let i = 0; i < 5; i++) {
      const contact = await seedContact(db, busyCampaign, { email: `q${i}@example.com` });
      queued.push(await seedMessage(db, busyCampaign, contact, { state: 'queued' }));
    }
    const contact = await seedContact(db, smallCampaign, { email: 'today@example.com' });
    await seedMessage(db, smallCampaign, contact, { state: 'sent' });
    const old = await insertMessages(busyCampaign, [
      { state: 'sent', sentAt: new Date(Date.now() - 40 * DAY_MS) },
      { state: 'sent', sentAt: new Date(Date.now() - 10 * DAY_MS) },
      { state: 'sent', sentAt: new Date(Date.now() - 10 * DAY_MS - 60_000) },
      { state: 'queued' },
    ]);
    const idleCampaign = (await seedCampaign(db, idle.user.id)).campaign;
    const [idleSent] = await insertMessages(idleCampaign, [
      { state: 'sent', sentAt: new Date(Date.now() - 45 * DAY_MS) },
    ]);
    let direct = await expectKeptEqualsDirect();
    expect(direct.totals.find((t) => t.user_id === busy.user.id)?.n).toBe('9');

    // Leased, then sent in one batch statement the way the dispatcher marks a batch, then one bounces.
    const batch = queued.slice(0, 3).map((m) => m.id);
    await db.update(outboxMessages).set({ state: 'sending' }).where(inArray(outboxMessages.id, batch));
    await expectKeptEqualsDirect();
    const values = sql.join(
      batch.map((id) => sql`(${id}::uuid, ${'250 OK'}::text)`),
      sql`, `,
    );
    await db.execute(sql`UPDATE outbox_messages AS o SET state = 'sent', sent_at = now(), smtp_response = v.response
      FROM (VALUES ${values}) AS v(id, response) WHERE o.id = v.id`);
    await expectKeptEqualsDirect();
    await db
      .update(outboxMessages)
      .set({ state: 'bounced', sentAt: new Date() })
      .where(eq(outboxMessages.id, queued[3]!.id));
    await expectKeptEqualsDirect();

    // A send time moved to another day, then set back to none: its old day loses it, its last send is re-read.
    await db
      .update(outboxMessages)
      .set({ sentAt: new Date(Date.now() - 3 * DAY_MS) })
      .where(eq(outboxMessages.id, queued[3]!.id));
    await expectKeptEqualsDirect();
    await db
      .update(outboxMessages)
      .set({ sentAt: null, state: 'queued' })
      .where(eq(outboxMessages.id, old[1]!.id));
    await expectKeptEqualsDirect();

    // The screen reads these figures: its counts for the busy user and the idle user's last send agree.
    const response = await as(
      app,
      admin.cookie,
    )({ method: 'GET', url: `/api/admin/cost-optimization?user=${encodeURIComponent(busy.email)}` });
    const screen = costOptimizationSchema.parse(response.json());
    const sinceDay = windowStartDay(new Date());
    direct = await expectKeptEqualsDirect();
    const busySent = direct.daily
      .filter((d) => d.user_id === busy.user.id && String(d.day) >= sinceDay)
      .reduce((sum, d) => sum + Number(d.n), 0);
    expect(screen.users[0]).toMatchObject({ userId: busy.user.id, outboxMessages: 9, sent30d: busySent });
    expect(busySent).toBe(5);
    expect(screen.idlePaidAccounts.find((a) => a.userId === idle.user.id)?.lastSentAt).toBe(
      idleSent!.sentAt!.toISOString(),
    );
    expect(screen.idlePaidAccounts.some((a) => a.userId === busy.user.id)).toBe(false);

    // A sent message moved to another owner's campaign (campaign and owner together, as the key demands),
    // then one statement over two sent rows that moves the send time of only one of them.
    await db
      .update(outboxMessages)
      .set({ campaignId: idleCampaign.id, userId: idle.user.id })
      .where(eq(outboxMessages.id, batch[0]!));
    await expectKeptEqualsDirect();
    await db.execute(sql`UPDATE outbox_messages
      SET sent_at = CASE WHEN id = ${batch[1]!}::uuid THEN now() - interval '2 days' ELSE sent_at END,
          smtp_response = '250 again'
      WHERE id IN (${batch[1]!}::uuid, ${old[0]!.id}::uuid)`);
    await expectKeptEqualsDirect();

    // Deleted: the last send of a day (its day's last send is read again), then a whole day's sends.
    await db.delete(outboxMessages).where(eq(outboxMessages.id, batch[2]!));
    await expectKeptEqualsDirect();
    await db.delete(outboxMessages).where(eq(outboxMessages.id, old[2]!.id));
    await expectKeptEqualsDirect();

    // The recycle bin's purge deletes a campaign for good, its messages with it.
    await db
      .update(campaigns)
      .set({ deletedAt: new Date(Date.now() - 31 * DAY_MS) })
      .where(eq(campaigns.id, smallCampaign.id));
    const purged = await purgeExpiredOwnedItems({ db });
    expect(purged.campaigns).toBeGreaterThanOrEqual(1);
    direct = await expectKeptEqualsDirect();
    expect(direct.totals.some((t) => t.user_id === small.user.id)).toBe(false);

    // A deleted user's messages go with the account, and so do their figures.
    await db.delete(users).where(eq(users.id, busy.user.id));
    direct = await expectKeptEqualsDirect();
    expect(direct.totals.map((t) => t.user_id)).toEqual([idle.user.id]);
  });

  // The dispatcher's two workers mark batches of one user sent on the same day: neither may wait for the
  // other's commit on that user's day (one slot per backend). PGlite has one connection: nothing to race.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "let two writers mark one user's messages sent on the same day, neither waiting for the other",
    async () => {
      const db = app.services.db;
      const [first, second, third, fourth] = await insertMessages(
        (await seedCampaign(db, small.user.id)).campaign,
        [{ state: 'queued' }, { state: 'queued' }, { state: 'queued' }, { state: 'queued' }],
      );
      const markSent = (id: string) =>
        sql`UPDATE outbox_messages SET state = 'sent', sent_at = now() WHERE id = ${id}`;
      await db.transaction(async (holder) => {
        await holder.execute(markSent(first!.id));
        // A second connection while the first transaction is still open.
        await db.transaction(async (other) => {
          await other.execute(sql`set local lock_timeout = '3s'`);
          await other.execute(markSent(second!.id));
        });
      });
      await db.execute(markSent(third!.id));
      await expectKeptEqualsDirect();
      const slots = async () =>
        rowsOf<{ n: number }>(
          await db.execute(sql`SELECT count(*)::int AS n FROM outbox_user_daily
            WHERE user_id = ${small.user.id} AND day = (now() AT TIME ZONE 'UTC')::date`),
        )[0]!.n;
      expect(await slots()).toBeGreaterThan(1);

      // Taking a send away folds the day's slots into one row, and the figures still match.
      await db
        .update(outboxMessages)
        .set({ sentAt: null, state: 'queued' })
        .where(eq(outboxMessages.id, third!.id));
      await expectKeptEqualsDirect();
      expect(await slots()).toBe(1);

      // Sent again by two writers, then folded as a newsletter's finish does: one row a day, same figures.
      await db.transaction(async (holder) => {
        await holder.execute(markSent(third!.id));
        await db.transaction(async (other) => {
          await other.execute(sql`set local lock_timeout = '3s'`);
          await other.execute(markSent(fourth!.id));
        });
      });
      await db.execute(sql`SELECT outbox_user_daily_fold(${small.user.id})`);
      await expectKeptEqualsDirect();
      const [spread] = rowsOf<{ n: number }>(
        await db.execute(sql`SELECT count(*)::int - count(DISTINCT day)::int AS n FROM outbox_user_daily
          WHERE user_id = ${small.user.id}`),
      );
      expect(spread?.n).toBe(0);
    },
  );

  // Sequence campaigns never reach a newsletter's finish, which folds its user's slots: the hourly job
  // folds every user's, so the tables keep about one row a key whatever sends.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "are folded back to one row a day by the hourly job (fold-rollup-slots), for every user's sends",
    async () => {
      const db = app.services.db;
      const [first, second] = await insertMessages((await seedCampaign(db, small.user.id)).campaign, [
        { state: 'queued' },
        { state: 'queued' },
      ]);
      const markSent = (id: string) =>
        sql`UPDATE outbox_messages SET state = 'sent', sent_at = now() WHERE id = ${id}`;
      await db.transaction(async (holder) => {
        await holder.execute(markSent(first!.id));
        await db.transaction(async (other) => {
          await other.execute(markSent(second!.id));
        });
      });
      const extraRows = async () =>
        rowsOf<{ n: number }>(
          await db.execute(sql`SELECT
            (SELECT count(*) FROM outbox_user_daily WHERE user_id = ${small.user.id} AND slot <> 0)
            + (SELECT count(*) FROM analytics_user_daily WHERE user_id = ${small.user.id} AND slot <> 0)
            + (SELECT count(*) FROM analytics_daily WHERE user_id = ${small.user.id} AND slot <> 0)
            + (SELECT count(*) FROM analytics_weekly WHERE user_id = ${small.user.id} AND slot <> 0) AS n`),
        )[0]!.n;
      expect(Number(await extraRows())).toBeGreaterThan(0);
      const before = await expectKeptEqualsDirect();
      await foldRollupSlots({ db });
      expect(Number(await extraRows())).toBe(0);
      expect(await expectKeptEqualsDirect()).toEqual(before);
    },
  );

  it('are rebuilt from the outbox to the same figures', async () => {
    const before = await figures();
    await app.services.db.execute(sql`SELECT outbox_user_figures_rebuild()`);
    const after = await figures();
    expect(after.kept).toEqual(before.kept);
    expect(after.kept).toEqual(after.direct);
  });
});
