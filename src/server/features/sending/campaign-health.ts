import type { Database } from '@server/db/client';
import { campaigns, users } from '@server/db/schema';
import { now } from '@server/lib/clock';
import { escapeHtml } from '@server/lib/html';
import type { SystemMailer } from '@server/lib/mailer';
import { CAMPAIGN_PROTECTION_MIN_SENDS } from '@shared/campaigns';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { holdCampaignMessages } from './outbox.service';

/** 10, 5, 0.5, 0.33: whole numbers where they are, at most two decimals otherwise. */
function percent(share: number): string {
  return `${Number((share * 100).toFixed(share * 100 >= 10 ? 0 : 2))}%`;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

interface HealthCounts {
  sent: number;
  bounced: number;
  complaints: number;
}

/**
 * A newsletter's send: its messages by state from the counters its outbox triggers keep
 * (newsletter_report_counts, metric 'outbox', a row per state and writer), whatever the size of the
 * send. Complaints are few; they are counted through the (campaign_id, type, …) index of the events.
 */
async function newsletterCounts(db: Database, campaignId: string): Promise<HealthCounts> {
  const [row] = rowsOf<{ sent: string | number; bounced: string | number; complaints: number }>(
    await db.execute(sql`
      SELECT
        (SELECT coalesce(sum(n), 0) FROM newsletter_report_counts
          WHERE campaign_id = ${campaignId} AND metric = 'outbox' AND key IN ('sent', 'bounced')) AS sent,
        (SELECT coalesce(sum(n), 0) FROM newsletter_report_counts
          WHERE campaign_id = ${campaignId} AND metric = 'outbox' AND key = 'bounced') AS bounced,
        (SELECT count(*) FROM email_events
          WHERE campaign_id = ${campaignId} AND type = 'complained')::int AS complaints`),
  );
  return {
    sent: Number(row?.sent ?? 0),
    bounced: Number(row?.bounced ?? 0),
    complaints: Number(row?.complaints ?? 0),
  };
}

/**
 * How many sends settle the decision: with at least this many, neither share can pass its limit (and
 * there are enough to judge). null: no bound (a limit of 0 or less, which the settings do not allow).
 * One more than the share's bound, against rounding in the division.
 */
function sendsThatSettle(bounced: number, complaints: number, bounceLimit: number, complaintLimit: number) {
  let cap = CAMPAIGN_PROTECTION_MIN_SENDS;
  for (const [count, limit] of [
    [bounced, bounceLimit],
    [complaints, complaintLimit],
  ] as const) {
    if (!(limit > 0)) return null;
    if (count === 0) continue;
    cap = Math.max(cap, Math.floor(count / limit) + 2);
  }
  return cap;
}

/**
 * A sequence campaign (no counters of its own): its hard bounces through the outbox's (campaign_id,
 * state) index (live and archived) and its complaints through the events' index, then its sends only as
 * far as the decision needs (`sendsThatSettle`): a healthy campaign's check reads a few times its
 * bounces, not every message it sent. `sent` is then that bound (at least), not the whole count.
 */
async function sequenceCounts(
  db: Database,
  campaignId: string,
  bounceLimit: number,
  complaintLimit: number,
): Promise<HealthCounts> {
  const [bad] = rowsOf<{ bounced: number; complaints: number }>(
    await db.execute(sql`
      SELECT
        ((SELECT count(*) FROM outbox_messages WHERE campaign_id = ${campaignId} AND state = 'bounced')
          + (SELECT count(*) FROM outbox_archive WHERE campaign_id = ${campaignId} AND state = 'bounced'))::int AS bounced,
        (SELECT count(*) FROM email_events
          WHERE campaign_id = ${campaignId} AND type = 'complained')::int AS complaints`),
  );
  const bounced = Number(bad?.bounced ?? 0);
  const complaints = Number(bad?.complaints ?? 0);
  const cap = sendsThatSettle(bounced, complaints, bounceLimit, complaintLimit);
  const [counted] = rowsOf<{ sent: number }>(
    await db.execute(sql`
      SELECT count(*)::int AS sent FROM (
        (SELECT 1 FROM outbox_messages WHERE campaign_id = ${campaignId} AND state IN ('sent', 'bounced'))
        UNION ALL
        (SELECT 1 FROM outbox_archive WHERE campaign_id = ${campaignId} AND state IN ('sent', 'bounced'))
        ${cap === null ? sql`` : sql`LIMIT ${cap}`}) m`),
  );
  return { sent: Number(counted?.sent ?? 0), bounced, complaints };
}

/**
 * A campaign's own protection, beside the sender account's (sender-health.ts): an account may be fine
 * while one campaign's list is dirty or its message is unwanted, and every further send of that campaign
 * hurts all the user's accounts. Called after each hard bounce and each spam complaint of the campaign;
 * pauses it (an active campaign only) when either passes the limits set in its settings, once it has
 * sent enough to judge, records why, and mails the owner.
 *
 * Sends are messages handed to a receiving server (outbox state 'sent' or 'bounced'), bounces the
 * 'bounced' ones, complaints the 'complained' events. The check runs once per bounce, so it never counts
 * the whole campaign (that made a send cost bounces × its size: 125-220 ms a check at 200,000 messages):
 * a campaign that is not active is not counted at all (zeros), a newsletter reads its send counters and a
 * sequence campaign counts its sends only up to the number that settles the decision.
 */
export async function checkCampaignHealth(options: {
  db: Database;
  mailer: SystemMailer;
  appUrl: string;
  campaignId: string;
  log?: FastifyBaseLogger;
}): Promise<{ sent: number; bounced: number; complaints: number; paused: boolean }> {
  const { db } = options;
  const [row] = rowsOf<{
    status: string;
    name: string;
    userId: string;
    bouncePausePercent: number;
    complaintPausePercent: number;
    newsletterId: string | null;
  }>(
    await db.execute(sql`
      SELECT c.status, c.name, c.user_id AS "userId",
             c.bounce_pause_percent AS "bouncePausePercent", c.complaint_pause_percent AS "complaintPausePercent",
             (SELECT n.id FROM newsletters n WHERE n.campaign_id = c.id LIMIT 1) AS "newsletterId"
      FROM campaigns c WHERE c.id = ${options.campaignId}`),
  );
  if (row?.status !== 'active') return { sent: 0, bounced: 0, complaints: 0, paused: false };
  const bounceLimit = Number(row.bouncePausePercent) / 100;
  const complaintLimit = Number(row.complaintPausePercent) / 100;
  const counts = row.newsletterId
    ? await newsletterCounts(db, options.campaignId)
    : await sequenceCounts(db, options.campaignId, bounceLimit, complaintLimit);
  const { sent, bounced, complaints } = counts;
  if (sent < CAMPAIGN_PROTECTION_MIN_SENDS) return { ...counts, paused: false };

  let reason: string | null = null;
  if (bounced / sent > bounceLimit) {
    // A newsletter's send has no settings of its own to raise the limit in: only the list to clean.
    const remedy = row.newsletterId
      ? 'Clean the list before resuming.'
      : 'Clean the list, or raise the limit in the campaign settings, before resuming.';
    reason = `Paused automatically: ${bounced} of its ${sent} emails bounced (${percent(bounced / sent)}; the limit is ${percent(bounceLimit)}). ${remedy}`;
  } else if (complaints / sent > complaintLimit) {
    const noun = complaints === 1 ? 'spam complaint' : 'spam complaints';
    reason = `Paused automatically: ${complaints} ${noun} in its ${sent} emails (${percent(complaints / sent)}; the limit is ${percent(complaintLimit)}). Check who is on the list and what the message promises before resuming.`;
  }
  if (!reason) return { ...counts, paused: false };

  const changed = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(campaigns)
      .set({ status: 'paused', pausedReason: reason, updatedAt: now() })
      .where(and(eq(campaigns.id, options.campaignId), eq(campaigns.status, 'active')))
      .returning({ id: campaigns.id });
    // Its queued messages wait off the dispatcher's way (outbox.service.ts holdCampaignMessages).
    if (updated) await holdCampaignMessages(tx as unknown as Database, options.campaignId);
    return updated;
  });
  // Another bounce of the same batch paused it first: one pause, one mail.
  if (!changed) return { ...counts, paused: false };
  await notifyOwner({
    ...options,
    userId: row.userId,
    name: row.name,
    reason,
    newsletterId: row.newsletterId,
  });
  return { ...counts, paused: true };
}

async function notifyOwner(options: {
  db: Database;
  mailer: SystemMailer;
  appUrl: string;
  campaignId: string;
  userId: string;
  name: string;
  reason: string;
  /** A newsletter's send: the link opens the newsletter, which shows the pause and resumes it. */
  newsletterId: string | null;
  log?: FastifyBaseLogger;
}): Promise<void> {
  const [owner] = await options.db
    .select({ email: users.email, firstName: users.firstName, name: users.name })
    .from(users)
    .where(eq(users.id, options.userId))
    .limit(1);
  if (!owner) return;
  const link = options.newsletterId
    ? `${options.appUrl}/newsletters/${options.newsletterId}/report`
    : `${options.appUrl}/campaigns/${options.campaignId}`;
  const greeting = `Hello ${owner.firstName || owner.name || 'there'},`;
  const sentence = `Your campaign "${options.name}" stopped sending. ${options.reason}`;
  const after = 'Queued emails wait; nothing is lost. Review it and resume it here:';
  try {
    await options.mailer.send({
      to: owner.email,
      subject: `Campaign paused: ${options.name}`,
      text: `${greeting}\n\n${sentence}\n\n${after} ${link}\n\nTambari`,
      html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(sentence)}</p><p>${escapeHtml(after)} <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>Tambari</p>`,
    });
  } catch (error) {
    // The campaign is paused either way and its page says why.
    options.log?.error({ err: error, campaignId: options.campaignId }, 'campaign paused notice not sent');
  }
}
