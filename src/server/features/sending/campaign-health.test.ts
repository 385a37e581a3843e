import { campaigns, outboxMessages } from '@server/db/schema';
import type { Campaign } from '@shared/campaigns';
import {
  createSendingCampaign,
  createSinkAccount,
  dispatchContext,
  queueForContacts,
} from '@tests/factories/dispatch';
import { answerTo } from '@tests/factories/inbound';
import { createUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processInboundMessage } from '../inbound/inbound.service';
import { drainOutbox } from './dispatch';

let app: FastifyInstance;
let sink: SmtpSink;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink({ hardBounce: ['nobody@bounce.test', 'gone@bounce.test'] });
});
afterAll(async () => {
  await sink.close();
  await app.close();
});

async function campaignRow(id: string) {
  const [row] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, id));
  return row!;
}

/** A campaign of one fresh user with `good` delivered messages, sent through two accounts. */
async function sentCampaign(good: number, overrides: Partial<typeof campaigns.$inferInsert> = {}) {
  const owner = await createUser(app, { plan: 'enterprise' });
  const accounts = [await createSinkAccount(app, owner.user.id), await createSinkAccount(app, owner.user.id)];
  const campaign = await createSendingCampaign(app, owner.user.id, accounts, overrides);
  await queueForContacts(app, campaign, good);
  await drainOutbox(dispatchContext(app, sink.port, owner.user.id));
  return { owner, campaign };
}

async function bounce(owner: { user: { id: string } }, campaign: typeof campaigns.$inferSelect) {
  await queueForContacts(app, campaign, 2, { emails: ['nobody@bounce.test', 'gone@bounce.test'] });
  await drainOutbox(dispatchContext(app, sink.port, owner.user.id));
}

describe("a campaign's own protection", () => {
  it('pauses itself when hard bounces pass 5% after 20 sends, says why, and mails the owner', async () => {
    const { owner, campaign } = await sentCampaign(18);
    expect((await campaignRow(campaign.id)).status).toBe('active');
    await bounce(owner, campaign); // 2 of 20: 10%

    const row = await campaignRow(campaign.id);
    expect(row.status).toBe('paused');
    expect(row.pausedReason).toBe(
      'Paused automatically: 2 of its 20 emails bounced (10%; the limit is 5%). Clean the list, or raise the limit in the campaign settings, before resuming.',
    );
    const shown = await as(app, owner.cookie)({ method: 'GET', url: `/api/campaigns/${campaign.id}` });
    expect(shown.json<Campaign>()).toMatchObject({
      status: 'paused',
      pausedReason: row.pausedReason,
      bouncePausePercent: 5,
      complaintPausePercent: 0.3,
    });
    // The inbox lists campaigns that paused themselves from the campaign list.
    const listed = await as(app, owner.cookie)({ method: 'GET', url: '/api/campaigns?status=paused' });
    expect(listed.json<{ id: string; pausedReason: string | null }[]>()).toContainEqual(
      expect.objectContaining({ id: campaign.id, pausedReason: row.pausedReason }),
    );
    const mail = await waitForMail(app, owner.email, { subject: `Campaign paused: ${campaign.name}` });
    expect(mail.text).toContain('2 of its 20 emails bounced');
    expect(mail.text).toContain(`/campaigns/${campaign.id}`);

    // Resuming is the user's call; the reason goes with the pause.
    const resumed = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/campaigns/${campaign.id}/resume` });
    expect(resumed.json<Campaign>()).toMatchObject({ status: 'active', pausedReason: null });
  });

  it('waits for 20 sends before judging, and follows the limit set in the settings', async () => {
    const early = await sentCampaign(1);
    await bounce(early.owner, early.campaign); // 2 of 3, but only 3 sent
    expect((await campaignRow(early.campaign.id)).status).toBe('active');

    const lenient = await sentCampaign(18, { bouncePausePercent: 15 });
    await bounce(lenient.owner, lenient.campaign); // 10% is under 15%
    expect((await campaignRow(lenient.campaign.id)).status).toBe('active');
  });

  it('pauses on spam complaints past 0.3% once 20 have been sent', async () => {
    const { owner, campaign } = await sentCampaign(20);
    const [sent] = await app.services.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.campaignId, campaign.id))
      .limit(1);
    await processInboundMessage({
      db: app.services.db,
      log: app.log,
      raw: answerTo('arf-complaint.eml', { messageId: sent!.messageId! }),
      senderAccountId: sent!.senderAccountId!,
      senderHealth: { mailer: app.services.mailer, appUrl: app.services.env.APP_URL },
    });
    const row = await campaignRow(campaign.id);
    expect(row.status).toBe('paused');
    expect(row.pausedReason).toBe(
      'Paused automatically: 1 spam complaint in its 20 emails (5%; the limit is 0.3%). Check who is on the list and what the message promises before resuming.',
    );
    await waitForMail(app, owner.email, { subject: `Campaign paused: ${campaign.name}` });
  });

  it('a pause by hand carries no reason; the limits are validated', async () => {
    const { owner, campaign } = await sentCampaign(1);
    const call = as(app, owner.cookie);
    const paused = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/pause` });
    expect(paused.json<Campaign>()).toMatchObject({ status: 'paused', pausedReason: null });

    const bad = await call({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { bouncePausePercent: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('between 0.5% and 50%');
    const good = await call({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { bouncePausePercent: 8, complaintPausePercent: 0.5 },
    });
    expect(good.json<Campaign>()).toMatchObject({ bouncePausePercent: 8, complaintPausePercent: 0.5 });

    const stranger = await createUser(app);
    const theirs = await as(
      app,
      stranger.cookie,
    )({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { bouncePausePercent: 50 },
    });
    expect(theirs.statusCode).toBe(404);
  });
});
