import type { Database } from '@server/db/client';
import { directoryContacts, emailVerifications } from '@server/db/schema';
import { now } from '@server/lib/clock';
import { EMAIL_VERIFICATION_REASONS } from '@shared/verification';
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { verifyAndRecord } from './verification.service';
import { normaliseForVerification, type VerifierOptions } from './verify-addresses';

/*
 * The shared directory's email evidence. Records the verifier has never asked about come first, then
 * those whose last answer is older than 90 days. The mail server's answer becomes the record's status:
 * - accepted → verified (method email_check, dated), unless an officer verified it within the 90 days;
 * - rejected, no mail server, bad syntax, disposable → invalid, with the reason in words, whoever verified;
 * - anything undecided (catch-all, role, full, greylisted, unreachable) leaves the status as it is.
 * Sample records are never asked (they are on reserved domains and never verified).
 */

export const DIRECTORY_REVERIFY_DAYS = 90;
/** Records asked per run; hourly that is 24,000 a day, a 1M directory every ~6 weeks. */
export const DIRECTORY_VERIFY_BATCH = 1_000;
/** verifiedBy for a status the verifier set (an officer's id otherwise). */
export const EMAIL_CHECK_VERIFIER = 'email_check';

const DAY_MS = 86_400_000;

export interface DirectoryVerificationRun {
  asked: number;
  verified: number;
  invalid: number;
  undecided: number;
}

export async function verifyDueDirectoryRecords(options: {
  db: Database;
  verifier: VerifierOptions;
  limit?: number;
  /** Only these records (an admin's re-check of chosen records; tests). */
  ids?: readonly string[];
}): Promise<DirectoryVerificationRun> {
  const { db } = options;
  const at = now();
  const staleBefore = new Date(at.getTime() - DIRECTORY_REVERIFY_DAYS * DAY_MS);
  const t = directoryContacts;
  const due = await db
    .select({ id: t.id, email: t.email, verifiedBy: t.verifiedBy, verifiedAt: t.verifiedAt })
    .from(t)
    .where(
      and(
        isNull(t.deletedAt),
        eq(t.synthetic, false),
        or(isNull(t.emailCheckedAt), lt(t.emailCheckedAt, staleBefore)),
        options.ids ? inArray(t.id, [...options.ids]) : undefined,
      ),
    )
    .orderBy(sql`${t.emailCheckedAt} NULLS FIRST`, asc(t.id))
    .limit(options.limit ?? DIRECTORY_VERIFY_BATCH);
  const run: DirectoryVerificationRun = { asked: due.length, verified: 0, invalid: 0, undecided: 0 };
  if (due.length === 0) return run;

  const normalOf = (email: string) => normaliseForVerification(email)?.email ?? email.trim().toLowerCase();
  await verifyAndRecord({ db, emails: due.map((row) => row.email), verifier: options.verifier });
  const answers = await db
    .select({
      email: emailVerifications.email,
      status: emailVerifications.status,
      reason: emailVerifications.reason,
      checkedAt: emailVerifications.checkedAt,
      retryAt: emailVerifications.retryAt,
    })
    .from(emailVerifications)
    .where(inArray(emailVerifications.email, [...new Set(due.map((row) => normalOf(row.email)))]));
  const answerOf = new Map(answers.map((a) => [a.email, a]));

  const verified: string[] = [];
  const invalid = new Map<string, string[]>();
  const asked: string[] = [];
  for (const row of due) {
    const answer = answerOf.get(normalOf(row.email));
    // A greylisted answer is asked again when its wait is over: the record stays first in line.
    if (!answer || answer.retryAt) {
      run.undecided += 1;
      continue;
    }
    asked.push(row.id);
    const officerRecently =
      row.verifiedBy !== null &&
      row.verifiedBy !== EMAIL_CHECK_VERIFIER &&
      row.verifiedAt !== null &&
      row.verifiedAt > staleBefore;
    if (answer.status === 'valid' && !officerRecently) {
      verified.push(row.id);
    } else if (answer.status === 'invalid') {
      const reason = EMAIL_VERIFICATION_REASONS[answer.reason as keyof typeof EMAIL_VERIFICATION_REASONS];
      invalid.set(reason, [...(invalid.get(reason) ?? []), row.id]);
    } else if (answer.status !== 'valid') {
      run.undecided += 1;
    }
  }

  await db.transaction(async (tx) => {
    if (verified.length > 0) {
      await tx
        .update(t)
        .set({
          verificationStatus: 'verified',
          verifiedAt: at,
          verifiedBy: EMAIL_CHECK_VERIFIER,
          invalidReason: null,
          updatedAt: at,
        })
        .where(inArray(t.id, verified));
    }
    for (const [reason, ids] of invalid) {
      await tx
        .update(t)
        .set({
          verificationStatus: 'invalid',
          verifiedAt: null,
          verifiedBy: null,
          invalidReason: reason,
          updatedAt: at,
        })
        .where(inArray(t.id, ids));
    }
    if (asked.length > 0) await tx.update(t).set({ emailCheckedAt: at }).where(inArray(t.id, asked));
  });
  run.verified = verified.length;
  run.invalid = [...invalid.values()].reduce((sum, ids) => sum + ids.length, 0);
  return run;
}
