import { contactLists, emailEvents, listContacts, outboxMessages } from '@server/db/schema/index';
import { rowsOf } from '@server/lib/list-cursor';
import { cappedCountText } from '@shared/admin-monitors';
import {
  createSendingCampaign,
  createSinkAccount,
  queueForContacts,
  type SenderRow,
} from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { ownDatabase } from '@tests/setup/own-database';
import { createTestApp } from '@tests/setup/test-app';
import { inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollUpPlatformStats } from '../admin-analytics/platform-rollup.service';
import { getSystemAnalytics } from '../admin-analytics/system-analytics.service';
import { getCostOptimization } from '../cost-optimization/cost-optimization.service';
import { listSenderMonitor } from './email-processing.service';
import { getEmailQueueStatus } from './email-queue.service';

/*
 * The monitors' figures read from roll-ups and bounded counts, compared with a direct count of the
 * same rows on random data. The roll-up is platform-wide, so on PostgreSQL the file has a database of
 * its own.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Db = FastifyInstance['services']['db'];
type EventRow = typeof emailEvents.$inferInsert;

let app: FastifyInstance;
let db: Db;
let dropDatabase: () => Promise<void> = async () => {};

beforeAll(async () => {
  const own = await ownDatabase('monitor_figures');
  dropDatabase = own.drop;
  app = await createTestApp(own.env);
  db = app.services.db;
});

afterAll(async () => {
  await app?.close();
  await dropDatabase();
});

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('Email Processing monitor: last day and week from the per-account roll-up', () => {
  it('gives every account the same counts as a direct count of its events, rolled up or not', async () => {
    const rnd = random(20_260_511);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
    const owners = [(await createUser(app)).user.id, (await createUser(app)).user.id];
    const accounts: SenderRow[] = [];
    const campaignsOf = new Map<string, string[]>();
    for (const owner of owners) {
      const mine = [
        await createSinkAccount(app, owner),
        await createSinkAccount(app, owner),
        await createSinkAccount(app, owner),
      ];
      accounts.push(...mine);
      campaignsOf.set(owner, [
        (await createSendingCampaign(app, owner, mine)).id,
        (await createSendingCampaign(app, owner, mine)).id,
      ]);
    }
    const types = ['sent', 'sent', 'sent', 'bounced', 'complained', 'failed', 'opened', 'deferred'] as const;
    // Most events near the windows' edges (a day and a week ago, where part-hours are read), the rest
    // anywhere in the last eight days; some without a campaign (never counted). The roll-up folds the
    // first ones; the later ones, a few just written, are the live tail.
    const when = (start: number, fresh: boolean): Date => {
      const r = fresh ? rnd() : 0.1 + rnd() * 0.9;
      if (r < 0.1) return new Date(start - rnd() * 5 * MINUTE);
      if (r < 0.4) return new Date(start - DAY + (rnd() - 0.5) * 3 * HOUR);
      if (r < 0.7) return new Date(start - 7 * DAY + (rnd() - 0.5) * 3 * HOUR);
      return new Date(start - rnd() * 8 * DAY);
    };
    const events = (n: number, fresh: boolean): EventRow[] =>
      Array.from({ length: n }, () => {
        const account = pick(accounts);
        return {
          userId: account.userId,
          campaignId: rnd() < 0.1 ? null : pick(campaignsOf.get(account.userId)!),
          senderAccountId: account.id,
          type: pick(types),
          occurredAt: when(Date.now(), fresh),
        };
      });
    await db.insert(emailEvents).values(events(700, false));
    await rollUpPlatformStats({ db, batchSize: 97 });
    // Written after the roll-up: the live tail, some of them late (an old bounce reported today).
    await db.insert(emailEvents).values(events(200, true));

    const list = await listSenderMonitor({ db, query: { limit: 25 } });
    expect(list.accounts).toHaveLength(accounts.length);
    const at = new Date(list.generatedAt).getTime();
    const direct = rowsOf<{ account_id: string; type: string; day: number; week: number }>(
      await db.execute(sql`
        SELECT sender_account_id AS account_id, type,
          count(*) FILTER (WHERE occurred_at > ${new Date(at - DAY).toISOString()}::timestamptz)::int AS day,
          count(*)::int AS week
        FROM email_events
        WHERE campaign_id IS NOT NULL AND type IN ('sent', 'bounced', 'complained', 'failed')
          AND occurred_at > ${new Date(at - 7 * DAY).toISOString()}::timestamptz
        GROUP BY 1, 2`),
    );
    const expected = (accountId: string, window: 'day' | 'week') => {
      const of = (type: string) =>
        Number(direct.find((r) => r.account_id === accountId && r.type === type)?.[window] ?? 0);
      return { sent: of('sent'), bounced: of('bounced'), complained: of('complained'), failed: of('failed') };
    };
    let counted = 0;
    for (const row of list.accounts) {
      const day = expected(row.id, 'day');
      const week = expected(row.id, 'week');
      expect({ ...row.last24h, bounceRate: 0, complaintRate: 0 }).toEqual({
        ...day,
        bounceRate: 0,
        complaintRate: 0,
      });
      expect({ ...row.last7d, bounceRate: 0, complaintRate: 0 }).toEqual({
        ...week,
        bounceRate: 0,
        complaintRate: 0,
      });
      expect(row.errors24h).toBe(day.failed);
      counted += week.sent + week.bounced + week.complained + week.failed;
    }
    // The data reaches every part: rolled-up hours, part-hours at both edges, and the tail.
    expect(counted).toBeGreaterThan(300);
    const [progress] = rowsOf<{ last_event_id: string | number }>(
      await db.execute(sql`SELECT last_event_id FROM platform_stats_progress`),
    );
    expect(Number(progress?.last_event_id)).toBeGreaterThan(0);
  });
});

describe("Cost Optimization: contacts per user from the lists' kept counts", () => {
  it('gives every user the number of their list members, lists in the recycle bin included', async () => {
    const rnd = random(7_041_977);
    const users = [
      (await createUser(app)).user.id,
      (await createUser(app)).user.id,
      (await createUser(app)).user.id,
    ];
    const lists = await db
      .insert(contactLists)
      .values(
        Array.from({ length: 8 }, (_, i) => ({
          userId: users[i % users.length]!,
          name: `List ${i}`,
          deletedAt: i % 4 === 3 ? new Date() : null,
        })),
      )
      .returning({ id: contactLists.id, userId: contactLists.userId });
    // Members added in several statements, some removed again.
    let n = 0;
    for (let round = 0; round < 4; round++) {
      const rows = Array.from({ length: 60 }, () => {
        const list = lists[Math.floor(rnd() * lists.length)]!;
        n += 1;
        const email = `member-${n}@figures.test`;
        return {
          userId: list.userId,
          listId: list.id,
          email,
          emailNormalized: email,
          source: 'manual' as const,
        };
      });
      const inserted = await db.insert(listContacts).values(rows).returning({ id: listContacts.id });
      const gone = inserted.filter(() => rnd() < 0.25).map((r) => r.id);
      if (gone.length > 0) await db.delete(listContacts).where(inArray(listContacts.id, gone));
    }
    const direct = rowsOf<{ user_id: string; n: number }>(
      await db.execute(sql`SELECT user_id, count(*)::int AS n FROM list_contacts GROUP BY 1`),
    );
    const figures = await getCostOptimization({ db, engine: 'pglite' });
    for (const user of users) {
      const row = figures.users.find((u) => u.userId === user);
      expect(row?.contacts ?? 0, user).toBe(Number(direct.find((d) => d.user_id === user)?.n ?? 0));
    }
    expect(direct.reduce((sum, d) => sum + Number(d.n), 0)).toBeGreaterThan(100);
  });
});

describe('outbox counts stop past the cap', () => {
  it('Email Queue and System Analytics give min(count, cap + 1) of each state; the page shows "100,000+"', async () => {
    const rnd = random(31_337);
    const owner = (await createUser(app)).user.id;
    const account = await createSinkAccount(app, owner);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const campaign = await createSendingCampaign(app, owner, [account]);
      ids.push(...(await queueForContacts(app, campaign, 40)).messageIds);
    }
    const states = [
      'queued',
      'queued',
      'sent',
      'sent',
      'sent',
      'bounced',
      'suppressed',
      'cancelled',
    ] as const;
    const at = Date.now();
    for (const id of ids) {
      const state = states[Math.floor(rnd() * states.length)]!;
      // Queued rows due now or later (deferred), half and half; a quarter of them held (a paused campaign's).
      await db
        .update(outboxMessages)
        .set({
          state,
          sendAfter: new Date(at + (rnd() < 0.5 ? -1 : 1) * (1 + rnd()) * HOUR),
          held: state === 'queued' && rnd() < 0.25,
        })
        .where(sql`${outboxMessages.id} = ${id}`);
    }
    const [direct] = rowsOf<Record<string, number>>(
      await db.execute(sql`
        SELECT count(*) FILTER (WHERE state = 'queued')::int AS queued,
          count(*) FILTER (WHERE state = 'queued' AND NOT held AND send_after > now())::int AS deferred,
          count(*) FILTER (WHERE state = 'queued' AND NOT held AND send_after <= now())::int AS due,
          count(*) FILTER (WHERE state = 'queued' AND held)::int AS held,
          count(*) FILTER (WHERE state = 'sent')::int AS sent,
          count(*) FILTER (WHERE state = 'bounced')::int AS bounced,
          count(*) FILTER (WHERE state = 'suppressed')::int AS suppressed,
          count(*) FILTER (WHERE state = 'cancelled')::int AS cancelled
        FROM outbox_messages`),
    );
    const expected = (cap: number) => (key: string) => Math.min(Number(direct![key]), cap + 1);
    for (const cap of [5, 20, 1_000]) {
      const want = expected(cap);
      const { outbox } = await getEmailQueueStatus({ db, countCap: cap });
      expect(outbox, `cap ${cap}`).toMatchObject({
        queued: want('queued'),
        queuedDeferred: want('deferred'),
        queuedHeld: want('held'),
        sent: want('sent'),
        bounced: want('bounced'),
        suppressed: want('suppressed'),
        cancelled: want('cancelled'),
      });
      const system = await getSystemAnalytics({ db, range: '24h', countCap: cap });
      expect(system.queue.outboxDue, `cap ${cap}`).toBe(want('due'));
    }
    // The data puts some states past the small caps and leaves the big one exact.
    expect(Number(direct!.sent)).toBeGreaterThan(21);
    expect(Number(direct!.suppressed)).toBeLessThan(1_000);
    expect(Number(direct!.held)).toBeGreaterThan(0);

    const format = (n: number) => n.toLocaleString('en-US');
    expect(cappedCountText(100_001, format)).toBe('100,000+');
    expect(cappedCountText(100_000, format)).toBe('100,000');
    expect(cappedCountText(7, format)).toBe('7');
  });
});
