import type { Database } from '@server/db/client';
import { emailVerifications, listContacts, listVerifications, users } from '@server/db/schema';
import type { Env } from '@server/env';
import type { Queue } from '@server/jobs/queue';
import { now, startOfNextUtcMonth, startOfUtcMonth } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import {
  EMAIL_VERIFICATION_REASONS,
  type EmailVerificationReason,
  type ListVerification,
  VERIFICATION_MAX_AGE_DAYS,
  type VerificationAllowance,
} from '@shared/verification';
import { and, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import { getListById } from '../lists/lists.service';
import { assertWithinLimit, getPlanLimits } from '../plans/plan-limits.service';
import {
  dnsMailHosts,
  normaliseForVerification,
  type VerifierOptions,
  verifyAddresses,
} from './verify-addresses';

export const VERIFY_LIST_JOB = 'verify-list';
const BATCH = 200;

/** The verifier as production runs it: DNS, port 25, introducing itself by the app's host name. */
export function productionVerifier(env: Pick<Env, 'APP_URL'>): VerifierOptions {
  const host = new URL(env.APP_URL).hostname;
  return { mailHostsOf: dnsMailHosts(), heloName: host, mailFrom: `verify@${host}` };
}

/**
 * Verifies what has no fresh result (none, older than the age limit, or greylisted and due again) and
 * records the results. Answers how many addresses were probed.
 */
export async function verifyAndRecord(options: {
  db: Database;
  emails: readonly string[];
  verifier: VerifierOptions;
}): Promise<number> {
  const { db } = options;
  const normal = [
    ...new Set(options.emails.map((e) => normaliseForVerification(e)?.email ?? e.trim().toLowerCase())),
  ];
  if (normal.length === 0) return 0;
  const fresh = await db
    .select({ email: emailVerifications.email })
    .from(emailVerifications)
    .where(
      and(
        inArray(emailVerifications.email, normal),
        gt(emailVerifications.checkedAt, sql`now() - make_interval(days => ${VERIFICATION_MAX_AGE_DAYS})`),
        sql`(${emailVerifications.retryAt} IS NULL OR ${emailVerifications.retryAt} > now())`,
      ),
    );
  const skip = new Set(fresh.map((row) => row.email));
  return probeAndRecord(
    db,
    normal.filter((email) => !skip.has(email)),
    options.verifier,
  );
}

/** Asks the mail servers about `due` (normalised addresses) and records each answer. */
async function probeAndRecord(db: Database, due: string[], verifier: VerifierOptions): Promise<number> {
  if (due.length === 0) return 0;
  const verdicts = await verifyAddresses(due, verifier);
  await db
    .insert(emailVerifications)
    .values(verdicts.map((v) => ({ ...v, checkedAt: sql`now()` })))
    .onConflictDoUpdate({
      target: emailVerifications.email,
      set: {
        domain: sql`excluded.domain`,
        status: sql`excluded.status`,
        reason: sql`excluded.reason`,
        smtpCode: sql`excluded.smtp_code`,
        mxHost: sql`excluded.mx_host`,
        checkedAt: sql`excluded.checked_at`,
        retryAt: sql`excluded.retry_at`,
      },
    });
  return due.length;
}

/**
 * The addresses among `emails` (as given) whose latest verdict is one of `statuses`: what an audience
 * leaves out before sending. Addresses never verified are not in it.
 */
export async function addressesJudged(options: {
  db: Database;
  emails: readonly string[];
  statuses: readonly ('invalid' | 'risky')[];
}): Promise<Set<string>> {
  if (options.emails.length === 0 || options.statuses.length === 0) return new Set();
  const normalOf = new Map(
    options.emails.map((e) => [e, normaliseForVerification(e)?.email ?? e.trim().toLowerCase()]),
  );
  const rows = await options.db
    .select({ email: emailVerifications.email })
    .from(emailVerifications)
    .where(
      and(
        // One array parameter for the addresses (a whole audience batch): inArray builds one per address.
        sql`${emailVerifications.email} = ANY(${sql.param([...new Set(normalOf.values())])}::text[])`,
        inArray(emailVerifications.status, [...options.statuses]),
      ),
    );
  const judged = new Set(rows.map((row) => row.email));
  return new Set(options.emails.filter((e) => judged.has(normalOf.get(e)!)));
}

/**
 * Addresses the user's runs have spent of this month's allowance: a run spends its list's size when it
 * starts; one that failed part-way spends only what it checked.
 */
async function verifiedThisMonth(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({
      used: sql<number>`coalesce(sum(CASE WHEN ${listVerifications.state} = 'failed'
        THEN ${listVerifications.checked} ELSE ${listVerifications.total} END), 0)::int`,
    })
    .from(listVerifications)
    .where(
      and(eq(listVerifications.userId, userId), gte(listVerifications.createdAt, startOfUtcMonth(now()))),
    );
  return Number(row?.used ?? 0);
}

async function allowanceOf(db: Database, userId: string): Promise<VerificationAllowance> {
  const [limits, used] = await Promise.all([getPlanLimits({ db, userId }), verifiedThisMonth(db, userId)]);
  const limit = limits.verifications;
  return {
    planName: limits.planName,
    limit,
    usedThisMonth: used,
    remaining: limit < 0 ? null : Math.max(0, limit - used),
    renewsAt: startOfNextUtcMonth(now()).toISOString(),
  };
}

/**
 * POST /api/lists/:id/verify. The list's size is checked against the plan's monthly allowance and the run
 * recorded in one transaction with the user's row locked, so two runs started at once cannot both spend
 * the last of it.
 */
export async function startListVerification(options: {
  db: Database;
  queue: Queue;
  userId: string;
  listId: string;
}): Promise<ListVerification> {
  const { db, userId, listId } = options;
  const list = await getListById({ db, userId, id: listId });
  if (list.contactCount === 0) throw new AppError('validation', 'This list has no contacts to verify');
  const runId = await db.transaction(async (tx) => {
    const txDb = tx as unknown as Database;
    await tx.execute(sql`SELECT id FROM ${users} WHERE id = ${userId} FOR UPDATE`);
    const [running] = await tx
      .select({ id: listVerifications.id })
      .from(listVerifications)
      .where(
        and(eq(listVerifications.listId, listId), inArray(listVerifications.state, ['queued', 'running'])),
      );
    if (running) throw new AppError('conflict', 'This list is already being verified');
    await assertWithinLimit({
      db: txDb,
      userId,
      limit: 'verifications',
      used: await verifiedThisMonth(txDb, userId),
      adding: list.contactCount,
    });
    const [run] = await tx
      .insert(listVerifications)
      .values({ userId, listId, total: list.contactCount })
      .returning({ id: listVerifications.id });
    return run!.id;
  });
  await options.queue.send(VERIFY_LIST_JOB, { runId });
  return getListVerification({ db, userId, listId });
}

/** Works through a run's list in id order, saving progress after each batch (a restart resumes). */
export async function runListVerification(options: {
  db: Database;
  runId: string;
  verifier: VerifierOptions;
}): Promise<void> {
  const { db } = options;
  const [run] = await db
    .update(listVerifications)
    .set({ state: 'running' })
    .where(
      and(eq(listVerifications.id, options.runId), inArray(listVerifications.state, ['queued', 'running'])),
    )
    .returning();
  if (!run) return;
  try {
    let lastId = 0;
    let checked = 0;
    for (;;) {
      const rows = await db
        .select({ id: listContacts.id, email: listContacts.emailNormalized })
        .from(listContacts)
        .where(
          and(
            eq(listContacts.listId, run.listId),
            eq(listContacts.userId, run.userId),
            gt(listContacts.id, lastId),
          ),
        )
        .orderBy(listContacts.id)
        .limit(BATCH);
      if (rows.length === 0) break;
      await verifyAndRecord({ db, emails: rows.map((row) => row.email), verifier: options.verifier });
      checked += rows.length;
      lastId = rows[rows.length - 1]!.id;
      await db
        .update(listVerifications)
        .set({ checked: sql`least(${checked}, ${listVerifications.total})` })
        .where(eq(listVerifications.id, run.id));
    }
    await db
      .update(listVerifications)
      .set({ state: 'completed', checked: sql`${listVerifications.total}`, finishedAt: sql`now()` })
      .where(eq(listVerifications.id, run.id));
  } catch (error) {
    await db
      .update(listVerifications)
      .set({ state: 'failed', error: (error as Error).message.slice(0, 300), finishedAt: sql`now()` })
      .where(eq(listVerifications.id, run.id));
    throw error;
  }
}

export async function getListVerification(options: {
  db: Database;
  userId: string;
  listId: string;
}): Promise<ListVerification> {
  const { db, userId, listId } = options;
  await getListById({ db, userId, id: listId });
  const [run] = await db
    .select()
    .from(listVerifications)
    .where(and(eq(listVerifications.userId, userId), eq(listVerifications.listId, listId)))
    .orderBy(desc(listVerifications.createdAt))
    .limit(1);
  const grouped = await db
    .select({
      status: sql<string>`coalesce(${emailVerifications.status}, 'unchecked')`,
      reason: emailVerifications.reason,
      n: sql<number>`count(*)::int`,
    })
    .from(listContacts)
    .leftJoin(emailVerifications, eq(emailVerifications.email, listContacts.emailNormalized))
    .where(and(eq(listContacts.userId, userId), eq(listContacts.listId, listId)))
    .groupBy(sql`1`, emailVerifications.reason);
  const breakdown = { valid: 0, risky: 0, invalid: 0, unknown: 0, unchecked: 0 };
  const reasons: ListVerification['reasons'] = [];
  for (const row of grouped) {
    breakdown[row.status as keyof typeof breakdown] += Number(row.n);
    if (row.reason) {
      reasons.push({
        reason: row.reason,
        label: EMAIL_VERIFICATION_REASONS[row.reason as EmailVerificationReason] ?? row.reason,
        count: Number(row.n),
      });
    }
  }
  reasons.sort((a, b) => b.count - a.count);
  return {
    run: run
      ? {
          id: run.id,
          state: run.state,
          total: run.total,
          checked: run.checked,
          error: run.error,
          createdAt: run.createdAt.toISOString(),
          finishedAt: run.finishedAt?.toISOString() ?? null,
        }
      : null,
    breakdown,
    reasons,
    allowance: await allowanceOf(db, userId),
  };
}

/**
 * How long a recheck holds the greylisted addresses it took. Its probes end well within it (1,000
 * addresses, a few connections per server); a pass that dies leaves its addresses to be asked once the
 * hold runs out, like any greylisted address whose wait is over.
 */
const RECHECK_HOLD_MINUTES = 30;

/**
 * Greylisted addresses whose wait is over are asked again (a scheduled pass, every 5 minutes). Each pass
 * first takes its addresses by moving their retry time past its own end, so a second pass (the schedule
 * firing again while a slow pass still probes, or a pass on another worker) leaves them alone: two passes
 * asked every address twice, and a receiving server that greylists counts the repeats against us. SKIP
 * LOCKED lets two passes that start together take different addresses. The answer sets the retry time
 * again (none, or a new wait if the server still defers).
 */
export async function recheckGreylisted(options: {
  db: Database;
  verifier: VerifierOptions;
  limit?: number;
}) {
  const taken: unknown = await options.db.execute(sql`
    UPDATE email_verifications SET retry_at = now() + make_interval(mins => ${RECHECK_HOLD_MINUTES})
    WHERE email IN (
      SELECT email FROM email_verifications
      WHERE retry_at IS NOT NULL AND retry_at <= now()
      ORDER BY retry_at
      LIMIT ${options.limit ?? 1000}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING email`);
  const emails = (taken as { rows: { email: string }[] }).rows.map((row) => row.email);
  return probeAndRecord(options.db, emails, options.verifier);
}
