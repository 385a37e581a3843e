import { randomUUID } from 'node:crypto';
import { campaigns, newsletters, outboxMessages } from '@server/db/schema/index';
import type { AdminNewsletterListItem } from '@shared/admin-campaigns';
import { CAMPAIGN_MESSAGES } from '@shared/campaigns';
import type { NewsletterProgress } from '@shared/newsletter-report';
import type { Newsletter } from '@shared/newsletters';
import { createListWithContacts, testEmails } from '@tests/factories/campaigns';
import { createSinkAccount, dispatchContext } from '@tests/factories/dispatch';
import { createUser, login, type TestUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCampaignHealth, drainOutbox } from '../sending/sending.service';
import { finishNewsletterSends } from './newsletter-send.service';

/*
 * A newsletter's send runs as a campaign, and that campaign can be paused without the user doing it: by
 * the bounce/complaint protection (campaign-health.ts) or by a suspension of the account. The newsletter
 * then stayed 'sending' with its messages held, and its screens showed neither the pause nor its reason,
 * nor a way to resume: only POST /api/campaigns/:id/resume did.
 */

let app: FastifyInstance;
let sink: SmtpSink;
let admin: TestUser;
const DAY = 86_400_000;
const RECIPIENTS = 30;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink();
  admin = await createUser(app, { role: 'super_admin' });
});
afterAll(async () => {
  await sink.close();
  await app.close();
});

async function paidUser(): Promise<TestUser> {
  return createUser(app, { plan: 'starter', status: 'active', periodEnd: new Date(Date.now() + 400 * DAY) });
}

/** A newsletter sent through the API to RECIPIENTS readers: every message queued. */
async function sending(owner: TestUser) {
  const account = await createSinkAccount(app, owner.user.id);
  const emails = testEmails(RECIPIENTS, 'reader');
  const list = await createListWithContacts(
    app,
    owner.user.id,
    emails.map((email) => ({ email, firstName: 'Ada' })),
  );
  const created = await as(
    app,
    owner.cookie,
  )({
    method: 'POST',
    url: '/api/newsletters',
    payload: {
      kind: 'newsletter',
      name: `March ${randomUUID().slice(0, 6)}`,
      subject: 'Hello',
      blocks: [{ id: 't', type: 'text', text: 'Our new menu is out.' }],
    },
  });
  expect(created.statusCode).toBe(201);
  const id = created.json<Newsletter>().id;
  const sent = await as(
    app,
    owner.cookie,
  )({
    method: 'POST',
    url: `/api/newsletters/${id}/send`,
    payload: { listIds: [list.id], senderAccountIds: [account.id] },
  });
  expect(sent.statusCode).toBe(200);
  const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, id));
  return { id, campaignId: row!.campaignId!, emails };
}

/**
 * The receiving servers' verdicts on the first 25 messages: 20 delivered, 5 bounced (20% of the sends,
 * over the 5% limit); then the check that runs after each hard bounce pauses the send.
 */
async function bounceIntoPause(campaignId: string): Promise<void> {
  const db = app.services.db;
  const queued = await db
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), eq(outboxMessages.state, 'queued')))
    .orderBy(outboxMessages.id);
  expect(queued).toHaveLength(RECIPIENTS);
  const ids = queued.map((m) => m.id);
  await db
    .update(outboxMessages)
    .set({ state: 'sent', sentAt: new Date() })
    .where(inArray(outboxMessages.id, ids.slice(0, 20)));
  await db
    .update(outboxMessages)
    .set({ state: 'bounced', sentAt: new Date() })
    .where(inArray(outboxMessages.id, ids.slice(20, 25)));
  const health = await checkCampaignHealth({
    db,
    mailer: app.services.mailer,
    appUrl: app.services.env.APP_URL,
    campaignId,
  });
  expect(health.paused).toBe(true);
}

function drain(userId: string) {
  return drainOutbox(dispatchContext(app, sink.port, userId));
}

async function campaignRow(id: string) {
  const [row] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, id));
  return row!;
}

async function heldOf(campaignId: string) {
  return app.services.db
    .select({ id: outboxMessages.id, held: outboxMessages.held, toEmail: outboxMessages.toEmail })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), eq(outboxMessages.state, 'queued')));
}

describe('a newsletter send paused for the user', () => {
  it('shows paused with the reason; the owner resumes it and the held messages go out once', async () => {
    const owner = await paidUser();
    const other = await paidUser();
    const send = await sending(owner);
    await bounceIntoPause(send.campaignId);
    const reason = (await campaignRow(send.campaignId)).pausedReason;
    expect(reason).toMatch(/^Paused automatically: 5 of its 25 emails bounced/);
    // A newsletter's send has no campaign settings to raise the limit in.
    expect(reason).toMatch(/\. Clean the list before resuming\.$/);
    // The owner's notice opens the newsletter (its page resumes it), not its engine campaign.
    const [named] = await app.services.db
      .select({ name: campaigns.name })
      .from(campaigns)
      .where(eq(campaigns.id, send.campaignId));
    const mail = await waitForMail(app, owner.email, { subject: `Campaign paused: ${named!.name}` });
    expect(mail.text).toContain(`/newsletters/${send.id}/report`);
    expect(mail.text).not.toContain(`/campaigns/${send.campaignId}`);
    const held = await heldOf(send.campaignId);
    expect(held).toHaveLength(5);
    expect(held.every((m) => m.held)).toBe(true);

    // The newsletter (alone and in the list) and its progress say so.
    const one = await as(app, owner.cookie)({ method: 'GET', url: `/api/newsletters/${send.id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json<Newsletter>()).toMatchObject({ status: 'sending', paused: true, pausedReason: reason });
    const list = await as(app, owner.cookie)({ method: 'GET', url: '/api/newsletters?kind=newsletter' });
    expect(list.json<Newsletter[]>().find((n) => n.id === send.id)).toMatchObject({
      paused: true,
      pausedReason: reason,
    });
    const progress = await as(
      app,
      owner.cookie,
    )({ method: 'GET', url: `/api/newsletters/${send.id}/progress` });
    expect(progress.json<NewsletterProgress>()).toMatchObject({
      status: 'sending',
      paused: true,
      pausedReason: reason,
      queued: 5,
    });

    // The operator's newsletters list says so too, with the recipients from the send's counters.
    const adminList = await as(
      app,
      admin.cookie,
    )({ method: 'GET', url: `/api/admin/newsletters?userId=${owner.user.id}` });
    expect(adminList.statusCode).toBe(200);
    expect(
      adminList.json<{ items: AdminNewsletterListItem[] }>().items.find((n) => n.id === send.id),
    ).toMatchObject({ status: 'sending', paused: true, recipientCount: 30 });

    // Nothing moves while paused.
    expect((await drain(owner.user.id)).sent).toBe(0);

    // Another user's newsletter is not found, and stays paused.
    for (const action of ['resume', 'stop']) {
      const foreign = await as(
        app,
        other.cookie,
      )({ method: 'POST', url: `/api/newsletters/${send.id}/${action}` });
      expect(foreign.statusCode, action).toBe(404);
    }
    expect((await campaignRow(send.campaignId)).status).toBe('paused');

    const sinkBefore = sink.messages.length;
    const resumed = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/newsletters/${send.id}/resume` });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json<Newsletter>()).toMatchObject({
      status: 'sending',
      paused: false,
      pausedReason: null,
    });
    // Resuming twice is refused: it is no longer paused.
    const again = await as(app, owner.cookie)({ method: 'POST', url: `/api/newsletters/${send.id}/resume` });
    expect(again.statusCode).toBe(409);

    expect((await drain(owner.user.id)).sent).toBe(5);
    expect((await drain(owner.user.id)).sent).toBe(0);
    const delivered = sink.messages.slice(sinkBefore).flatMap((m) => m.to);
    expect(delivered.sort()).toEqual(held.map((m) => m.toEmail).sort());

    await finishNewsletterSends({ db: app.services.db });
    const done = await as(app, owner.cookie)({ method: 'GET', url: `/api/newsletters/${send.id}` });
    expect(done.json<Newsletter>()).toMatchObject({ status: 'sent', paused: false });
  });

  it('the owner can stop it instead: the held messages are cancelled and the send ends', async () => {
    const owner = await paidUser();
    const send = await sending(owner);
    await bounceIntoPause(send.campaignId);
    const stopped = await as(app, owner.cookie)({ method: 'POST', url: `/api/newsletters/${send.id}/stop` });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json<Newsletter>()).toMatchObject({ paused: false });
    expect((await campaignRow(send.campaignId)).status).toBe('stopped');
    expect(await heldOf(send.campaignId)).toHaveLength(0);
    expect((await drain(owner.user.id)).sent).toBe(0);
    await finishNewsletterSends({ db: app.services.db });
    const [row] = await app.services.db.select().from(newsletters).where(eq(newsletters.id, send.id));
    expect(row!.status).toBe('sent');
    // An ended send cannot be stopped or resumed again.
    for (const action of ['resume', 'stop']) {
      const late = await as(
        app,
        owner.cookie,
      )({ method: 'POST', url: `/api/newsletters/${send.id}/${action}` });
      expect(late.statusCode, action).toBe(409);
    }
  });

  it('a suspended owner cannot resume it; once restored, the page gives the reason and resume works', async () => {
    const owner = await paidUser();
    const send = await sending(owner);
    const suspend = await as(
      app,
      admin.cookie,
    )({
      method: 'POST',
      url: `/api/admin/users/${owner.user.id}/suspend`,
      payload: { reason: 'Abuse' },
    });
    expect(suspend.statusCode).toBe(200);
    const refused = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/newsletters/${send.id}/resume` });
    expect(refused.statusCode).toBeGreaterThanOrEqual(401);
    expect(refused.statusCode).toBeLessThanOrEqual(403);
    // Not from the service either (a request in flight when the suspension came).
    const { resumeNewsletterSend } = await import('./newsletter-send.service');
    await expect(
      resumeNewsletterSend({
        db: app.services.db,
        appUrl: app.services.env.APP_URL,
        actor: { id: owner.user.id },
        userId: owner.user.id,
        id: send.id,
      }),
    ).rejects.toThrow(CAMPAIGN_MESSAGES.accountSuspended);
    expect((await campaignRow(send.campaignId)).status).toBe('paused');
    expect((await drain(owner.user.id)).sent).toBe(0);

    const restored = await as(
      app,
      admin.cookie,
    )({ method: 'POST', url: `/api/admin/users/${owner.user.id}/restore` });
    expect(restored.statusCode).toBe(200);
    const cookie = await login(app, owner.email);
    const progress = await as(app, cookie)({ method: 'GET', url: `/api/newsletters/${send.id}/progress` });
    expect(progress.json<NewsletterProgress>()).toMatchObject({
      paused: true,
      pausedReason: CAMPAIGN_MESSAGES.pausedBySuspension,
    });
    const resumed = await as(app, cookie)({ method: 'POST', url: `/api/newsletters/${send.id}/resume` });
    expect(resumed.statusCode).toBe(200);
    expect((await drain(owner.user.id)).sent).toBe(RECIPIENTS);
    expect((await drain(owner.user.id)).sent).toBe(0);
  });
});
