import type { Database } from '@server/db/client';
import { imapIdleLeases, senderAccounts, users } from '@server/db/schema/index';
import { now } from '@server/lib/clock';
import { notFound } from '@server/lib/errors';
import { decodeCursor, encodeCursor, iso, rowsOf } from '@server/lib/list-cursor';
import type {
  EventRates,
  SenderMonitorList,
  SenderMonitorQuery,
  SenderMonitorRow,
} from '@shared/admin-monitors';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAuditEntry } from '../admin/audit.service';
import { withRollupSnapshot } from '../admin-analytics/platform-rollup.service';
import {
  effectiveDailyCap,
  pauseSenderAccount,
  resumeSenderAccount,
  sentTodayOf,
} from '../sender-accounts/sender-accounts.service';

/*
 * The Email Processing monitor: every sender account across all users, one page at a time, with what
 * it did in the last day and week: whole hours from the per-account roll-up (platform_account_hourly),
 * the rest from events read through (campaign_id, type, occurred_at) for the page's owners' campaigns and
 * only the types counted here: opens and clicks, most of the table, are never visited. (Every sending
 * event carries its campaign: the dispatcher's and the inbound effects'.)
 */

const HOUR_MS = 3_600_000;
const SMTP_CODE = /\b([45]\d\d)\b/g;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function rates(counts: { sent: number; bounced: number; complained: number; failed: number }): EventRates {
  return {
    ...counts,
    bounceRate: counts.sent > 0 ? counts.bounced / counts.sent : 0,
    complaintRate: counts.sent > 0 ? counts.complained / counts.sent : 0,
  };
}

/** The first UTC hour boundary after an instant (the window (at, …)'s first whole roll-up hour). */
export function nextHourAfter(at: string): string {
  return new Date((Math.floor(new Date(at).getTime() / HOUR_MS) + 1) * HOUR_MS).toISOString();
}

/** The SMTP reply codes (4xx, 5xx) a reason mentions, each once. */
export function smtpCodesIn(text: string | null): string[] {
  if (!text) return [];
  return [...new Set([...text.matchAll(SMTP_CODE)].map((m) => m[1]!))];
}

export async function listSenderMonitor(options: {
  db: Database;
  query: SenderMonitorQuery;
}): Promise<SenderMonitorList> {
  const { db, query } = options;
  const at = now();
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(senderAccounts.status, query.status));
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    filters.push(
      or(
        ilike(senderAccounts.fromEmail, pattern),
        ilike(users.email, pattern),
        ilike(senderAccounts.label, pattern),
      )!,
    );
  }
  const after = decodeCursor(query.cursor);
  if (after) {
    filters.push(
      sql`(lower(${senderAccounts.fromEmail}), ${senderAccounts.id}) > (${after.key}, ${after.id}::uuid)`,
    );
  }
  const rows = await db
    .select({ account: senderAccounts, ownerEmail: users.email, idleUntil: imapIdleLeases.leaseUntil })
    .from(senderAccounts)
    .innerJoin(users, eq(users.id, senderAccounts.userId))
    .leftJoin(imapIdleLeases, eq(imapIdleLeases.senderAccountId, senderAccounts.id))
    .where(filters.length > 0 ? and(...filters) : undefined)
    .orderBy(sql`lower(${senderAccounts.fromEmail})`, asc(senderAccounts.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);

  const totalsRows = await db
    .select({ status: senderAccounts.status, value: count() })
    .from(senderAccounts)
    .groupBy(senderAccounts.status);
  const totals = { active: 0, paused: 0, failing: 0 };
  for (const row of totalsRows) totals[row.status] = row.value;

  const accountIds = page.map((r) => r.account.id);
  const ownerIds = [...new Set(page.map((r) => r.account.userId))];
  const dayAgo = new Date(at.getTime() - 24 * HOUR_MS).toISOString();
  const weekAgo = new Date(at.getTime() - 7 * 24 * HOUR_MS).toISOString();

  type Counts = { sent: number; bounced: number; complained: number; failed: number };
  const zero = (): Counts => ({ sent: 0, bounced: 0, complained: 0, failed: 0 });
  const day = new Map<string, Counts>();
  const week = new Map<string, Counts>();
  const codes = new Map<string, Map<string, number>>();
  const deferred = new Map<string, number>();
  const addCode = (accountId: string, code: string, n: number) => {
    const byCode = codes.get(accountId) ?? new Map<string, number>();
    byCode.set(code, (byCode.get(code) ?? 0) + n);
    codes.set(accountId, byCode);
  };

  if (accountIds.length > 0) {
    const idList = sql.join(
      accountIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const ownerList = sql.join(
      ownerIds.map((id) => sql`${id}`),
      sql`, `,
    );
    // The week and the day, each counted as: whole UTC hours from the per-account roll-up (events up to
    // its watermark), the window's first part-hour from the events themselves (through the campaign
    // index, at most an hour of them), and the events after the watermark (a primary-key range). Every
    // event is in exactly one part; no part grows with the window's volume beyond an hour.
    const weekHour = nextHourAfter(weekAgo);
    const dayHour = nextHourAfter(dayAgo);
    const ownCampaigns = sql`campaign_id IN (SELECT id FROM campaigns WHERE user_id IN (${ownerList}))
          AND type IN ('sent', 'bounced', 'complained', 'failed') AND sender_account_id IN (${idList})`;
    // In one snapshot with the watermark, so a roll-up committed meanwhile is not counted twice.
    const eventRows = await withRollupSnapshot(db, async (tx, { lastEventId: watermark }) =>
      rowsOf<{ account_id: string; type: keyof Counts; day: number; week: number }>(
        await tx.execute(sql`
        SELECT account_id, type, sum(day)::bigint AS day, sum(week)::bigint AS week FROM (
          SELECT sender_account_id AS account_id, type,
            coalesce(sum(count) FILTER (WHERE hour >= ${dayHour}::timestamptz), 0) AS day, sum(count) AS week
          FROM platform_account_hourly
          WHERE sender_account_id IN (${idList}) AND hour >= ${weekHour}::timestamptz
          GROUP BY 1, 2
          UNION ALL
          SELECT sender_account_id, type, 0, count(*) FROM email_events
          WHERE ${ownCampaigns} AND id <= ${watermark}
            AND occurred_at > ${weekAgo}::timestamptz AND occurred_at < ${weekHour}::timestamptz
          GROUP BY 1, 2
          UNION ALL
          SELECT sender_account_id, type, count(*), 0 FROM email_events
          WHERE ${ownCampaigns} AND id <= ${watermark}
            AND occurred_at > ${dayAgo}::timestamptz AND occurred_at < ${dayHour}::timestamptz
          GROUP BY 1, 2
          UNION ALL
          SELECT sender_account_id, type, count(*) FILTER (WHERE occurred_at > ${dayAgo}::timestamptz), count(*)
          FROM email_events
          WHERE ${ownCampaigns} AND id > ${watermark} AND occurred_at > ${weekAgo}::timestamptz
          GROUP BY 1, 2
        ) parts
        GROUP BY 1, 2`),
      ),
    );
    for (const row of eventRows) {
      const d = day.get(row.account_id) ?? zero();
      const w = week.get(row.account_id) ?? zero();
      d[row.type] += Number(row.day);
      w[row.type] += Number(row.week);
      day.set(row.account_id, d);
      week.set(row.account_id, w);
    }

    // The failures' words, for their SMTP codes (grouped: the same reply repeats across messages).
    const failureRows = rowsOf<{ account_id: string; detail: string | null; n: number }>(
      await db.execute(sql`
        SELECT sender_account_id AS account_id, left(detail, 500) AS detail, count(*)::int AS n
        FROM email_events
        WHERE campaign_id IN (SELECT id FROM campaigns WHERE user_id IN (${ownerList}))
          AND type IN ('failed', 'bounced')
          AND occurred_at > ${dayAgo}::timestamptz
          AND sender_account_id IN (${idList})
        GROUP BY 1, 2
        LIMIT 5000`),
    );
    for (const row of failureRows) {
      for (const code of smtpCodesIn(row.detail)) addCode(row.account_id, code, Number(row.n));
    }

    // Messages put back after a temporary failure from this account, waiting for their next attempt.
    const deferredRows = rowsOf<{ account_id: string; reason: string | null; n: number }>(
      await db.execute(sql`
        SELECT sender_account_id AS account_id, left(last_error, 500) AS reason, count(*)::int AS n
        FROM outbox_messages
        WHERE state = 'queued' AND attempts > 0 AND sender_account_id IN (${idList})
        GROUP BY 1, 2
        LIMIT 5000`),
    );
    for (const row of deferredRows) {
      deferred.set(row.account_id, (deferred.get(row.account_id) ?? 0) + Number(row.n));
      for (const code of smtpCodesIn(row.reason)) addCode(row.account_id, code, Number(row.n));
    }
  }

  const accounts: SenderMonitorRow[] = page.map(({ account, ownerEmail, idleUntil }) => {
    let capToday = account.dailyCap;
    let sentToday = 0;
    try {
      capToday = effectiveDailyCap(account, at);
      sentToday = sentTodayOf(account, at);
    } catch {
      // An unknown time zone (saved before the check): the account sits out of rotation anyway.
    }
    const last24 = day.get(account.id) ?? zero();
    return {
      id: account.id,
      ownerId: account.userId,
      ownerEmail,
      label: account.label,
      fromEmail: account.fromEmail,
      status: account.status,
      statusReason: account.statusReason,
      statusChangedAt: iso(account.statusChangedAt),
      timeZone: account.timeZone,
      sentToday,
      capToday,
      cooldownUntil: account.cooldownUntil && account.cooldownUntil > at ? iso(account.cooldownUntil) : null,
      errors24h: last24.failed,
      smtpCodes: [...(codes.get(account.id) ?? new Map<string, number>()).entries()]
        .map(([code, n]) => ({ code, count: n }))
        .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
      deferred: deferred.get(account.id) ?? 0,
      last24h: rates(last24),
      last7d: rates(week.get(account.id) ?? zero()),
      imapEnabled: account.imapEnabled,
      imapIdle: account.imapEnabled && idleUntil !== null && idleUntil > at,
      imapCheckedAt: iso(account.imapCheckedAt),
      imapError: account.imapError,
    };
  });
  const last = page.at(-1);
  return {
    generatedAt: at.toISOString(),
    accounts,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor(last.account.fromEmail.toLowerCase(), last.account.id)
        : null,
    totals,
  };
}

async function ownerOf(db: Database, id: string): Promise<{ userId: string; fromEmail: string }> {
  const [row] = await db
    .select({ userId: senderAccounts.userId, fromEmail: senderAccounts.fromEmail })
    .from(senderAccounts)
    .where(eq(senderAccounts.id, id))
    .limit(1);
  if (!row) throw notFound('Sender account not found');
  return row;
}

/** An admin stops an account (as its owner could); campaigns carry on through its other accounts. */
export async function pauseSenderByAdmin(options: { db: Database; actor: AuditActor; id: string }) {
  const owner = await ownerOf(options.db, options.id);
  const account = await pauseSenderAccount({ db: options.db, userId: owner.userId, id: options.id });
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'sender_account.paused',
    targetType: 'sender_account',
    targetId: options.id,
    details: { targetEmail: owner.fromEmail, userId: owner.userId },
  });
  return account;
}

/** Back to active; a failing account forgets its reason and its failure run (the owner's own resume). */
export async function resumeSenderByAdmin(options: { db: Database; actor: AuditActor; id: string }) {
  const owner = await ownerOf(options.db, options.id);
  const account = await resumeSenderAccount({ db: options.db, userId: owner.userId, id: options.id });
  await recordAuditEntry({
    db: options.db,
    actor: options.actor,
    action: 'sender_account.resumed',
    targetType: 'sender_account',
    targetId: options.id,
    details: { targetEmail: owner.fromEmail, userId: owner.userId },
  });
  return account;
}
