import { campaignContacts, emailEvents, outboxMessages, senderAccounts } from '@server/db/schema/index';
import { advanceClock, resetClock } from '@server/lib/clock';
import type { StepInput } from '@shared/campaigns';
import { TEST_RUN_STEP_GAP_SECONDS, TEST_RUNS_PER_HOUR, type TestRun } from '@shared/test-runs';
import {
  addStepViaApi,
  createCampaignViaApi,
  createListWithContacts,
  testEmails,
} from '@tests/factories/campaigns';
import { createSinkAccount } from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sendNextTestRunStep } from './test-run.service';

/*
 * A test run sends every step of a sequence to the user's own address within minutes, through the
 * campaign's real sender account (here pointing at a loopback SMTP sink), without touching the campaign.
 */

let app: FastifyInstance;
let sink: SmtpSink;
const DAY = 86_400_000;

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink({ keepRaw: true });
});
afterAll(async () => {
  await sink.close();
  await app.close();
});
afterEach(() => resetClock());

const variant = (subject: string, bodyHtml: string): StepInput['variants'][number] => ({
  key: 'A',
  subject,
  bodyHtml,
  splitPercent: 100,
});

async function campaignWithSequence() {
  const owner = await createUser(app, {
    plan: 'starter',
    status: 'active',
    periodEnd: new Date(Date.now() + 400 * DAY),
  });
  const account = await createSinkAccount(app, owner.user.id);
  const [lead, other] = testEmails(2);
  const list = await createListWithContacts(app, owner.user.id, [
    { email: other!, firstName: 'Other', company: 'Elsewhere Ltd', countryCode: 'NG' },
    { email: lead!, firstName: 'Kemi', company: 'Kano Foods', countryCode: 'NG' },
  ]);
  const campaign = await createCampaignViaApi(app, owner.cookie, {
    audience: { listIds: [list.id] },
    senderAccountIds: [account.id],
  });
  await addStepViaApi(app, owner.cookie, campaign.id, {
    variants: [variant('Fresh tomatoes for {{ company }}', '<p>Hello {{ firstName }}</p>')],
  });
  // A threaded follow-up (empty subject) three days on, then a new thread a week on.
  await addStepViaApi(app, owner.cookie, campaign.id, {
    delayDays: 3,
    variants: [variant('', '<p>Did you see this, {{ firstName }}?</p>')],
  });
  await addStepViaApi(app, owner.cookie, campaign.id, {
    delayDays: 7,
    variants: [variant('Last note for {{ company }}', '<p>Bye {{ firstName }}</p>')],
  });
  return { owner, account, campaign, lead: lead! };
}

function start(owner: TestUser, campaignId: string, body: Record<string, unknown> = {}) {
  return as(
    app,
    owner.cookie,
  )({ method: 'POST', url: `/api/campaigns/${campaignId}/test-runs`, payload: body });
}

function step(testRunId: string) {
  return sendNextTestRunStep({
    db: app.services.db,
    queue: null,
    log: pino({ level: 'silent' }),
    appUrl: app.services.env.APP_URL,
    encryptionKey: app.services.secrets.encryptionKey,
    network: 'loopback',
    devMailboxPort: sink.port,
    testRunId,
  });
}

async function sunk(to: string) {
  return Promise.all(sink.messages.filter((m) => m.to.includes(to)).map((m) => simpleParser(m.raw)));
}

describe('test run of a sequence', () => {
  it('starts anyway but warns, step by step, about a merge tag that would be sent empty', async () => {
    const { owner, campaign } = await campaignWithSequence();
    await addStepViaApi(app, owner.cookie, campaign.id, {
      delayDays: 9,
      variants: [variant('One more', '<p>Hello {{ frstName }}</p>')],
    });
    const started = await start(owner, campaign.id);
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json<TestRun>().warnings).toEqual([
      'Step 4: {{ frstName }} is not a merge tag (did you mean {{ firstName }}?): it would be sent empty',
    ]);
  });

  it('sends every step to the user a minute apart, rendered for the chosen contact, threaded where the sequence is', async () => {
    const { owner, account, campaign, lead } = await campaignWithSequence();
    const started = await start(owner, campaign.id, { email: lead });
    expect(started.statusCode, started.body).toBe(201);
    const run = started.json<TestRun>();
    expect(run).toMatchObject({ to: owner.email.toLowerCase(), contactEmail: lead, sample: false });
    expect(run.warnings).toEqual([]);
    expect(run.steps.map((s) => [s.position, s.state, s.threaded])).toEqual([
      [1, 'queued', false],
      [2, 'queued', true],
      [3, 'queued', false],
    ]);

    // The first step goes at once; the next is not due for a minute.
    expect(await step(run.id)).toMatchObject({ sent: 1, remaining: 2 });
    expect(await step(run.id)).toMatchObject({ sent: 0, remaining: 2 });
    advanceClock(TEST_RUN_STEP_GAP_SECONDS * 1000);
    expect(await step(run.id)).toMatchObject({ sent: 1, remaining: 1 });
    advanceClock(TEST_RUN_STEP_GAP_SECONDS * 1000);
    expect(await step(run.id)).toMatchObject({ sent: 1, remaining: 0 });

    const mails = await sunk(owner.email.toLowerCase());
    expect(mails.map((m) => m.subject)).toEqual([
      '[Test] Fresh tomatoes for Kano Foods',
      'Re: [Test] Fresh tomatoes for Kano Foods',
      '[Test] Last note for Kano Foods',
    ]);
    expect(mails[0]!.text).toContain('Hello Kemi');
    expect(mails[1]!.inReplyTo).toBe(mails[0]!.messageId);
    expect(mails[1]!.references).toEqual(mails[0]!.messageId);
    expect(mails[2]!.inReplyTo).toBeUndefined();
    expect(mails.every((m) => m.from?.value[0]?.address === account.fromEmail)).toBe(true);
    // Nothing reached the contact.
    expect(sink.messages.some((m) => m.to.includes(lead))).toBe(false);

    const latest = await as(
      app,
      owner.cookie,
    )({
      method: 'GET',
      url: `/api/campaigns/${campaign.id}/test-runs/latest`,
    });
    expect(latest.json<{ run: TestRun }>().run.steps.map((s) => s.state)).toEqual(['sent', 'sent', 'sent']);

    // The campaign is untouched: no outbox rows, no events, no contacts; the account's day counts the sends.
    const { db } = app.services;
    expect(await db.select().from(outboxMessages).where(eq(outboxMessages.campaignId, campaign.id))).toEqual(
      [],
    );
    expect(await db.select().from(emailEvents).where(eq(emailEvents.campaignId, campaign.id))).toEqual([]);
    expect(
      await db.select().from(campaignContacts).where(eq(campaignContacts.campaignId, campaign.id)),
    ).toEqual([]);
    const [row] = await db.select().from(senderAccounts).where(eq(senderAccounts.id, account.id));
    expect(row!.sendsToday).toBe(3);
  });

  it("goes only to the user's own addresses: their login email or one of their sender accounts", async () => {
    const { owner, account, campaign } = await campaignWithSequence();
    const stranger = await start(owner, campaign.id, { to: 'someone-else@example.com' });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toBe(
      'A test run goes to your own address: your login email or one of your sender accounts.',
    );
    const own = await start(owner, campaign.id, { to: account.fromEmail.toUpperCase() });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json<TestRun>().to).toBe(account.fromEmail);
    const addresses = await as(
      app,
      owner.cookie,
    )({
      method: 'GET',
      url: `/api/campaigns/${campaign.id}/test-runs/addresses`,
    });
    expect(addresses.json().addresses).toEqual([owner.email.toLowerCase(), account.fromEmail]);
  });

  it(`allows ${TEST_RUNS_PER_HOUR} test runs an hour per user`, async () => {
    const { owner, campaign } = await campaignWithSequence();
    for (let i = 0; i < TEST_RUNS_PER_HOUR; i++)
      expect((await start(owner, campaign.id)).statusCode).toBe(201);
    const limited = await start(owner, campaign.id);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/5 test runs an hour/);
    advanceClock(61 * 60_000);
    expect((await start(owner, campaign.id)).statusCode).toBe(201);
  });

  it('marks a step failed with a safe reason when the account refuses it, and goes on with the next', async () => {
    const { owner, account, campaign } = await campaignWithSequence();
    const run = (await start(owner, campaign.id)).json<TestRun>();
    await app.services.db
      .update(senderAccounts)
      .set({ smtpUser: 'refused-user' })
      .where(eq(senderAccounts.id, account.id));
    const refusing = await startSmtpSink({ refuseUsers: ['refused-user'] });
    try {
      const result = await sendNextTestRunStep({
        db: app.services.db,
        queue: null,
        log: pino({ level: 'silent' }),
        appUrl: app.services.env.APP_URL,
        encryptionKey: app.services.secrets.encryptionKey,
        network: 'loopback',
        devMailboxPort: refusing.port,
        testRunId: run.id,
      });
      expect(result).toMatchObject({ sent: 0, failed: 1, remaining: 2 });
    } finally {
      await refusing.close();
    }
    const latest = await as(
      app,
      owner.cookie,
    )({ method: 'GET', url: `/api/campaigns/${campaign.id}/test-runs/latest` });
    const first = latest.json<{ run: TestRun }>().run.steps[0]!;
    expect(first.state).toBe('failed');
    expect(first.error).toMatch(/password|sign/i);
  });

  it("answers 404 for another user's campaign", async () => {
    const { campaign } = await campaignWithSequence();
    const other = await createUser(app);
    expect((await start(other, campaign.id)).statusCode).toBe(404);
  });
});
