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

/**
 * A campaign's own protection, beside the sender account's (sender-health.ts): an account may be fine
 * while one campaign's list is dirty or its message is unwanted, and every further send of that campaign
 * hurts all the user's accounts. Called after each hard bounce and each spam complaint of the campaign;
 * pauses it (an active campaign only) when either passes the limits set in its settings, once it has
 * sent enough to judge, records why, and mails the owner.
 */
export async function checkCampaignHealth(options: {
  db: Database;
  mailer: SystemMailer;
  appUrl: string;
  campaignId: string;
  log?: FastifyBaseLogger;
}): Promise<{ sent: number; bounced: number; complaints: number; paused: boolean }> {
  const { db } = options;
  // Both counts ride indexes: outbox (campaign_id, state) and email_events (campaign_id, type, …).
  const result = await db.execute(sql`
    SELECT c.status, c.name, c.user_id AS "userId",
           c.bounce_pause_percent AS "bouncePausePercent", c.complaint_pause_percent AS "complaintPausePercent",
           (SELECT count(*) FROM outbox_all o
             WHERE o.campaign_id = c.id AND o.state IN ('sent', 'bounced'))::int AS sent,
           (SELECT count(*) FROM outbox_all o
             WHERE o.campaign_id = c.id AND o.state = 'bounced')::int AS bounced,
           (SELECT count(*) FROM email_events e
             WHERE e.campaign_id = c.id AND e.type = 'complained')::int AS complaints
    FROM campaigns c WHERE c.id = ${options.campaignId}`);
  const row = (
    result as unknown as {
      rows: {
        status: string;
        name: string;
        userId: string;
        bouncePausePercent: number;
        complaintPausePercent: number;
        sent: number;
        bounced: number;
        complaints: number;
      }[];
    }
  ).rows[0];
  if (!row) return { sent: 0, bounced: 0, complaints: 0, paused: false };
  const sent = Number(row.sent);
  const bounced = Number(row.bounced);
  const complaints = Number(row.complaints);
  const counts = { sent, bounced, complaints };
  if (row.status !== 'active' || sent < CAMPAIGN_PROTECTION_MIN_SENDS) return { ...counts, paused: false };

  const bounceLimit = Number(row.bouncePausePercent) / 100;
  const complaintLimit = Number(row.complaintPausePercent) / 100;
  let reason: string | null = null;
  if (bounced / sent > bounceLimit) {
    reason = `Paused automatically: ${bounced} of its ${sent} emails bounced (${percent(bounced / sent)}; the limit is ${percent(bounceLimit)}). Clean the list, or raise the limit in the campaign settings, before resuming.`;
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
  await notifyOwner({ ...options, userId: row.userId, name: row.name, reason });
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
  log?: FastifyBaseLogger;
}): Promise<void> {
  const [owner] = await options.db
    .select({ email: users.email, firstName: users.firstName, name: users.name })
    .from(users)
    .where(eq(users.id, options.userId))
    .limit(1);
  if (!owner) return;
  const link = `${options.appUrl}/campaigns/${options.campaignId}`;
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
