import type { Database } from '@server/db/client';
import { plainRowReader } from '@server/db/plain-rows';
import { senderAccounts } from '@server/db/schema';
import { isIanaTimeZone } from '@shared/time-zone';
import { sql } from 'drizzle-orm';
import { accountLocalDate, effectiveDailyCap } from '../sender-accounts/sender-accounts.service';
import { startOfNextLocalDay } from './send-window';

export type SenderAccountRow = typeof senderAccounts.$inferSelect;

/** A campaign's accounts are read for every batch: without drizzle's query builder and mapping (plain-rows.ts). */
const accountRows = plainRowReader(senderAccounts);

export interface Allocation {
  /** accounts[i] sends message i; null when no account may send it now. */
  accounts: (SenderAccountRow | null)[];
  /** For a message left without an account because its own account is resting or full: when that frees. */
  waitUntil: (Date | null)[];
  /** When the first of the campaign's accounts may send again (gap, cool-down or a new day); null if none will. */
  nextAvailableAt: Date | null;
}

interface Candidate {
  row: SenderAccountRow;
  day: string;
  used: number;
  remaining: number;
  lastUsedMs: number;
  takes: number;
}

/**
 * Least Used rotation for `count` messages of one campaign, atomically.
 *
 * The campaign's eligible accounts (active, not cooling down, past their random gap) are locked in one
 * transaction (`FOR NO KEY UPDATE`, in id order so two allocations never deadlock), each message goes to the account
 * with the fewest sends today (its own time zone's day), ties to the least recently used, never past the
 * account's cap for today (the warm-up ramp included), and the new counts are written before the lock is
 * released. A second worker allocating at the same moment waits for the lock and then sees the new
 * counts, so no account passes its cap however many workers run. With a gap configured, an account takes
 * at most one message per allocation and is then unavailable for a random gap.
 *
 * A message with a preferred account (a follow-up replying in its thread, which should come from the
 * account that sent the message it answers) is served first and only by that account while the account
 * is active and still one of the campaign's: when it is resting or full, the message waits for it
 * (`waitUntil`). Once the account is paused, failing or taken off the campaign, Least Used picks another.
 */
export async function allocateSenders(options: {
  db: Database;
  campaignId: string;
  count: number;
  at: Date;
  gapMinSeconds: number;
  gapMaxSeconds: number;
  /** preferredAccountIds[i]: the account message i should go from, or null for any. */
  preferredAccountIds?: readonly (string | null)[];
  random?: () => number;
}): Promise<Allocation> {
  const { at, count } = options;
  const random = options.random ?? Math.random;
  const gapped = options.gapMaxSeconds > 0;
  return options.db.transaction(async (tx) => {
    // NO KEY UPDATE, not UPDATE: allocations still queue behind each other, but the foreign-key checks
    // of other workers' outbox and event writes (KEY SHARE on these rows, taken in any order) do not
    // wait on us, which is what deadlocked three workers with a plain FOR UPDATE.
    const rows = accountRows.read(
      await tx.execute(sql`
        SELECT ${accountRows.selection} FROM sender_accounts
        WHERE id IN (SELECT sender_account_id FROM campaign_sender_accounts WHERE campaign_id = ${options.campaignId})
          AND status = 'active'
        ORDER BY id
        FOR NO KEY UPDATE`),
    );

    let nextAvailableAt: Date | null = null;
    const noteAvailable = (when: Date) => {
      if (!nextAvailableAt || when < nextAvailableAt) nextAvailableAt = when;
    };
    const candidates: Candidate[] = [];
    // Active accounts of the campaign that cannot send now, and when they can again.
    const unavailableUntil = new Map<string, Date>();
    // One date per time zone, not per account: a campaign's accounts mostly share one, and each
    // Intl formatting was a few objects for the garbage collector (bench/dispatch reads 200 accounts a batch).
    const dayByTimeZone = new Map<string, string>();
    for (const row of rows) {
      // An account with a time zone the runtime does not know (saved before zones were checked) has no
      // "today" to count on: it sits out, and the pre-launch check names it, instead of every batch of
      // the campaign throwing.
      if (!isIanaTimeZone(row.timeZone)) continue;
      let day = dayByTimeZone.get(row.timeZone);
      if (day === undefined) {
        day = accountLocalDate(at, row.timeZone);
        dayByTimeZone.set(row.timeZone, day);
      }
      const used = row.sendsDay === day ? row.sendsToday : 0;
      const cap = effectiveDailyCap(row, day);
      const restingUntil = maxDate(row.cooldownUntil, row.nextSendAt);
      if (restingUntil && restingUntil > at) {
        noteAvailable(restingUntil);
        // A thread waits out its account's gap, not a cool-down after errors: another account takes it.
        if (!(row.cooldownUntil && row.cooldownUntil > at)) unavailableUntil.set(row.id, restingUntil);
        continue;
      }
      if (used >= cap) {
        const nextDay = startOfNextLocalDay(at, row.timeZone);
        noteAvailable(nextDay);
        unavailableUntil.set(row.id, nextDay);
        continue;
      }
      candidates.push({
        row,
        day,
        used,
        remaining: cap - used,
        lastUsedMs: row.lastUsedAt?.getTime() ?? 0,
        takes: 0,
      });
    }

    const accounts: (SenderAccountRow | null)[] = new Array(count).fill(null);
    const waitUntil: (Date | null)[] = new Array(count).fill(null);
    const canTake = (c: Candidate) => c.remaining > 0 && !(gapped && c.takes > 0);
    let picks = 0;
    const take = (i: number, c: Candidate) => {
      c.used++;
      c.remaining--;
      c.takes++;
      c.lastUsedMs = at.getTime() + picks++; // later picks of the same batch count as more recent
      accounts[i] = c.row;
    };
    const candidateById = new Map(candidates.map((c) => [c.row.id, c]));
    // Messages bound to their own account first, so the account's capacity goes to its threads.
    const anyAccount: number[] = [];
    for (let i = 0; i < count; i++) {
      const preferred = options.preferredAccountIds?.[i] ?? null;
      const own = preferred === null ? undefined : candidateById.get(preferred);
      if (own) {
        if (canTake(own)) take(i, own);
        else if (own.remaining <= 0) waitUntil[i] = startOfNextLocalDay(at, own.row.timeZone);
        // else: the account's gap after this batch; nextAvailableAt covers it.
      } else if (preferred !== null && unavailableUntil.has(preferred)) {
        waitUntil[i] = unavailableUntil.get(preferred)!;
      } else {
        anyAccount.push(i);
      }
    }
    for (const i of anyAccount) {
      let best: Candidate | null = null;
      for (const c of candidates) {
        if (!canTake(c)) continue;
        if (!best || c.used < best.used || (c.used === best.used && c.lastUsedMs < best.lastUsedMs)) {
          best = c;
        }
      }
      if (best) take(i, best);
    }

    // Accounts this batch filled up are free again on their next day.
    for (const c of candidates) if (c.remaining <= 0) noteAvailable(startOfNextLocalDay(at, c.row.timeZone));
    const taken = candidates.filter((c) => c.takes > 0);
    if (taken.length > 0) {
      const values = sql.join(
        taken.map((c) => {
          const gapMs = gapped
            ? Math.round(
                (options.gapMinSeconds + random() * (options.gapMaxSeconds - options.gapMinSeconds)) * 1000,
              )
            : 0;
          const nextSendAt = gapped ? new Date(at.getTime() + gapMs) : null;
          if (nextSendAt) noteAvailable(nextSendAt);
          return sql`(${c.row.id}::uuid, ${c.used}::int, ${c.day}::date, ${nextSendAt?.toISOString() ?? null}::timestamptz)`;
        }),
        sql`, `,
      );
      await tx.execute(sql`
        UPDATE sender_accounts AS a
        SET sends_today = v.used, sends_day = v.day, last_used_at = ${at.toISOString()}::timestamptz,
            next_send_at = v.next_send_at
        FROM (VALUES ${values}) AS v(id, used, day, next_send_at)
        WHERE a.id = v.id`);
    }
    // Accounts with capacity left but skipped only because of this batch's gap are free again soon.
    return { accounts, waitUntil, nextAvailableAt };
  });
}

/** Gives back a slot taken for a message that did not leave (temporary error, deferral after allocation). */
export async function releaseSenderSlot(options: {
  db: Database;
  accountId: string;
  day: string;
}): Promise<void> {
  await options.db.execute(sql`
    UPDATE sender_accounts SET sends_today = greatest(sends_today - 1, 0)
    WHERE id = ${options.accountId} AND sends_day = ${options.day}::date`);
}

function maxDate(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}
