import type { Database } from '@server/db/client';
import type { AlertRuleKey } from '@shared/admin-operations';
import { sql } from 'drizzle-orm';
import { hourStart, platformEventCounts, SMTP_REFUSED } from '../admin-analytics/platform-counts.service';

/*
 * What each alert rule measures. A rule fires when its measure reaches its threshold (the operator sets
 * the threshold; these are the defaults). Every query here is cheap on a large database: it reads an
 * index (time-bounded), a roll-up or a catalogue function, never a whole table, and never a count that
 * grows with the messages sent (the rules run every minute).
 */

export interface Measure {
  value: number;
  /** A sentence for the screen and the mail: what was measured, with its figures. */
  detail: string;
}

export interface AlertRuleDefinition {
  key: AlertRuleKey;
  name: string;
  description: string;
  unit: string;
  defaultThreshold: number;
  measure(input: { db: Database; at: Date }): Promise<Measure>;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

async function one<T>(db: Database, query: ReturnType<typeof sql>): Promise<T | undefined> {
  return rowsOf<T>(await db.execute(query))[0];
}

const minutesBetween = (at: Date, then: Date | string | null | undefined) =>
  then ? Math.max(0, (at.getTime() - new Date(then).getTime()) / 60_000) : 0;

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function ago(at: Date, minutes: number): string {
  return new Date(at.getTime() - minutes * 60_000).toISOString();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "09:00 UTC", or "28 Nov 09:00 UTC" with the day. */
function hourLabel(hour: Date, withDay: boolean): string {
  const time = `${String(hour.getUTCHours()).padStart(2, '0')}:00 UTC`;
  return withDay ? `${hour.getUTCDate()} ${MONTHS[hour.getUTCMonth()]} ${time}` : time;
}

/**
 * Bounces or complaints over the messages handed to receiving servers, from the start of the hour
 * `minutes` before `at` (the roll-up keeps hours): the ones accepted ('sent' events) and the ones refused
 * during SMTP (those write a bounce and no 'sent' event; left out, a sender whose every message is refused
 * would show no sends and so no bounce rate).
 */
async function outcomesOverSends(
  db: Database,
  at: Date,
  minutes: number,
  outcome: 'bounced' | 'complained',
): Promise<{ count: number; sent: number; fromHour: Date }> {
  const fromHour = hourStart(new Date(at.getTime() - minutes * 60_000));
  const counts = await platformEventCounts(db, { fromHour, types: ['sent', SMTP_REFUSED, outcome] });
  return { count: counts[outcome], sent: counts.sent + counts[SMTP_REFUSED], fromHour };
}

/** Below this many sends a rate says little (two bounces out of ten is not a spike). */
const MIN_SENT_FOR_BOUNCE_RATE = 50;
const MIN_SENT_FOR_COMPLAINT_RATE = 100;

export const ALERT_RULES: readonly AlertRuleDefinition[] = [
  {
    key: 'queue_backlog_age',
    name: 'Queue backlog age',
    description: 'How long the oldest due job or due outbox message has been waiting to be picked up.',
    unit: 'minutes',
    defaultThreshold: 15,
    async measure({ db, at }) {
      const job = await one<{ oldest: string | null; name: string | null }>(
        db,
        sql`SELECT start_after AS oldest, name FROM pgboss.job
            WHERE state IN ('created', 'retry') AND start_after <= ${at.toISOString()}::timestamptz
              AND left(name, 8) <> '__pgboss'
            ORDER BY start_after LIMIT 1`,
      );
      const message = await one<{ oldest: string | null }>(
        db,
        sql`SELECT min(send_after) AS oldest FROM outbox_messages
            WHERE state = 'queued' AND NOT held AND send_after <= ${at.toISOString()}::timestamptz`,
      );
      const jobAge = minutesBetween(at, job?.oldest);
      const messageAge = minutesBetween(at, message?.oldest);
      return {
        value: round(Math.max(jobAge, messageAge)),
        detail: `Oldest waiting job: ${job?.oldest ? `${round(jobAge)} min (${job.name})` : 'none'}; oldest due outbox message: ${message?.oldest ? `${round(messageAge)} min` : 'none'}.`,
      };
    },
  },
  {
    key: 'failed_jobs',
    name: 'Failed jobs',
    description: 'Background jobs that failed for good (no retries left) in the last hour.',
    unit: 'jobs',
    defaultThreshold: 5,
    async measure({ db, at }) {
      const rows = rowsOf<{ name: string; n: number }>(
        await db.execute(sql`
          SELECT name, count(*)::int AS n FROM pgboss.job
          WHERE state = 'failed' AND completed_on >= ${ago(at, 60)}::timestamptz
          GROUP BY name ORDER BY n DESC`),
      );
      const total = rows.reduce((sum, row) => sum + Number(row.n), 0);
      return {
        value: total,
        detail:
          total === 0
            ? 'No job failed in the last hour.'
            : `${total} failed in the last hour: ${rows.map((r) => `${r.name} ${r.n}`).join(', ')}.`,
      };
    },
  },
  {
    key: 'bounce_spike',
    name: 'Bounce spike',
    description: `Bounces as a share of messages sent in the last hour, counted from the start of the hour before (60 to 120 minutes; from ${MIN_SENT_FOR_BOUNCE_RATE} sends up).`,
    unit: '%',
    defaultThreshold: 5,
    async measure({ db, at }) {
      const { count: bounced, sent, fromHour } = await outcomesOverSends(db, at, 60, 'bounced');
      const rate = sent >= MIN_SENT_FOR_BOUNCE_RATE ? (bounced / sent) * 100 : 0;
      return {
        value: round(rate, 2),
        detail: `${bounced} bounced of ${sent} sent since ${hourLabel(fromHour, false)}${sent < MIN_SENT_FOR_BOUNCE_RATE ? ' (too few sends to judge)' : ''}.`,
      };
    },
  },
  {
    key: 'complaint_rate',
    name: 'Complaint rate',
    description: `Spam complaints as a share of messages sent in the last 24 hours, counted from the start of the hour 24 hours ago (from ${MIN_SENT_FOR_COMPLAINT_RATE} sends up). Mailbox providers start filtering at 0.3%.`,
    unit: '%',
    defaultThreshold: 0.3,
    async measure({ db, at }) {
      const { count: complained, sent, fromHour } = await outcomesOverSends(db, at, 24 * 60, 'complained');
      const rate = sent >= MIN_SENT_FOR_COMPLAINT_RATE ? (complained / sent) * 100 : 0;
      return {
        value: round(rate, 3),
        detail: `${complained} complaints of ${sent} sent since ${hourLabel(fromHour, true)}${sent < MIN_SENT_FOR_COMPLAINT_RATE ? ' (too few sends to judge)' : ''}.`,
      };
    },
  },
  {
    key: 'payment_failures',
    name: 'Payment failures',
    description: 'Orders whose payment failed in the last hour.',
    unit: 'orders',
    defaultThreshold: 3,
    async measure({ db, at }) {
      const row = await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM orders
            WHERE status = 'failed' AND created_at >= ${ago(at, 60)}::timestamptz`,
      );
      const n = Number(row?.n ?? 0);
      return { value: n, detail: `${n} failed payment${n === 1 ? '' : 's'} in the last hour.` };
    },
  },
  {
    key: 'error_rate',
    name: 'Error rate',
    description: 'Error and fatal lines in the log table over the last 5 minutes (web and workers).',
    unit: 'errors',
    defaultThreshold: 10,
    async measure({ db, at }) {
      const rows = rowsOf<{ msg: string; n: number }>(
        await db.execute(sql`
          SELECT left(msg, 120) AS msg, count(*)::int AS n FROM app_logs
          WHERE level >= 50 AND time >= ${ago(at, 5)}::timestamptz
          GROUP BY 1 ORDER BY n DESC LIMIT 3`),
      );
      const total = await one<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM app_logs WHERE level >= 50 AND time >= ${ago(at, 5)}::timestamptz`,
      );
      const n = Number(total?.n ?? 0);
      return {
        value: n,
        detail:
          n === 0
            ? 'No error logged in the last 5 minutes.'
            : `${n} errors in the last 5 minutes; most frequent: ${rows.map((r) => `“${r.msg}” ×${r.n}`).join(', ')}.`,
      };
    },
  },
  {
    key: 'worker_not_seen',
    name: 'Worker not seen',
    description: 'Minutes since any worker process last reported (workers report every 30 seconds).',
    unit: 'minutes',
    defaultThreshold: 5,
    async measure({ db, at }) {
      const row = await one<{ seen: string | null; n: number }>(
        db,
        sql`SELECT max(seen_at) AS seen, count(*)::int AS n FROM worker_heartbeats`,
      );
      if (!row?.seen) return { value: 0, detail: 'No worker has reported yet.' };
      const minutes = minutesBetween(at, row.seen);
      return {
        value: round(minutes),
        detail: `Last report ${round(minutes)} min ago (${row.n} worker process${Number(row.n) === 1 ? '' : 'es'} known).`,
      };
    },
  },
  {
    key: 'database_size',
    name: 'Database size',
    description: 'The size of the whole database on disk.',
    unit: 'MB',
    defaultThreshold: 10_240,
    async measure({ db }) {
      const row = await one<{ bytes: string | number }>(
        db,
        sql`SELECT pg_database_size(current_database()) AS bytes`,
      );
      const mb = Number(row?.bytes ?? 0) / 1024 / 1024;
      return { value: round(mb), detail: `The database takes ${round(mb)} MB.` };
    },
  },
];

export function ruleDefinition(key: string): AlertRuleDefinition | undefined {
  return ALERT_RULES.find((rule) => rule.key === key);
}
