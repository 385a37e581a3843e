import { emailEvents } from '@server/db/schema/index';
import { advanceClock, now as clockNow, resetClock } from '@server/lib/clock';
import { ownDatabase } from '@tests/setup/own-database';
import { createTestApp } from '@tests/setup/test-app';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { rollUpPlatformStats, withRollupSnapshot } from '../admin-analytics/platform-rollup.service';
import { ruleDefinition } from './alert-rules';

/*
 * The bounce and complaint rules count the messages sent in the last hour and day from the hourly
 * roll-up and the events after its watermark, not from the outbox: counting the outbox rows sent in the
 * last 24 hours took 10–15 s a minute after a 1,000,000-recipient newsletter. The rules are platform-wide,
 * so on PostgreSQL the file has a database of its own. The roll-up keeps hours, so the windows start on
 * the hour: the last hour's at the start of the hour before (the clock sits at twenty past).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Db = FastifyInstance['services']['db'];
type EventRow = typeof emailEvents.$inferInsert;

let app: FastifyInstance;
let db: Db;
let dropDatabase: () => Promise<void> = async () => {};

beforeAll(async () => {
  const own = await ownDatabase('alert_rules');
  dropDatabase = own.drop;
  app = await createTestApp(own.env);
  db = app.services.db;
});

afterAll(async () => {
  resetClock();
  await app?.close();
  await dropDatabase();
});

/** Moves the clock to twenty past an hour at least two days past anything an earlier test wrote. */
let hourMark = 0;
beforeEach(() => {
  const base = Math.max(clockNow().getTime(), hourMark) + 2 * 24 * HOUR;
  hourMark = Math.ceil(base / HOUR) * HOUR;
  advanceClock(hourMark + 20 * MINUTE - clockNow().getTime());
});

function events(
  count: number,
  type: EventRow['type'],
  at: number,
  extra: Partial<EventRow> = {},
): EventRow[] {
  return Array.from({ length: count }, () => ({
    userId: 'alert-rules-user',
    type,
    occurredAt: new Date(at),
    ...extra,
  }));
}

async function measure(key: 'bounce_spike' | 'complaint_rate') {
  const rule = ruleDefinition(key);
  if (!rule) throw new Error(`no rule ${key}`);
  return rule.measure({ db, at: clockNow() });
}

async function rolledUp(type: string): Promise<number> {
  const result = await db.execute(
    sql`SELECT coalesce(sum(count), 0)::int AS n FROM platform_hourly_events WHERE type = ${type}`,
  );
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}

function hourLabel(at: number, withDay: boolean): string {
  const hour = new Date(at);
  const time = `${String(hour.getUTCHours()).padStart(2, '0')}:00 UTC`;
  const month = hour.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });
  return withDay ? `${hour.getUTCDate()} ${month} ${time}` : time;
}

describe('alert rules: sends counted from the roll-up', () => {
  it('bounce spike and complaint rate count from the start of the hour before, rolled up or not', async () => {
    const h = hourMark; // the current hour; the clock is at h + 20 min
    const at = h + 20 * MINUTE;
    const smtpRefusal = { metadata: { hard: true, responseCode: 550, during: 'smtp' } };
    await db.insert(emailEvents).values([
      // Before the day's window (it starts at h − 24 h) and inside it.
      ...events(1000, 'sent', h - 25 * HOUR),
      ...events(1, 'complained', h - 25 * HOUR),
      ...events(10, 'sent', h - 24 * HOUR + 15 * MINUTE),
      ...events(500, 'sent', h - 22 * HOUR),
      ...events(2, 'complained', h - 20 * HOUR),
      // Before the hour's window (it starts at h − 1 h) and inside it.
      ...events(30, 'sent', h - 2 * HOUR + 50 * MINUTE),
      ...events(1, 'bounced', h - 2 * HOUR + 50 * MINUTE),
      ...events(60, 'sent', h - HOUR + 10 * MINUTE),
      // This hour: three bounces reported later and one refused during SMTP (no 'sent' event).
      ...events(100, 'sent', h + 5 * MINUTE),
      ...events(3, 'bounced', h + 10 * MINUTE, { metadata: { hard: true } }),
      ...events(1, 'bounced', h + 10 * MINUTE, smtpRefusal),
      // The last minute: younger than the roll-up's settling time, so only the live tail has them.
      ...events(7, 'sent', at - 30_000),
      ...events(1, 'bounced', at - 20_000, smtpRefusal),
    ]);
    // Hour: 60 + 100 + 7 sent and 2 refused = 169; 5 bounced. Day: 10 + 500 + 30 + 167 + 2 = 709; 2 complaints.
    const expected = {
      bounce: {
        value: Math.round((5 / 169) * 100 * 100) / 100,
        detail: `5 bounced of 169 sent since ${hourLabel(h - HOUR, false)}.`,
      },
      complaint: {
        value: Math.round((2 / 709) * 100 * 1000) / 1000,
        detail: `2 complaints of 709 sent since ${hourLabel(h - 24 * HOUR, true)}.`,
      },
    };
    // Before the roll-up has run (everything is in the tail) and after: the same figures.
    expect(await measure('bounce_spike')).toEqual(expected.bounce);
    expect(await measure('complaint_rate')).toEqual(expected.complaint);
    await rollUpPlatformStats({ db });
    expect(await rolledUp('sent')).toBe(1000 + 10 + 500 + 30 + 60 + 100);
    expect(await rolledUp('smtp_refused')).toBe(1);
    expect(await measure('bounce_spike')).toEqual(expected.bounce);
    expect(await measure('complaint_rate')).toEqual(expected.complaint);
  });

  it('a server that refuses every message during SMTP still shows a bounce rate', async () => {
    const h = hourMark;
    await db.insert(emailEvents).values(
      events(60, 'bounced', h + 10 * MINUTE, {
        metadata: { hard: true, responseCode: 550, during: 'smtp' },
      }),
    );
    await rollUpPlatformStats({ db });
    expect(await measure('bounce_spike')).toEqual({
      value: 100,
      detail: `60 bounced of 60 sent since ${hourLabel(h - HOUR, false)}.`,
    });
  });

  it('too few sends to judge gives 0 and says so', async () => {
    const h = hourMark;
    await db
      .insert(emailEvents)
      .values([...events(20, 'sent', h + 10 * MINUTE), ...events(5, 'bounced', h + 11 * MINUTE)]);
    await rollUpPlatformStats({ db });
    expect(await measure('bounce_spike')).toEqual({
      value: 0,
      detail: `5 bounced of 20 sent since ${hourLabel(h - HOUR, false)} (too few sends to judge).`,
    });
  });

  // PGlite has one connection: a roll-up from outside the snapshot's transaction would wait for it.
  it.skipIf(!inject('databaseUrl'))(
    'a roll-up committed between two reads of one snapshot is not counted twice',
    async () => {
      const h = hourMark;
      const before = await rolledUp('sent');
      await db.insert(emailEvents).values(events(50, 'sent', h + 5 * MINUTE));
      const total = await withRollupSnapshot(db, async (tx, progress) => {
        const tail = await tx.execute(
          sql`SELECT count(*)::int AS n FROM email_events WHERE id > ${progress.lastEventId} AND type = 'sent'`,
        );
        // Another connection folds the 50 events and moves the watermark past them, and commits.
        await rollUpPlatformStats({ db });
        const rolled = await tx.execute(
          sql`SELECT coalesce(sum(count), 0)::int AS n FROM platform_hourly_events WHERE type = 'sent'`,
        );
        const n = (result: unknown) => Number((result as { rows: { n: number }[] }).rows[0]?.n ?? 0);
        return n(tail) + n(rolled);
      });
      expect(await rolledUp('sent')).toBe(before + 50);
      expect(total).toBe(before + 50);
    },
  );
});
