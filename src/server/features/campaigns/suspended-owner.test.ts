import { randomUUID } from 'node:crypto';
import {
  campaignContacts,
  campaigns,
  campaignTestRunMessages,
  newsletters,
  outboxMessages,
} from '@server/db/schema/index';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import { CAMPAIGN_MESSAGES, type Campaign } from '@shared/campaigns';
import type { Newsletter } from '@shared/newsletters';
import {
  addStepViaApi,
  createCampaignViaApi,
  createListWithContacts,
  testEmails,
} from '@tests/factories/campaigns';
import { createSinkAccount, dispatchContext } from '@tests/factories/dispatch';
import { createUser, login, type TestUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq, isNotNull, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runNewsletterSchedule } from '../newsletters/newsletter-send.service';
import { drainOutbox } from '../sending/sending.service';
import { startScheduledCampaigns } from './launch.service';
import { advanceCampaignSequences } from './sequencing';
import { sendNextTestRunStep } from './test-run.service';

/*
 * An operator suspends an abusive sender to stop their mail. Suspension used to end their sessions and
 * nothing else: their queued messages went on going out, their sequences went on advancing and their
 * scheduled newsletters and campaigns still started.
 */

let app: FastifyInstance;
let sink: SmtpSink;
let admin: TestUser;
const DAY = 86_400_000;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink();
  admin = await createUser(app, { role: 'super_admin' });
});
afterAll(async () => {
  await sink.close();
  await app.close();
});
afterEach(() => resetClock());

async function paidUser(): Promise<TestUser> {
  return createUser(app, { plan: 'starter', status: 'active', periodEnd: new Date(Date.now() + 400 * DAY) });
}

/** A campaign of `steps` launched through the API to `count` new contacts (step 1 queued by the launch). */
async function launched(
  owner: TestUser,
  count: number,
  steps: number,
  settings: Record<string, unknown> = {},
) {
  const account = await createSinkAccount(app, owner.user.id);
  const list = await createListWithContacts(
    app,
    owner.user.id,
    testEmails(count).map((email) => ({ email, firstName: 'Kemi' })),
  );
  const campaign = await createCampaignViaApi(app, owner.cookie, {
    audience: { listIds: [list.id] },
    senderAccountIds: [account.id],
    ...settings,
  });
  for (let i = 0; i < steps; i++)
    await addStepViaApi(app, owner.cookie, campaign.id, { delayDays: i === 0 ? 0 : 1 });
  const response = await as(
    app,
    owner.cookie,
  )({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
  if (response.statusCode !== 200) throw new Error(`launch ${response.statusCode}: ${response.body}`);
  return { campaign: response.json<Campaign>(), account, listId: list.id };
}

async function newsletterFor(owner: TestUser) {
  const account = await createSinkAccount(app, owner.user.id);
  const list = await createListWithContacts(
    app,
    owner.user.id,
    testEmails(3, 'reader').map((email) => ({ email, firstName: 'Ada' })),
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
  return { account, listId: list.id, newsletter: created.json<Newsletter>() };
}

function drain(userIds: string[]) {
  const ctx = dispatchContext(app, sink.port, userIds[0]!);
  ctx.onlyUserId = userIds;
  return drainOutbox(ctx);
}

async function queuedOf(userId: string) {
  return app.services.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.userId, userId), eq(outboxMessages.state, 'queued')));
}

async function campaignRow(id: string) {
  const [row] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, id));
  return row!;
}

describe('suspending a user', () => {
  it('stops their sending in the same step: queued mail held, sequences, newsletters and scheduled starts stopped; others still send', async () => {
    const abuser = await paidUser();
    const other = await paidUser();

    // A sequence whose step 1 went out: its contacts are due for step 2 a day later.
    const sequence = await launched(abuser, 3, 2);
    expect((await drain([abuser.user.id])).sent).toBe(3);
    // A campaign with its step 1 queued, a campaign scheduled for tomorrow.
    const queued = await launched(abuser, 4, 1);
    const scheduled = await launched(abuser, 2, 1, {
      scheduledAt: new Date(Date.now() + DAY / 2).toISOString(),
    });
    expect(scheduled.campaign.status).toBe('scheduled');
    // A newsletter being sent (its messages queued) and one scheduled for tomorrow.
    const sending = await newsletterFor(abuser);
    const sent = await as(
      app,
      abuser.cookie,
    )({
      method: 'POST',
      url: `/api/newsletters/${sending.newsletter.id}/send`,
      payload: { listIds: [sending.listId], senderAccountIds: [sending.account.id] },
    });
    expect(sent.statusCode).toBe(200);
    const later = await newsletterFor(abuser);
    const scheduledNewsletter = await as(
      app,
      abuser.cookie,
    )({
      method: 'POST',
      url: `/api/newsletters/${later.newsletter.id}/schedule`,
      payload: {
        listIds: [later.listId],
        senderAccountIds: [later.account.id],
        scheduledAt: new Date(Date.now() + DAY / 2).toISOString(),
      },
    });
    expect(scheduledNewsletter.statusCode).toBe(200);
    const queuedBefore = await queuedOf(abuser.user.id);
    expect(queuedBefore.length).toBe(4 + 3);

    const bystander = await launched(other, 5, 1);

    const suspended = await as(
      app,
      admin.cookie,
    )({
      method: 'POST',
      url: `/api/admin/users/${abuser.user.id}/suspend`,
      payload: { reason: 'Sent spam to purchased lists' },
    });
    expect(suspended.statusCode).toBe(200);

    // A day and a half later: everything of theirs is due, and nothing of theirs moves.
    advanceClock(DAY + DAY / 2);
    const sinkBefore = sink.messages.length;
    const drained = await drain([abuser.user.id, other.user.id]);
    expect.soft(drained.sent).toBe(5);
    const delivered = sink.messages.slice(sinkBefore);
    expect.soft(delivered).toHaveLength(5);
    const abuserAddresses = new Set(
      (
        await app.services.db
          .select({ email: campaignContacts.email })
          .from(campaignContacts)
          .where(eq(campaignContacts.userId, abuser.user.id))
      ).map((r) => r.email),
    );
    expect.soft(delivered.some((m) => m.to.some((to) => abuserAddresses.has(to)))).toBe(false);

    const advanced = await advanceCampaignSequences({
      db: app.services.db,
      queue: null,
      appUrl: app.services.env.APP_URL,
      onlyUserId: abuser.user.id,
    });
    expect.soft(advanced.queued).toBe(0);
    const due = await app.services.db
      .select()
      .from(campaignContacts)
      .where(
        and(
          eq(campaignContacts.campaignId, sequence.campaign.id),
          isNotNull(campaignContacts.nextStepAt),
          lte(campaignContacts.nextStepAt, now()),
        ),
      );
    expect.soft(due).toHaveLength(3);

    const ctx = { db: app.services.db, queue: null, appUrl: app.services.env.APP_URL };
    await runNewsletterSchedule(ctx);
    const laterRow = (
      await app.services.db.select().from(newsletters).where(eq(newsletters.id, later.newsletter.id))
    )[0]!;
    expect.soft(laterRow.status).not.toBe('sending');
    expect.soft(laterRow.campaignId).toBeNull();
    expect.soft(await startScheduledCampaigns({ ...ctx, onlyUserId: abuser.user.id })).toEqual([]);
    expect.soft((await campaignRow(scheduled.campaign.id)).status).not.toBe('active');
    expect((await queuedOf(abuser.user.id)).length).toBe(queuedBefore.length);
    expect((await drain([abuser.user.id])).sent).toBe(0);
    expect(bystander.campaign.status).toBe('active');

    // The active campaigns (the newsletter's too) are paused, with the reason, their messages held.
    const sendingRow = (
      await app.services.db.select().from(newsletters).where(eq(newsletters.id, sending.newsletter.id))
    )[0]!;
    for (const id of [sequence.campaign.id, queued.campaign.id, sendingRow.campaignId!]) {
      const row = await campaignRow(id);
      expect(row.status, id).toBe('paused');
      expect(row.pausedReason).toBe(CAMPAIGN_MESSAGES.pausedBySuspension);
    }
    const held = await queuedOf(abuser.user.id);
    expect(held.length).toBe(queuedBefore.length);
    expect(held.every((m) => m.held)).toBe(true);
  });

  it('cannot be undone by the user; restore leaves the campaigns paused until they resume them', async () => {
    const abuser = await paidUser();
    const { campaign } = await launched(abuser, 2, 1);
    const secondDevice = await login(app, abuser.email);
    const suspend = await as(
      app,
      admin.cookie,
    )({
      method: 'POST',
      url: `/api/admin/users/${abuser.user.id}/suspend`,
      payload: { reason: 'Abuse' },
    });
    expect(suspend.statusCode).toBe(200);
    for (const cookie of [abuser.cookie, secondDevice]) {
      const resume = await as(app, cookie)({ method: 'POST', url: `/api/campaigns/${campaign.id}/resume` });
      expect(resume.statusCode).toBeGreaterThanOrEqual(401);
      expect(resume.statusCode).toBeLessThanOrEqual(403);
    }
    // Not from the service either (a request in flight when the suspension came).
    const { resumeCampaign } = await import('./campaigns.service');
    await expect(
      resumeCampaign({
        db: app.services.db,
        campaignId: campaign.id,
        actor: { id: abuser.user.id },
        userId: abuser.user.id,
      }),
    ).rejects.toThrow(CAMPAIGN_MESSAGES.accountSuspended);
    expect((await campaignRow(campaign.id)).status).toBe('paused');

    const restored = await as(
      app,
      admin.cookie,
    )({ method: 'POST', url: `/api/admin/users/${abuser.user.id}/restore` });
    expect(restored.statusCode).toBe(200);
    expect((await campaignRow(campaign.id)).status).toBe('paused');
    expect((await drain([abuser.user.id])).sent).toBe(0);

    const cookie = await login(app, abuser.email);
    const resumed = await as(app, cookie)({ method: 'POST', url: `/api/campaigns/${campaign.id}/resume` });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json<Campaign>()).toMatchObject({ status: 'active', pausedReason: null });
    expect((await drain([abuser.user.id])).sent).toBe(2);
    const ids = (await queuedOf(abuser.user.id)).map((m) => m.id);
    expect(ids).toEqual([]);
  });

  it('what raced the suspension (made active or scheduled after it) still does not start or advance', async () => {
    const abuser = await paidUser();
    const sequence = await launched(abuser, 2, 2);
    expect((await drain([abuser.user.id])).sent).toBe(2);
    const scheduled = await launched(abuser, 2, 1, {
      scheduledAt: new Date(Date.now() + DAY / 2).toISOString(),
    });
    const later = await newsletterFor(abuser);
    const suspend = await as(
      app,
      admin.cookie,
    )({ method: 'POST', url: `/api/admin/users/${abuser.user.id}/suspend`, payload: { reason: 'Abuse' } });
    expect(suspend.statusCode).toBe(200);
    // As a start or a resume committed just after the suspension's statements would leave them.
    await app.services.db
      .update(campaigns)
      .set({ status: 'active' })
      .where(eq(campaigns.id, sequence.campaign.id));
    await app.services.db
      .update(campaigns)
      .set({ status: 'scheduled' })
      .where(eq(campaigns.id, scheduled.campaign.id));
    await app.services.db
      .update(newsletters)
      .set({
        status: 'scheduled',
        scheduledAt: new Date(Date.now() + DAY / 2),
        listIds: [later.listId],
        senderAccountIds: [later.account.id],
      })
      .where(eq(newsletters.id, later.newsletter.id));
    advanceClock(DAY + DAY / 2);

    const ctx = { db: app.services.db, queue: null, appUrl: app.services.env.APP_URL };
    const advanced = await advanceCampaignSequences({ ...ctx, onlyUserId: abuser.user.id });
    expect(advanced.queued).toBe(0);
    expect(await startScheduledCampaigns({ ...ctx, onlyUserId: abuser.user.id })).toEqual([]);
    await runNewsletterSchedule(ctx);
    const [laterRow] = await app.services.db
      .select()
      .from(newsletters)
      .where(eq(newsletters.id, later.newsletter.id));
    expect(laterRow!.status).toBe('scheduled');
    expect(laterRow!.campaignId).toBeNull();
    expect(await queuedOf(abuser.user.id)).toEqual([]);
  });

  it('ends their test runs: the steps still queued are not sent', async () => {
    const abuser = await paidUser();
    const account = await createSinkAccount(app, abuser.user.id);
    const list = await createListWithContacts(app, abuser.user.id, [{ email: testEmails(1)[0]! }]);
    const campaign = await createCampaignViaApi(app, abuser.cookie, {
      audience: { listIds: [list.id] },
      senderAccountIds: [account.id],
    });
    await addStepViaApi(app, abuser.cookie, campaign.id);
    await addStepViaApi(app, abuser.cookie, campaign.id, { delayDays: 1 });
    const started = await as(
      app,
      abuser.cookie,
    )({ method: 'POST', url: `/api/campaigns/${campaign.id}/test-runs`, payload: {} });
    expect(started.statusCode, started.body).toBe(201);
    const run = started.json<{ id: string }>();
    const suspend = await as(
      app,
      admin.cookie,
    )({ method: 'POST', url: `/api/admin/users/${abuser.user.id}/suspend`, payload: { reason: 'Abuse' } });
    expect(suspend.statusCode).toBe(200);
    advanceClock(DAY * 2);
    const result = await sendNextTestRunStep({
      db: app.services.db,
      queue: null,
      log: pino({ level: 'silent' }),
      appUrl: app.services.env.APP_URL,
      encryptionKey: app.services.secrets.encryptionKey,
      network: 'loopback',
      devMailboxPort: sink.port,
      testRunId: run.id,
    });
    expect(result.sent).toBe(0);
    const steps = await app.services.db
      .select()
      .from(campaignTestRunMessages)
      .where(eq(campaignTestRunMessages.runId, run.id));
    expect(steps.map((m) => m.state)).toEqual(['failed', 'failed']);
  });
});
