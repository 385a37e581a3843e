import type { Database } from '@server/db/client';
import { campaignContacts, campaigns, outboxMessages } from '@server/db/schema';
import { pauseCampaign, resumeCampaign } from '@server/features/campaigns/campaigns.service';
import { now } from '@server/lib/clock';
import {
  type CampaignRow,
  createSendingCampaign,
  createSinkAccount,
  dispatchContext,
  queueForContacts,
} from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { createTestApp } from '@tests/setup/test-app';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pickDueMessages } from './claim-batch';
import { type DispatchContext, drainOutbox, nextDueAt } from './dispatch';
import { releaseStrayHolds } from './outbox-recovery';

/*
 * A paused campaign's queued messages must cost the dispatcher nothing while they wait: one tenant's
 * paused send (up to a million messages, all due) must not slow the claims that serve every other
 * tenant. Measured from the claim's own plan (EXPLAIN ANALYZE): the outbox rows its walk reads and the
 * campaign lookups it makes, against a paused campaign of PAUSED_ROWS due messages queued before the
 * other tenant's.
 */

const PAUSED_ROWS = Number(process.env.PAUSED_ROWS ?? 3_000);
const BATCH = 100;

let app: FastifyInstance;
let sink: SmtpSink;
const dialect = new PgDialect();

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
  await app.close();
});

/** `count` due messages for one contact of the campaign, queued an hour ago (before anything else). */
async function bulkQueue(campaign: CampaignRow, count: number): Promise<void> {
  const [contact] = await app.services.db
    .insert(campaignContacts)
    .values({ campaignId: campaign.id, userId: campaign.userId, email: `bulk-${campaign.id}@example.com` })
    .returning({ id: campaignContacts.id });
  const sendAfter = new Date(now().getTime() - 60 * 60_000).toISOString();
  await app.services.db.execute(sql`
    INSERT INTO outbox_messages (token, user_id, campaign_id, campaign_contact_id, to_email, subject, html, send_after)
    SELECT ${campaign.id}::text || '-' || g, ${campaign.userId}, ${campaign.id}::uuid, ${contact!.id}::uuid,
      ${`bulk-${campaign.id}@example.com`}, 'Bulk', '<p>Hello</p>', ${sendAfter}::timestamptz
    FROM generate_series(1, ${count}::int) AS g`);
  await app.services.db.execute(sql`ANALYZE outbox_messages`);
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Outbox rows the plan read and campaign rows it looked up, summed over its nodes. */
function readCounts(plan: PlanNode): { outboxRows: number; campaignLookups: number } {
  let outboxRows = 0;
  let campaignLookups = 0;
  const visit = (node: PlanNode) => {
    const loops = node['Actual Loops'];
    if (node['Relation Name'] === 'outbox_messages')
      outboxRows += (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * loops;
    if (node['Relation Name'] === 'campaigns') campaignLookups += loops;
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan);
  return { outboxRows, campaignLookups };
}

/**
 * Runs `run` with a database that records its statements, in a transaction rolled back at the end, and
 * EXPLAIN ANALYZEs the recorded statement that `pick` chooses, with the settings the claim uses.
 */
async function explainStatement(
  run: (db: Database) => Promise<unknown>,
  pick: (text: string) => boolean,
): Promise<{ outboxRows: number; campaignLookups: number; ms: number; result: unknown }> {
  let measured: { outboxRows: number; campaignLookups: number; ms: number; result: unknown } | null = null;
  await app.services.db
    .transaction(async (trx) => {
      const statements: SQL[] = [];
      const recording = new Proxy(trx, {
        get(target, prop, receiver) {
          if (prop === 'execute')
            return (query: SQL) => {
              statements.push(query);
              return target.execute(query);
            };
          return Reflect.get(target, prop, receiver);
        },
      }) as unknown as Database;
      const result = await run(recording);
      const statement = statements.find((s) => pick(dialect.sqlToQuery(s).sql));
      expect(statement).toBeDefined();
      await trx.execute(
        sql`SELECT set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`,
      );
      const explained = (await trx.execute(sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement!}`)) as unknown as {
        rows: { 'QUERY PLAN': unknown }[];
      };
      const raw = explained.rows[0]!['QUERY PLAN'];
      const [top] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
        Plan: PlanNode;
        'Execution Time': number;
      }[];
      measured = { ...readCounts(top!.Plan), ms: top!['Execution Time'], result };
      trx.rollback();
    })
    .catch((error: unknown) => {
      if (!measured) throw error;
    });
  return measured!;
}

async function twoTenants() {
  const a = await createUser(app, { plan: 'enterprise' });
  const b = await createUser(app, { plan: 'enterprise' });
  const accountA = await createSinkAccount(app, a.user.id);
  const accountB = await createSinkAccount(app, b.user.id);
  const campaignA = await createSendingCampaign(app, a.user.id, [accountA]);
  const campaignB = await createSendingCampaign(app, b.user.id, [accountB]);
  return { a, b, campaignA, campaignB };
}

const actor = (userId: string) => ({ id: userId });

describe('a paused campaign’s queued messages', () => {
  it('are not walked by the claim or the next-due look-up: the other tenant’s are claimed at the cost of a batch', async () => {
    const { a, b, campaignA, campaignB } = await twoTenants();
    await bulkQueue(campaignA, PAUSED_ROWS);
    const tenantB = await queueForContacts(app, campaignB, 30);
    const pauseStarted = performance.now();
    await pauseCampaign({
      db: app.services.db,
      campaignId: campaignA.id,
      actor: actor(a.user.id),
      userId: a.user.id,
    });
    const pauseMs = performance.now() - pauseStarted;
    const ctx: DispatchContext = { ...dispatchContext(app, sink.port, b.user.id, { batchSize: BATCH }) };
    ctx.onlyUserId = [a.user.id, b.user.id];

    const pick = await explainStatement(
      (db) => pickDueMessages({ ...ctx, db }, now()),
      (text) => text.includes('SKIP LOCKED'),
    );
    const picked = pick.result as { id: string }[];
    expect(new Set(picked.map((m) => m.id))).toEqual(new Set(tenantB.messageIds));

    // After a drain: with B's messages sent, nothing of A's is due for the wake.
    await drainOutbox(ctx);
    const next = await explainStatement(
      (db) => nextDueAt({ ...ctx, db }),
      (text) => text.includes('send_after') && text.includes('limit'),
    );
    expect(next.result).toBeNull();
    if (process.env.PAUSED_ROWS)
      process.stdout.write(
        `pause: ${pauseMs.toFixed(0)} ms; claim: ${pick.outboxRows} outbox rows read, ${pick.campaignLookups} campaign look-ups, ${pick.ms.toFixed(1)} ms\n` +
          `next due: ${next.outboxRows} outbox rows read, ${next.campaignLookups} campaign look-ups, ${next.ms.toFixed(1)} ms\n`,
      );
    expect(pick.campaignLookups).toBeLessThanOrEqual(BATCH);
    expect(pick.outboxRows).toBeLessThan(PAUSED_ROWS / 2);
    expect(next.outboxRows + next.campaignLookups).toBeLessThan(PAUSED_ROWS / 2);

    await app.services.db.delete(outboxMessages).where(eq(outboxMessages.campaignId, campaignA.id));
  });

  it('come back on resume exactly as they were and are sent once each; those queued while paused wait too', async () => {
    const { a, b, campaignA, campaignB } = await twoTenants();
    const before = await queueForContacts(app, campaignA, 20);
    const tenantB = await queueForContacts(app, campaignB, 10);
    const sendAfterBefore = new Map(
      (await rowsOf(before.messageIds)).map((r) => [r.id, r.sendAfter.getTime()]),
    );
    await pauseCampaign({
      db: app.services.db,
      campaignId: campaignA.id,
      actor: actor(a.user.id),
      userId: a.user.id,
    });
    const [pausedA] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, campaignA.id));
    // A newsletter goes on queueing while it is paused (its campaign row as the queueing read it).
    const during = await queueForContacts(app, { ...pausedA!, status: 'active' }, 10);
    const ctx = dispatchContext(app, sink.port, b.user.id, { batchSize: 15 });
    ctx.onlyUserId = [a.user.id, b.user.id];

    const first = await drainOutbox(ctx);
    expect(first.sent).toBe(10);
    expect((await rowsOf(tenantB.messageIds)).every((r) => r.state === 'sent')).toBe(true);
    const waiting = await rowsOf([...before.messageIds, ...during.messageIds]);
    expect(waiting.every((r) => r.state === 'queued' && r.attempts === 0)).toBe(true);
    for (const row of waiting.filter((r) => sendAfterBefore.has(r.id)))
      expect(row.sendAfter.getTime()).toBe(sendAfterBefore.get(row.id));

    await resumeCampaign({
      db: app.services.db,
      campaignId: campaignA.id,
      actor: actor(a.user.id),
      userId: a.user.id,
    });
    const second = await drainOutbox(ctx);
    expect(second.sent).toBe(30);
    const sent = await rowsOf([...before.messageIds, ...during.messageIds]);
    expect(sent.every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
    for (const row of sent) expect(sink.counts.get(row.messageId!)).toBe(1);
  });

  it('one that missed the hold is claimed once and held; a stopped campaign’s stray one is cancelled', async () => {
    const { a, b, campaignA } = await twoTenants();
    const stray = await queueForContacts(app, campaignA, 3);
    await pauseCampaign({
      db: app.services.db,
      campaignId: campaignA.id,
      actor: actor(a.user.id),
      userId: a.user.id,
    });
    // Put back by a batch in flight when the pause came: queued again, not held.
    await app.services.db
      .update(outboxMessages)
      .set({ held: false })
      .where(inArray(outboxMessages.id, stray.messageIds));
    const ctx = dispatchContext(app, sink.port, b.user.id);
    ctx.onlyUserId = [a.user.id, b.user.id];
    expect((await drainOutbox(ctx)).claimed).toBe(3);
    const held = await rowsOf(stray.messageIds);
    expect(held.every((r) => r.state === 'queued' && r.held && r.attempts === 0)).toBe(true);
    expect((await drainOutbox(ctx)).claimed).toBe(0);

    await app.services.db.update(campaigns).set({ status: 'stopped' }).where(eq(campaigns.id, campaignA.id));
    await app.services.db
      .update(outboxMessages)
      .set({ held: false })
      .where(inArray(outboxMessages.id, stray.messageIds));
    expect((await drainOutbox(ctx)).skipped).toBe(3);
    expect((await rowsOf(stray.messageIds)).every((r) => r.state === 'cancelled')).toBe(true);
    expect(sink.messages.some((m) => stray.emails.some((e) => m.to.includes(e)))).toBe(false);
  });

  // A second connection is needed to hold the campaign's lock meanwhile: PostgreSQL only.
  it.skipIf(!inject('databaseUrl'))(
    'a claim does not wait for a campaign a stop or resume has locked: its stray messages come back a minute later',
    async () => {
      const { a, b, campaignA } = await twoTenants();
      const stray = await queueForContacts(app, campaignA, 2);
      await pauseCampaign({
        db: app.services.db,
        campaignId: campaignA.id,
        actor: actor(a.user.id),
        userId: a.user.id,
      });
      await app.services.db
        .update(outboxMessages)
        .set({ held: false })
        .where(inArray(outboxMessages.id, stray.messageIds));
      const ctx = dispatchContext(app, sink.port, b.user.id);
      ctx.onlyUserId = [a.user.id, b.user.id];
      // As a stop does: the campaign's row locked, then (after this claim) its queued messages. A claim
      // that waited for the campaign while holding the messages deadlocked with it.
      const stop = new pg.Client({ connectionString: app.services.env.DATABASE_URL });
      await stop.connect();
      try {
        await stop.query('BEGIN');
        await stop.query("UPDATE campaigns SET status = 'stopped' WHERE id = $1", [campaignA.id]);
        expect((await drainOutbox(ctx)).claimed).toBe(2);
        const rows = await rowsOf(stray.messageIds);
        expect(rows.every((r) => r.state === 'queued' && !r.held && r.attempts === 0)).toBe(true);
        expect(rows.every((r) => r.sendAfter.getTime() > now().getTime() + 30_000)).toBe(true);
      } finally {
        await stop.query('ROLLBACK');
        await stop.end();
      }
    },
    30_000,
  );

  it('held messages of a campaign made active without a resume are released by the recovery job, a paused one’s are not', async () => {
    const { a, b, campaignA, campaignB } = await twoTenants();
    const unpaused = await queueForContacts(app, campaignA, 4);
    const stillPaused = await queueForContacts(app, campaignB, 2);
    for (const [campaign, owner] of [
      [campaignA, a],
      [campaignB, b],
    ] as const)
      await pauseCampaign({
        db: app.services.db,
        campaignId: campaign.id,
        actor: actor(owner.user.id),
        userId: owner.user.id,
      });
    // Made active by a path that is not resumeCampaign (an operator's SQL): its messages stay held.
    await app.services.db.update(campaigns).set({ status: 'active' }).where(eq(campaigns.id, campaignA.id));
    const ctx = dispatchContext(app, sink.port, b.user.id);
    ctx.onlyUserId = [a.user.id, b.user.id];
    expect((await drainOutbox(ctx)).claimed).toBe(0);

    expect(await releaseStrayHolds({ db: app.services.db })).toBeGreaterThanOrEqual(4);
    expect((await rowsOf(unpaused.messageIds)).every((r) => r.state === 'queued' && !r.held)).toBe(true);
    expect((await rowsOf(stillPaused.messageIds)).every((r) => r.state === 'queued' && r.held)).toBe(true);
    expect((await drainOutbox(ctx)).sent).toBe(4);
    for (const row of await rowsOf(unpaused.messageIds)) expect(sink.counts.get(row.messageId!)).toBe(1);
  });
});

async function rowsOf(ids: string[]) {
  return app.services.db.select().from(outboxMessages).where(inArray(outboxMessages.id, ids));
}
