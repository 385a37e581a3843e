import type { Database } from '@server/db/client';
import {
  campaigns,
  campaignTestRunMessages,
  campaignTestRuns,
  senderAccounts,
} from '@server/db/schema/index';
import type { Queue } from '@server/jobs/queue';
import { now } from '@server/lib/clock';
import { AppError } from '@server/lib/errors';
import {
  TEST_RUN_STEP_GAP_SECONDS,
  TEST_RUNS_PER_HOUR,
  type TestRun,
  type TestRunRequest,
} from '@shared/test-runs';
import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { customFieldsOfLists } from '../lists/lists.service';
import { renderForContact, renderSeed, testSendWarnings } from '../personalization/personalization.service';
import { sendOneOffEmail } from '../sender-accounts/sender-accounts.service';
import { composeTestMessage } from '../sending/sending.service';
import { getCampaignRow } from './campaigns.service';
import { chooseContact, firstActiveAccount, type TestSendContext, userRow } from './preview.service';
import { chooseVariant } from './sequencing';
import { loadSteps } from './steps.service';
import { repliesInThread, replyReferences, replySubject } from './thread-reply';

/** The queue of test-run steps (send-campaign-test-run.job.ts): each step queues the next. */
export const SEND_CAMPAIGN_TEST_RUN_JOB = 'send-campaign-test-run';

/*
 * Test runs (shared/test-runs.ts). Starting one renders every step for one contact of the audience and
 * stores the copies; a job then sends them one a minute, in order, through the campaign's first active
 * sender account, to the user's own address. Threaded follow-ups answer the run's earlier messages with
 * In-Reply-To/References and "Re: [Test] …" (what a mail client threads with "[Test] …").
 *
 * Nothing of the campaign changes: no outbox rows, events, contacts or campaign caps. Each email takes
 * one of the sender account's sends for today (as a one-off test send does), so a test cannot push an
 * account past its daily cap or warm-up ramp.
 */

export const TEST_RUN_MESSAGES = {
  notOwnAddress: 'A test run goes to your own address: your login email or one of your sender accounts.',
  noSteps: 'Add a step to the sequence before a test run.',
  noAccount: 'Add an active sender account to this campaign before a test run.',
  tooMany: `You can start ${TEST_RUNS_PER_HOUR} test runs an hour. Please try again later.`,
  accountGone: 'The sender account of this test run was removed or paused.',
  notSent: 'The email was not sent.',
} as const;

/** A step left in `sending` this long belongs to a worker that died; it is tried again. */
const STALE_SENDING_MS = 5 * 60_000;

/** The addresses a user may send a test run to: their login email, then their sender accounts'. */
export async function listTestRunAddresses(options: { db: Database; userId: string }): Promise<string[]> {
  const user = await userRow(options.db, options.userId);
  const accounts = await options.db
    .select({ fromEmail: senderAccounts.fromEmail })
    .from(senderAccounts)
    .where(eq(senderAccounts.userId, options.userId))
    .orderBy(asc(senderAccounts.createdAt), asc(senderAccounts.id));
  return [...new Set([user.email, ...accounts.map((a) => a.fromEmail)].map((e) => e.trim().toLowerCase()))];
}

export async function startTestRun(options: {
  db: Database;
  queue: Queue | null;
  userId: string;
  campaignId: string;
  input: TestRunRequest;
}): Promise<TestRun> {
  const { db, userId } = options;
  const campaign = await getCampaignRow({ db, userId, id: options.campaignId });
  const addresses = await listTestRunAddresses({ db, userId });
  const to = (options.input.to ?? addresses[0]!).trim().toLowerCase();
  if (!addresses.includes(to)) throw new AppError('bad_request', TEST_RUN_MESSAGES.notOwnAddress);
  const steps = await loadSteps({ db, campaignId: campaign.id });
  if (steps.length === 0) throw new AppError('conflict', TEST_RUN_MESSAGES.noSteps);
  const account = await firstActiveAccount(db, campaign);
  if (account?.status !== 'active') throw new AppError('conflict', TEST_RUN_MESSAGES.noAccount);
  const user = await userRow(db, userId);
  const chosen = await chooseContact({
    db,
    campaign,
    role: user.role,
    email: options.input.email,
    campaignContactId: options.input.campaignContactId,
  });
  const sender = { fromName: account.fromName, fromEmail: account.fromEmail, company: account.company };
  // The contact's key for the A/B split and spintax: their campaign row once copied in, else the address.
  const contactKey =
    'id' in chosen.contact && chosen.contact.id ? String(chosen.contact.id) : chosen.contact.email;

  const at = now();
  const copies: { position: number; subject: string; html: string; threaded: boolean }[] = [];
  let threadSubject: string | null = null;
  const warnings: string[] = [];
  const knownFields = await customFieldsOfLists(db, userId, campaign.audience.listIds ?? []);
  for (const step of [...steps].sort((a, b) => a.position - b.position)) {
    const variant = chooseVariant(step, contactKey);
    if (!variant) continue;
    for (const warning of testSendWarnings({ subject: variant.subject, html: variant.bodyHtml, knownFields }))
      warnings.push(`Step ${step.position}: ${warning}`);
    const rendered = renderForContact({
      subject: variant.subject,
      html: variant.bodyHtml,
      contact: chosen.contact,
      sender,
      seed: renderSeed({ campaignId: campaign.id, stepId: step.id, email: chosen.contact.email }),
    });
    const answers: string | null = repliesInThread(step, variant) ? threadSubject : null;
    const subject: string = answers !== null ? replySubject(answers) : `[Test] ${rendered.subject}`;
    if (answers === null) threadSubject = subject;
    const threaded = answers !== null;
    copies.push({ position: step.position, subject, html: rendered.html, threaded });
  }

  const runId = await db.transaction(async (tx) => {
    // One user's runs are counted and added one at a time, so two quick clicks cannot pass the limit.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`test-runs:${userId}`}))`);
    const [recent] = await tx
      .select({ n: count() })
      .from(campaignTestRuns)
      .where(
        and(
          eq(campaignTestRuns.userId, userId),
          gt(campaignTestRuns.createdAt, new Date(at.getTime() - 60 * 60_000)),
        ),
      );
    if ((recent?.n ?? 0) >= TEST_RUNS_PER_HOUR) throw new AppError('rate_limited', TEST_RUN_MESSAGES.tooMany);
    const [run] = await tx
      .insert(campaignTestRuns)
      .values({
        userId,
        campaignId: campaign.id,
        senderAccountId: account.id,
        toEmail: to,
        contactEmail: chosen.contact.email,
        sample: chosen.sample,
        createdAt: at,
      })
      .returning({ id: campaignTestRuns.id });
    await tx.insert(campaignTestRunMessages).values(
      copies.map((copy, index) => ({
        runId: run!.id,
        userId,
        ...copy,
        sendAfter: new Date(at.getTime() + index * TEST_RUN_STEP_GAP_SECONDS * 1000),
        updatedAt: at,
      })),
    );
    return run!.id;
  });
  await options.queue?.send(SEND_CAMPAIGN_TEST_RUN_JOB, { testRunId: runId });
  return { ...(await getTestRun({ db, userId, campaignId: campaign.id, testRunId: runId })), warnings };
}

export async function getTestRun(options: {
  db: Database;
  userId: string;
  campaignId: string;
  testRunId?: string;
}): Promise<TestRun> {
  const run = await findTestRun(options);
  if (!run) throw new AppError('not_found', 'Test run not found');
  return run;
}

/** The given run of the campaign, or its latest when no id is given; null when there is none. */
export async function findTestRun(options: {
  db: Database;
  userId: string;
  campaignId: string;
  testRunId?: string;
}): Promise<TestRun | null> {
  const { db } = options;
  const campaign = await getCampaignRow({ db, userId: options.userId, id: options.campaignId });
  const [run] = await db
    .select({ run: campaignTestRuns, senderEmail: senderAccounts.fromEmail })
    .from(campaignTestRuns)
    .leftJoin(senderAccounts, eq(senderAccounts.id, campaignTestRuns.senderAccountId))
    .where(
      and(
        eq(campaignTestRuns.campaignId, campaign.id),
        eq(campaignTestRuns.userId, options.userId),
        options.testRunId ? eq(campaignTestRuns.id, options.testRunId) : undefined,
      ),
    )
    .orderBy(desc(campaignTestRuns.createdAt), desc(campaignTestRuns.id))
    .limit(1);
  if (!run) return null;
  const steps = await db
    .select()
    .from(campaignTestRunMessages)
    .where(eq(campaignTestRunMessages.runId, run.run.id))
    .orderBy(asc(campaignTestRunMessages.position));
  return {
    id: run.run.id,
    campaignId: run.run.campaignId,
    to: run.run.toEmail,
    contactEmail: run.run.contactEmail,
    sample: run.run.sample,
    senderEmail: run.senderEmail ?? null,
    createdAt: run.run.createdAt.toISOString(),
    steps: steps.map((s) => ({
      position: s.position,
      subject: s.subject,
      threaded: s.threaded,
      state: s.state,
      sendAfter: s.sendAfter.toISOString(),
      sentAt: s.sentAt?.toISOString() ?? null,
      error: s.error,
    })),
  };
}

type MessageRow = typeof campaignTestRunMessages.$inferSelect;

/** The thread a threaded step answers: the last sent message and the ids of its thread, oldest first. */
function threadBefore(rows: MessageRow[], position: number): { parentId: string; ids: string[] } | null {
  let ids: string[] = [];
  for (const row of rows) {
    if (row.position >= position || row.state !== 'sent' || !row.messageId) continue;
    ids = row.threaded && ids.length > 0 ? [...ids, row.messageId] : [row.messageId];
  }
  const parentId = ids.at(-1);
  return parentId ? { parentId, ids } : null;
}

/**
 * Sends the run's next step when it is due and nobody else is sending it; queues the job again for
 * the step after. Safe to run twice: a step is claimed (queued → sending) before it is sent.
 */
export async function sendNextTestRunStep(
  options: TestSendContext & { queue: Queue | null; log: FastifyBaseLogger; testRunId: string },
): Promise<{ sent: number; failed: number; remaining: number }> {
  const { db } = options;
  const [run] = await db.select().from(campaignTestRuns).where(eq(campaignTestRuns.id, options.testRunId));
  if (!run) return { sent: 0, failed: 0, remaining: 0 };
  const rows = await db
    .select()
    .from(campaignTestRunMessages)
    .where(eq(campaignTestRunMessages.runId, run.id))
    .orderBy(asc(campaignTestRunMessages.position));
  const pending = rows.filter((r) => r.state === 'queued' || r.state === 'sending');
  const next = pending[0];
  if (!next) return { sent: 0, failed: 0, remaining: 0 };
  const at = now();
  const later = async (when: Date) => {
    await options.queue?.send(SEND_CAMPAIGN_TEST_RUN_JOB, { testRunId: run.id }, { startAfter: when });
  };
  // In order: while one step is being sent (by a live worker), the next waits.
  if (next.state === 'sending' && next.updatedAt.getTime() > at.getTime() - STALE_SENDING_MS) {
    return { sent: 0, failed: 0, remaining: pending.length };
  }
  if (next.sendAfter > at) {
    await later(next.sendAfter);
    return { sent: 0, failed: 0, remaining: pending.length };
  }
  const [claimed] = await db
    .update(campaignTestRunMessages)
    .set({ state: 'sending', updatedAt: at })
    .where(
      and(
        eq(campaignTestRunMessages.id, next.id),
        eq(campaignTestRunMessages.state, next.state),
        eq(campaignTestRunMessages.updatedAt, next.updatedAt),
      ),
    )
    .returning({ id: campaignTestRunMessages.id });
  if (!claimed) return { sent: 0, failed: 0, remaining: pending.length };

  let outcome: { state: 'sent'; messageId: string } | { state: 'failed'; error: string };
  try {
    outcome = { state: 'sent', messageId: await sendStep(options, run, next, rows) };
  } catch (error) {
    if (!(error instanceof AppError))
      options.log.warn({ err: error, testRunId: run.id }, 'test run step failed');
    outcome = {
      state: 'failed',
      error: error instanceof AppError ? error.message : TEST_RUN_MESSAGES.notSent,
    };
  }
  const done = now();
  await db
    .update(campaignTestRunMessages)
    .set(
      outcome.state === 'sent'
        ? { state: 'sent', sentAt: done, messageId: outcome.messageId, error: null, updatedAt: done }
        : { state: 'failed', error: outcome.error.slice(0, 500), updatedAt: done },
    )
    .where(eq(campaignTestRunMessages.id, next.id));
  const after = pending[1];
  if (after) await later(new Date(Math.max(after.sendAfter.getTime(), done.getTime())));
  return {
    sent: outcome.state === 'sent' ? 1 : 0,
    failed: outcome.state === 'failed' ? 1 : 0,
    remaining: pending.length - 1,
  };
}

async function sendStep(
  options: TestSendContext,
  run: typeof campaignTestRuns.$inferSelect,
  row: MessageRow,
  rows: MessageRow[],
): Promise<string> {
  const { db } = options;
  const [account] = run.senderAccountId
    ? await db
        .select()
        .from(senderAccounts)
        .where(and(eq(senderAccounts.id, run.senderAccountId), eq(senderAccounts.userId, run.userId)))
    : [];
  if (!account || account.status === 'paused') throw new AppError('conflict', TEST_RUN_MESSAGES.accountGone);
  const [campaign] = await db
    .select({ trackingDomain: campaigns.trackingDomain, kind: campaigns.kind })
    .from(campaigns)
    .where(eq(campaigns.id, run.campaignId));
  const thread = row.threaded ? threadBefore(rows, row.position) : null;
  // The recipients' composer: the same footer, headers and text part as the real send.
  const { mail, messageId } = composeTestMessage({
    appUrl: options.appUrl,
    trackingDomain: campaign?.trackingDomain ?? null,
    account,
    to: { name: null, email: run.toEmail },
    subject: row.subject,
    html: row.html,
    kind: campaign?.kind ?? 'campaign',
    inReplyTo: thread?.parentId ?? null,
    references: thread ? replyReferences(thread.ids.slice(0, -1), thread.parentId) : null,
  });
  await sendOneOffEmail({ ...options, account, mail });
  return messageId;
}
