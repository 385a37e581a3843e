import { campaignContacts, campaigns, emailEvents, outboxMessages } from '@server/db/schema/index';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import type { Campaign, CampaignStep, StepInput } from '@shared/campaigns';
import {
  addStepViaApi,
  createCampaignViaApi,
  createListWithContacts,
  testEmails,
} from '@tests/factories/campaigns';
import { createSinkAccount, dispatchContext } from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox } from '../sending/sending.service';
import { addStepDelay } from './next-step';
import { advanceCampaignSequences, chooseVariant, nextAction } from './sequencing';

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

async function paidUser(): Promise<TestUser> {
  return createUser(app, { plan: 'starter', status: 'active', periodEnd: new Date(Date.now() + 400 * DAY) });
}

async function launchedCampaign(options: {
  owner: TestUser;
  count: number;
  steps: Partial<StepInput>[];
  settings?: Record<string, unknown>;
}) {
  const { owner } = options;
  const account = await createSinkAccount(app, owner.user.id);
  const emails = testEmails(options.count);
  const list = await createListWithContacts(
    app,
    owner.user.id,
    emails.map((email, i) => ({ email, firstName: `Kemi${i}`, company: 'Kano Foods', countryCode: 'NG' })),
  );
  const campaign = await createCampaignViaApi(app, owner.cookie, {
    audience: { listIds: [list.id] },
    senderAccountIds: [account.id],
    ...options.settings,
  });
  for (const step of options.steps) await addStepViaApi(app, owner.cookie, campaign.id, step);
  const launched = await as(
    app,
    owner.cookie,
  )({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
  if (launched.statusCode !== 200) throw new Error(`launch ${launched.statusCode}: ${launched.body}`);
  const full = launched.json<Campaign>();
  return { campaign: full, account, emails };
}

async function contactsOf(campaignId: string) {
  return app.services.db.select().from(campaignContacts).where(eq(campaignContacts.campaignId, campaignId));
}

async function messagesOf(campaignId: string) {
  return app.services.db.select().from(outboxMessages).where(eq(outboxMessages.campaignId, campaignId));
}

function advance(userId: string) {
  return advanceCampaignSequences({
    db: app.services.db,
    queue: null,
    appUrl: app.services.env.APP_URL,
    onlyUserId: userId,
  });
}

async function event(
  campaignId: string,
  contactId: string,
  type: 'opened' | 'clicked' | 'replied',
  userId: string,
  machine = false,
  outboxMessageId?: string,
) {
  await app.services.db.insert(emailEvents).values({
    userId,
    campaignId,
    campaignContactId: contactId,
    outboxMessageId: outboxMessageId ?? null,
    type,
    machine,
    occurredAt: now(),
  });
}

const followUp = (condition: StepInput['condition']): Partial<StepInput> => ({
  delayDays: 2,
  condition,
  variants: [
    { key: 'A', subject: 'Following up', bodyHtml: '<p>Still keen, {{ firstName }}?</p>', splitPercent: 100 },
  ],
});

describe('step conditions, evaluated when the step comes due', () => {
  it.each([
    ['always', [true, true, true, true]],
    ['not_opened', [false, true, true, true]],
    ['clicked', [false, false, true, false]],
    ['no_reply', [true, true, true, false]],
  ] as const)('%s', async (condition, expected) => {
    const owner = await paidUser();
    const { campaign } = await launchedCampaign({ owner, count: 4, steps: [{}, followUp(condition)] });
    const summary = await drainOutbox(dispatchContext(app, sink.port, owner.user.id));
    expect(summary.sent).toBe(4);
    const contacts = (await contactsOf(campaign.id)).sort((a, b) =>
      a.email.localeCompare(b.email, 'en', { numeric: true }),
    );
    // Sent: the next step is due its delay after the send.
    for (const c of contacts) {
      expect(c.currentStep).toBe(1);
      expect(c.nextStepAt!.getTime() - now().getTime()).toBeGreaterThan(2 * DAY - 60_000);
    }
    // 0 opened (a person), 1 opened only by a privacy proxy, 2 clicked, 3 replied (still active here, as
    // if the reply was recorded without ending the sequence: the condition reads events).
    await event(campaign.id, contacts[0]!.id, 'opened', owner.user.id);
    await event(campaign.id, contacts[1]!.id, 'opened', owner.user.id, true);
    await event(campaign.id, contacts[2]!.id, 'clicked', owner.user.id);
    await event(campaign.id, contacts[3]!.id, 'replied', owner.user.id);

    // Not due yet: nothing happens.
    expect((await advance(owner.user.id)).queued).toBe(0);
    advanceClock(2 * DAY + 60_000);
    const result = await advance(owner.user.id);
    const stepTwo = campaign.steps[1]!.id;
    const queued = (await messagesOf(campaign.id)).filter((m) => m.stepId === stepTwo);
    const got = contacts.map((c) => queued.some((m) => m.campaignContactId === c.id));
    expect(got).toEqual(expected);
    expect(result.queued).toBe(expected.filter(Boolean).length);
    // A skipped last step completes the contact.
    const after = await contactsOf(campaign.id);
    for (const [i, c] of contacts.entries()) {
      const row = after.find((r) => r.id === c.id)!;
      expect(row.status).toBe(expected[i] ? 'active' : 'completed');
    }
  });

  it('a skipped step passes the contact to the next one, due after its own delay', async () => {
    const steps = [
      { id: 's1', position: 1, delayDays: 0, delayHours: 0, businessDays: false, condition: 'always' },
      { id: 's2', position: 2, delayDays: 2, delayHours: 0, businessDays: false, condition: 'clicked' },
      { id: 's3', position: 3, delayDays: 3, delayHours: 0, businessDays: false, condition: 'always' },
    ].map((s) => ({ ...s, winnerRule: null, winnerVariantKey: null, variants: [] })) as CampaignStep[];
    const due = new Date('2026-03-02T09:00:00Z');
    const waiting = nextAction(
      { currentStep: 1, nextStepAt: due },
      steps,
      undefined,
      new Date(due.getTime() + 1000),
      'UTC',
    );
    expect(waiting).toEqual({
      kind: 'wait',
      currentStep: 2,
      dueAt: new Date(due.getTime() + 3 * DAY),
      skipped: 1,
    });
    const later = nextAction(
      { currentStep: 2, nextStepAt: waiting.kind === 'wait' ? waiting.dueAt : null },
      steps,
      undefined,
      new Date(due.getTime() + 4 * DAY),
      'UTC',
    );
    expect(later).toMatchObject({ kind: 'send', step: { id: 's3' } });
  });

  it('business days skip the weekend', () => {
    const friday = new Date('2026-03-06T10:00:00Z');
    expect(
      addStepDelay(friday, { delayDays: 1, delayHours: 0, businessDays: true }, 'Africa/Lagos').toISOString(),
    ).toBe('2026-03-09T10:00:00.000Z');
    expect(
      addStepDelay(friday, { delayDays: 3, delayHours: 2, businessDays: true }, 'Africa/Lagos').toISOString(),
    ).toBe('2026-03-11T12:00:00.000Z');
    expect(
      addStepDelay(
        friday,
        { delayDays: 1, delayHours: 0, businessDays: false },
        'Africa/Lagos',
      ).toISOString(),
    ).toBe('2026-03-07T10:00:00.000Z');
  });
});

describe('A/B variants', () => {
  const twoWay = (a: number): CampaignStep =>
    ({
      id: '7d1f7c4e-0000-4000-8000-000000000001',
      position: 1,
      delayDays: 0,
      delayHours: 0,
      businessDays: false,
      condition: 'always',
      winnerRule: null,
      winnerVariantKey: null,
      variants: [
        { id: 'a', key: 'A', subject: 'A', bodyHtml: 'A', splitPercent: a },
        { id: 'b', key: 'B', subject: 'B', bodyHtml: 'B', splitPercent: 100 - a },
      ],
    }) as CampaignStep;

  it('splits by percentage, the same way every time for a contact', () => {
    const ids = Array.from(
      { length: 2000 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const first = ids.map((id) => chooseVariant(twoWay(30), id)!.key);
    const second = ids.map((id) => chooseVariant(twoWay(30), id)!.key);
    expect(second).toEqual(first);
    const share = first.filter((k) => k === 'A').length / ids.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    expect(ids.every((id) => chooseVariant(twoWay(100), id)!.key === 'A')).toBe(true);
    expect(chooseVariant({ ...twoWay(50), winnerVariantKey: 'B' }, ids[0]!)!.key).toBe('B');
  });

  it('the winner rule picks the best open rate after N sends; losers still queued get the winner', async () => {
    const owner = await paidUser();
    const { campaign } = await launchedCampaign({
      owner,
      count: 30,
      settings: { dailyCap: 12 },
      steps: [
        {
          variants: [
            { key: 'A', subject: 'Variant A {{ firstName }}', bodyHtml: '<p>A</p>', splitPercent: 50 },
            { key: 'B', subject: 'Variant B {{ firstName }}', bodyHtml: '<p>B</p>', splitPercent: 50 },
          ],
          winnerRule: { metric: 'open', afterSends: 10 },
        },
      ],
    });
    const queued = await messagesOf(campaign.id);
    expect(new Set(queued.map((m) => m.variantKey))).toEqual(new Set(['A', 'B']));
    // The campaign's daily cap lets 12 go today.
    await drainOutbox(dispatchContext(app, sink.port, owner.user.id));
    const sent = (await messagesOf(campaign.id)).filter((m) => m.state === 'sent');
    expect(sent).toHaveLength(12);
    // Only B's readers open.
    for (const m of sent.filter((x) => x.variantKey === 'B'))
      await event(campaign.id, m.campaignContactId, 'opened', owner.user.id, false, m.id);
    await advance(owner.user.id);
    const [step] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(step).toBeDefined();
    const after = await messagesOf(campaign.id);
    const stillQueued = after.filter((m) => m.state === 'queued');
    expect(stillQueued.every((m) => m.variantKey === 'B')).toBe(true);
    const cancelledA = after.filter((m) => m.state === 'cancelled' && m.variantKey === 'A');
    // Every contact that was waiting with A has (or will have, when due) B.
    advanceClock(DAY + 60_000);
    await advance(owner.user.id);
    const final = await messagesOf(campaign.id);
    for (const m of cancelledA) {
      const replacement = final.find(
        (x) => x.campaignContactId === m.campaignContactId && x.state === 'queued',
      );
      expect(replacement?.variantKey).toBe('B');
    }
    const detail = (
      await as(app, owner.cookie)({ method: 'GET', url: `/api/campaigns/${campaign.id}` })
    ).json<Campaign>();
    expect(detail.steps[0]!.winnerVariantKey).toBe('B');
    // Nobody gets the step twice.
    const live = final.filter((m) => m.state !== 'cancelled');
    expect(new Set(live.map((m) => m.campaignContactId)).size).toBe(live.length);
    expect(live).toHaveLength(30);
  });
});

describe('scheduled start', () => {
  it('a scheduled campaign starts (audience copied, step 1 queued) once its time has come', async () => {
    const owner = await paidUser();
    const account = await createSinkAccount(app, owner.user.id);
    const list = await createListWithContacts(
      app,
      owner.user.id,
      testEmails(2).map((email) => ({ email })),
    );
    const campaign = await createCampaignViaApi(app, owner.cookie, {
      audience: { listIds: [list.id] },
      senderAccountIds: [account.id],
      scheduledAt: new Date(Date.now() + DAY).toISOString(),
    });
    await addStepViaApi(app, owner.cookie, campaign.id);
    await as(app, owner.cookie)({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    const { startScheduledCampaigns } = await import('./launch.service');
    const ctx = {
      db: app.services.db,
      queue: null,
      appUrl: app.services.env.APP_URL,
      onlyUserId: owner.user.id,
    };
    expect(await startScheduledCampaigns(ctx)).toEqual([]);
    advanceClock(DAY + 60_000);
    expect(await startScheduledCampaigns(ctx)).toEqual([campaign.id]);
    const [row] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(row!.status).toBe('active');
    const queued = await app.services.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.campaignId, campaign.id), eq(outboxMessages.state, 'queued')));
    expect(queued).toHaveLength(2);
  });
});
