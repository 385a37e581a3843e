import { emailEvents } from '@server/db/schema/index';
import { advanceClock, now as clockNow, resetClock } from '@server/lib/clock';
import { ownDatabase } from '@tests/setup/own-database';
import { createTestApp } from '@tests/setup/test-app';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rollUpPlatformStats } from '../admin-analytics/platform-rollup.service';
import { ruleDefinition } from './alert-rules';

/*
 * The bounce and complaint rules count the messages sent in the last hour and day from the hourly
 * roll-up and the events after its watermark, not from the outbox: counting the outbox rows sent in the
 * last 24 hours took 10–15 s a minute after a 1,000,000-recipient newsletter. The rules are platform-wide,
 * so on PostgreSQL the file has a database of its own; the clock sits at half past an hour, so the last
 * hour's window starts halfway through the hour before.
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

/** Moves the clock to half past an hour at least two days past anything an earlier test wrote. */
let hourMark = 0;
beforeEach(() => {
  const base = Math.max(clockNow().getTime(), hourMark) + 2 * 24 * HOUR;
  hourMark = Math.ceil(base / HOUR) * HOUR;
  advanceClock(hourMark + 30 * MINUTE - clockNow().getTime());
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

describe('alert rules: sends counted from the roll-up', () => {
  it('bounce spike and complaint rate read whole hours, the window’s first hour prorated, and the live tail', async () => {
    const h = hourMark; // the current hour; the clock is at h + 30 min
    const smtpRefusal = { metadata: { hard: true, responseCode: 550, during: 'smtp' } };
    await db.insert(emailEvents).values([
      // 24 hours ago and before: 10 in the hour the day's window starts in (half of it inside), 1,000 older.
      ...events(10, 'sent', h - 24 * HOUR + 15 * MINUTE),
      ...events(1000, 'sent', h - 25 * HOUR),
      ...events(500, 'sent', h - 22 * HOUR),
      ...events(2, 'complained', h - 20 * HOUR),
      ...events(1, 'complained', h - 25 * HOUR),
      // The hour before: 60 sent, half of the hour inside the last-hour window; a bounce outside it.
      ...events(60, 'sent', h - HOUR + 10 * MINUTE),
      ...events(1, 'bounced', h - HOUR + 10 * MINUTE),
      // This hour: 100 sent, three bounces reported later and one refused during SMTP (no 'sent' event).
      ...events(100, 'sent', h + 5 * MINUTE),
      ...events(3, 'bounced', h + 10 * MINUTE, { metadata: { hard: true } }),
      ...events(1, 'bounced', h + 10 * MINUTE, smtpRefusal),
    ]);
    await rollUpPlatformStats({ db });
    // The last 30 seconds: younger than the roll-up's settling time, so only the live tail has them.
    await db.insert(emailEvents).values(events(7, 'sent', h + 30 * MINUTE - 30_000));
    expect(await rolledUp('sent')).toBe(10 + 1000 + 500 + 60 + 100);

    // Last hour: 60 × ½ + 100 + 7 sent, plus the refused one = 138; 4 bounced.
    expect(await measure('bounce_spike')).toEqual({
      value: Math.round((4 / 138) * 100 * 100) / 100,
      detail: '4 bounced of 138 sent in the last hour.',
    });
    // Last 24 hours: 10 × ½ + 500 + 60 + 100 + 7 + 1 = 673; 2 complaints.
    expect(await measure('complaint_rate')).toEqual({
      value: Math.round((2 / 673) * 100 * 1000) / 1000,
      detail: '2 complaints of 673 sent in the last 24 hours.',
    });
  });

  it('a server that refuses every message during SMTP still shows a bounce rate', async () => {
    const h = hourMark;
    await db.insert(emailEvents).values(
      events(60, 'bounced', h + 20 * MINUTE, {
        metadata: { hard: true, responseCode: 550, during: 'smtp' },
      }),
    );
    await rollUpPlatformStats({ db });
    expect(await measure('bounce_spike')).toEqual({
      value: 100,
      detail: '60 bounced of 60 sent in the last hour.',
    });
  });

  it('too few sends to judge gives 0 and says so', async () => {
    const h = hourMark;
    await db
      .insert(emailEvents)
      .values([...events(20, 'sent', h + 20 * MINUTE), ...events(5, 'bounced', h + 21 * MINUTE)]);
    await rollUpPlatformStats({ db });
    expect(await measure('bounce_spike')).toEqual({
      value: 0,
      detail: '5 bounced of 20 sent in the last hour (too few sends to judge).',
    });
  });
});
