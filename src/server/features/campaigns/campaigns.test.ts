import { campaignContacts, campaigns, emailVerifications, outboxMessages } from '@server/db/schema/index';
import type { Campaign, CampaignListItem, CampaignStep } from '@shared/campaigns';
import {
  addStepViaApi,
  createCampaignViaApi,
  createListWithContacts,
  stepBody,
  testEmails,
} from '@tests/factories/campaigns';
import { insertDirectoryContacts, uniqueTag } from '@tests/factories/directory';
import { createSinkAccount } from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addSuppression } from '../suppression/suppression.service';
import { resolveAudience } from './audience.service';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** A user on a paid plan with a sink sender account and a list of `count` contacts. */
async function ready(count = 3, plan: 'free' | 'starter' = 'starter') {
  const owner = await createUser(app, {
    plan,
    status: 'active',
    periodEnd: new Date(Date.now() + 30 * 86_400_000),
  });
  const account = await createSinkAccount(app, owner.user.id);
  const emails = testEmails(count);
  const list = await createListWithContacts(
    app,
    owner.user.id,
    emails.map((email, i) => ({ email, firstName: `Ngozi${i}`, company: 'Kano Foods', countryCode: 'NG' })),
  );
  return { owner, account, list, emails, call: as(app, owner.cookie) };
}

async function launchable(count = 3) {
  const ctx = await ready(count);
  const campaign = await createCampaignViaApi(app, ctx.owner.cookie, {
    audience: { listIds: [ctx.list.id], leadFilters: [] },
    senderAccountIds: [ctx.account.id],
  });
  await addStepViaApi(app, ctx.owner.cookie, campaign.id);
  return { ...ctx, campaign };
}

describe('campaign settings and steps', () => {
  it('creates a draft with the defaults, edits it, and answers it in the list', async () => {
    const { owner, account, list, call } = await ready();
    const created = await call({
      method: 'POST',
      url: '/api/campaigns',
      payload: {
        name: 'Lagos distributors',
        audience: { listIds: [list.id] },
        senderAccountIds: [account.id],
      },
    });
    expect(created.statusCode).toBe(201);
    const campaign = created.json<Campaign>();
    expect(campaign).toMatchObject({
      name: 'Lagos distributors',
      kind: 'campaign',
      status: 'draft',
      windowStartMinute: 480,
      windowEndMinute: 1020,
      sendDays: [1, 2, 3, 4, 5],
      senderAccountIds: [account.id],
      audience: { listIds: [list.id], leadFilters: [] },
      contactCount: 0,
      steps: [],
      // Cold outreach starts without the open pixel (PRODUCT.md); clicks stay tracked.
      trackOpens: false,
      trackClicks: true,
      bodyFormat: 'html',
    });

    // The user may turn it on, and send plain text first; the campaign keeps what it was given.
    const patched = await call({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { name: 'Lagos distributors Q3', dailyCap: 40, trackOpens: true, bodyFormat: 'text_html' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<Campaign>()).toMatchObject({
      name: 'Lagos distributors Q3',
      dailyCap: 40,
      trackOpens: true,
      bodyFormat: 'text_html',
    });
    const badFormat = await call({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { bodyFormat: 'rtf' },
    });
    expect(badFormat.statusCode).toBe(400);

    const badGap = await call({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { gapMinSeconds: 500, gapMaxSeconds: 100 },
    });
    expect(badGap.statusCode).toBe(400);
    expect(badGap.json().message).toBe('The longest gap must be at least the shortest');

    const listed = (await call({ method: 'GET', url: '/api/campaigns' })).json<CampaignListItem[]>();
    expect(listed.map((c) => c.id)).toContain(campaign.id);
    expect(listed.find((c) => c.id === campaign.id)).toMatchObject({
      stepCount: 0,
      sent: 0,
      opened: 0,
      replied: 0,
    });
    const userList = (await call({ method: 'GET', url: '/api/user/campaigns' })).json<CampaignListItem[]>();
    expect(userList.map((c) => c.id)).toContain(campaign.id);
    expect(owner.user.id).toBeTruthy();
  });

  it('refuses another user’s list or sender account', async () => {
    const { call } = await ready();
    const other = await ready();
    const byList = await call({
      method: 'POST',
      url: '/api/campaigns',
      payload: { name: 'x', audience: { listIds: [other.list.id] } },
    });
    expect(byList.statusCode).toBe(404);
    expect(byList.json().message).toBe('One of the chosen lists was not found');
    const bySender = await call({
      method: 'POST',
      url: '/api/campaigns',
      payload: { name: 'x', senderAccountIds: [other.account.id] },
    });
    expect(bySender.statusCode).toBe(404);
  });

  it('refuses a time zone the runtime does not know, on create and on edit', async () => {
    const { call, account } = await ready();
    const created = await call({
      method: 'POST',
      url: '/api/campaigns',
      payload: { name: 'x', timeZone: 'Not/AZone', senderAccountIds: [account.id] },
    });
    expect(created.statusCode).toBe(400);
    expect(JSON.stringify(created.json())).toContain('Unknown time zone \\"Not/AZone\\"');
    const draft = await call({ method: 'POST', url: '/api/campaigns', payload: { name: 'x' } });
    const edited = await call({
      method: 'PATCH',
      url: `/api/campaigns/${draft.json<Campaign>().id}`,
      payload: { timeZone: 'Africa/Lagoss' },
    });
    expect(edited.statusCode).toBe(400);
    const kept = await call({ method: 'GET', url: `/api/campaigns/${draft.json<Campaign>().id}` });
    expect(kept.json<Campaign>().timeZone).toBe('Africa/Lagos');
  });

  it('a zone saved before zones were checked blocks launch with its name, never a silent fallback', async () => {
    const { campaign, call } = await launchable(1);
    await app.services.db
      .update(campaigns)
      .set({ timeZone: 'Not/AZone' })
      .where(eq(campaigns.id, campaign.id));
    const refused = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(refused.statusCode).toBe(422);
    const blocker = (refused.json().errors as { code: string; message: string }[]).find(
      (e) => e.code === 'time_zone',
    );
    expect(blocker?.message).toContain('Not/AZone');
  });

  it('adds, edits, reorders and deletes steps, at most 10', async () => {
    const { owner, call } = await ready();
    const campaign = await createCampaignViaApi(app, owner.cookie);
    const first = await addStepViaApi(app, owner.cookie, campaign.id);
    const second = await addStepViaApi(app, owner.cookie, campaign.id, {
      delayDays: 3,
      businessDays: true,
      condition: 'no_reply',
      variants: [
        { key: 'A', subject: 'Following up', bodyHtml: '<p>A</p>', splitPercent: 50 },
        { key: 'B', subject: 'Quick follow-up', bodyHtml: '<p>B</p>', splitPercent: 50 },
      ],
      winnerRule: { metric: 'open', afterSends: 20 },
    });
    expect(second).toMatchObject({
      position: 2,
      delayDays: 3,
      businessDays: true,
      condition: 'no_reply',
      winnerRule: { metric: 'open', afterSends: 20 },
      winnerVariantKey: null,
    });
    expect(second.variants.map((v) => [v.key, v.splitPercent])).toEqual([
      ['A', 50],
      ['B', 50],
    ]);

    const badSplit = await call({
      method: 'PUT',
      url: `/api/campaigns/${campaign.id}/steps/${second.id}`,
      payload: stepBody({
        variants: [
          { key: 'A', subject: 'a', bodyHtml: '<p>a</p>', splitPercent: 60 },
          { key: 'B', subject: 'b', bodyHtml: '<p>b</p>', splitPercent: 60 },
        ],
      }),
    });
    expect(badSplit.statusCode).toBe(400);
    expect(badSplit.body).toContain('The A/B split must add up to 100%');

    const put = await call({
      method: 'PUT',
      url: `/api/campaigns/${campaign.id}/steps/${second.id}`,
      payload: stepBody({ delayDays: 5, condition: 'not_opened' }),
    });
    expect(put.statusCode).toBe(200);
    expect(put.json<CampaignStep>()).toMatchObject({ position: 2, delayDays: 5, condition: 'not_opened' });
    expect(put.json<CampaignStep>().variants).toHaveLength(1);

    const reordered = await call({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/steps/reorder`,
      payload: { stepIds: [second.id, first.id] },
    });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.json<CampaignStep[]>().map((s) => s.id)).toEqual([second.id, first.id]);
    const incomplete = await call({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/steps/reorder`,
      payload: { stepIds: [second.id] },
    });
    expect(incomplete.statusCode).toBe(400);

    const third = await addStepViaApi(app, owner.cookie, campaign.id);
    const removed = await call({ method: 'DELETE', url: `/api/campaigns/${campaign.id}/steps/${second.id}` });
    expect(removed.statusCode).toBe(204);
    const after = (await call({ method: 'GET', url: `/api/campaigns/${campaign.id}` })).json<Campaign>();
    expect(after.steps.map((s) => [s.id, s.position])).toEqual([
      [first.id, 1],
      [third.id, 2],
    ]);

    for (let i = after.steps.length; i < 10; i++) await addStepViaApi(app, owner.cookie, campaign.id);
    const eleventh = await call({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/steps`,
      payload: stepBody(),
    });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json().message).toBe('A campaign can have at most 10 steps');
  });
});

describe('lifecycle', () => {
  it('launch → pause → resume → stop, with the editing rules of each status', async () => {
    const { campaign, call, owner } = await launchable(3);
    const launched = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launched.statusCode).toBe(200);
    expect(launched.json<Campaign>()).toMatchObject({ status: 'active', contactCount: 3 });
    expect(launched.json<Campaign>().startedAt).not.toBeNull();
    const queued = await app.services.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.campaignId, campaign.id));
    expect(queued).toHaveLength(3);
    expect(queued.every((m) => m.state === 'queued')).toBe(true);
    expect(new Set(queued.map((m) => m.stepId)).size).toBe(1);

    const again = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(again.statusCode).toBe(409);

    const editActive = await call({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { dailyCap: 10 },
    });
    expect(editActive.statusCode).toBe(409);
    expect(editActive.json().message).toBe('Pause the campaign to change its settings');
    const renameActive = await call({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { name: 'Renamed' },
    });
    expect(renameActive.statusCode).toBe(200);
    const stepActive = await call({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/steps`,
      payload: stepBody(),
    });
    expect(stepActive.statusCode).toBe(409);
    expect(stepActive.json().message).toBe('Pause the campaign to edit its steps');
    const deleteActive = await call({ method: 'DELETE', url: `/api/campaigns/${campaign.id}` });
    expect(deleteActive.statusCode).toBe(409);
    expect(deleteActive.json().message).toBe('Only drafts can be deleted; archive it instead');

    const paused = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/pause` });
    expect(paused.json<Campaign>().status).toBe('paused');
    expect((await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/pause` })).statusCode).toBe(409);
    const editPaused = await call({
      method: 'PATCH',
      url: `/api/campaigns/${campaign.id}`,
      payload: { dailyCap: 10 },
    });
    expect(editPaused.statusCode).toBe(200);
    const stepPaused = await call({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/steps`,
      payload: stepBody({ delayDays: 2 }),
    });
    expect(stepPaused.statusCode).toBe(201);
    // Pausing keeps the queued messages (the dispatcher skips paused campaigns).
    const stillQueued = await app.services.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.campaignId, campaign.id), eq(outboxMessages.state, 'queued')));
    expect(stillQueued).toHaveLength(3);

    expect(
      (await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/resume` })).json<Campaign>().status,
    ).toBe('active');
    const stopped = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/stop` });
    expect(stopped.json<Campaign>().status).toBe('stopped');
    const rows = await app.services.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.campaignId, campaign.id));
    expect(rows.every((m) => m.state === 'cancelled')).toBe(true);
    const contacts = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, campaign.id));
    expect(contacts.every((c) => c.status === 'stopped')).toBe(true);
    expect((await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/stop` })).statusCode).toBe(409);
    expect((await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/resume` })).statusCode).toBe(
      409,
    );
    expect(owner.user.id).toBeTruthy();
  });

  it('a launch with blockers answers 422 with them; a future start is scheduled without contacts', async () => {
    const { owner, call, list, account } = await ready(2);
    const empty = await createCampaignViaApi(app, owner.cookie, { senderAccountIds: [account.id] });
    const refused = await call({ method: 'POST', url: `/api/campaigns/${empty.id}/launch` });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Fix these before launching');
    const codes = (refused.json().errors as { code: string }[]).map((e) => e.code);
    expect(codes).toEqual(expect.arrayContaining(['no_steps', 'empty_audience']));

    const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const scheduled = await createCampaignViaApi(app, owner.cookie, {
      audience: { listIds: [list.id] },
      senderAccountIds: [account.id],
      scheduledAt: later,
    });
    await addStepViaApi(app, owner.cookie, scheduled.id);
    const launched = await call({ method: 'POST', url: `/api/campaigns/${scheduled.id}/launch` });
    expect(launched.json<Campaign>()).toMatchObject({ status: 'scheduled', contactCount: 0 });
  });

  it('duplicates with steps and no contacts, archives, unarchives, deletes drafts only', async () => {
    const { campaign, call } = await launchable(2);
    await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    const copy = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/duplicate` });
    expect(copy.statusCode).toBe(201);
    const duplicated = copy.json<Campaign>();
    expect(duplicated).toMatchObject({ name: `${campaign.name} (copy)`, status: 'draft', contactCount: 0 });
    expect(duplicated.steps).toHaveLength(1);
    expect(duplicated.steps[0]!.variants[0]!.subject).toBe('Hello {{ firstName | default: "there" }}');

    const archiveActive = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/archive` });
    expect(archiveActive.statusCode).toBe(409);
    await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/stop` });
    const archived = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/archive` });
    expect(archived.json<Campaign>().archivedAt).not.toBeNull();
    const active = (await call({ method: 'GET', url: '/api/campaigns' })).json<CampaignListItem[]>();
    expect(active.map((c) => c.id)).not.toContain(campaign.id);
    const inArchive = (await call({ method: 'GET', url: '/api/campaigns?archived=true' })).json<
      CampaignListItem[]
    >();
    expect(inArchive.map((c) => c.id)).toEqual([campaign.id]);
    await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/unarchive` });
    const stoppedOnes = (await call({ method: 'GET', url: '/api/campaigns?status=stopped' })).json<
      CampaignListItem[]
    >();
    expect(stoppedOnes.map((c) => c.id)).toEqual([campaign.id]);

    expect((await call({ method: 'DELETE', url: `/api/campaigns/${duplicated.id}` })).statusCode).toBe(204);
    expect((await call({ method: 'GET', url: `/api/campaigns/${duplicated.id}` })).statusCode).toBe(404);
  });
});

describe('limits', () => {
  it('free plan: 3 campaigns a month, the 4th (or a duplicate) refused with the upgrade', async () => {
    const owner = await createUser(app);
    const made: Campaign[] = [];
    for (let i = 0; i < 3; i++) made.push(await createCampaignViaApi(app, owner.cookie));
    const fourth = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: '/api/campaigns', payload: { name: 'Fourth' } });
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toMatchObject({
      message: 'Your Free plan allows 3 campaigns a month. Upgrade to Starter for 20.',
      reason: 'plan_limit',
      limit: 'campaigns',
    });
    const copy = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/campaigns/${made[0]!.id}/duplicate` });
    expect(copy.statusCode).toBe(403);
    // Last month's campaigns do not count.
    await app.services.db
      .update(campaigns)
      .set({ createdAt: new Date(Date.UTC(2020, 0, 1)) })
      .where(eq(campaigns.id, made[0]!.id));
    expect(
      (await as(app, owner.cookie)({ method: 'POST', url: '/api/campaigns', payload: { name: 'New' } }))
        .statusCode,
    ).toBe(201);
  });

  it('recipients: an audience past the plan’s recipient limit cannot launch', async () => {
    const owner = await createUser(app); // free: 500 recipients
    const account = await createSinkAccount(app, owner.user.id);
    const list = await createListWithContacts(
      app,
      owner.user.id,
      testEmails(501).map((email) => ({ email, firstName: 'Ade' })),
    );
    const campaign = await createCampaignViaApi(app, owner.cookie, {
      audience: { listIds: [list.id] },
      senderAccountIds: [account.id],
    });
    await addStepViaApi(app, owner.cookie, campaign.id);
    const launch = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launch.statusCode).toBe(403);
    expect(launch.json().message).toBe(
      'Your Free plan allows 500 recipients. Upgrade to Starter for 10,000.',
    );
    const [row] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(row!.status).toBe('draft');
    const contacts = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, campaign.id));
    expect(contacts).toHaveLength(0);
  });
});

describe('ownership', () => {
  it('another user’s campaign and step answer 404 everywhere', async () => {
    const { campaign, call: ownerCall } = await launchable(1);
    const full = as(app, (await createUser(app)).cookie);
    const unsigned = await app.inject({ method: 'GET', url: `/api/campaigns/${campaign.id}` });
    expect(unsigned.statusCode).toBe(401);
    const stepId = (await ownerCall({ method: 'GET', url: `/api/campaigns/${campaign.id}` })).json<Campaign>()
      .steps[0]!.id;
    const id = campaign.id;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/campaigns/${id}`],
      ['PATCH', `/api/campaigns/${id}`, { name: 'Mine now' }],
      ['DELETE', `/api/campaigns/${id}`],
      ['POST', `/api/campaigns/${id}/duplicate`],
      ['POST', `/api/campaigns/${id}/archive`],
      ['POST', `/api/campaigns/${id}/unarchive`],
      ['POST', `/api/campaigns/${id}/launch`],
      ['POST', `/api/campaigns/${id}/pause`],
      ['POST', `/api/campaigns/${id}/resume`],
      ['POST', `/api/campaigns/${id}/stop`],
      ['POST', `/api/campaigns/${id}/steps`, stepBody()],
      ['POST', `/api/campaigns/${id}/steps/reorder`, { stepIds: [stepId] }],
      ['GET', `/api/campaigns/${id}/steps/${stepId}`],
      ['PUT', `/api/campaigns/${id}/steps/${stepId}`, stepBody()],
      ['DELETE', `/api/campaigns/${id}/steps/${stepId}`],
    ];
    for (const [method, url, payload] of attempts) {
      const response = await full({
        method: method as 'GET',
        url,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect([method, url, response.statusCode]).toEqual([method, url, 404]);
    }
    const [row] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, id));
    expect(row!.name).toBe(campaign.name);
    expect(row!.status).toBe('draft');
  });

  it('a step of one campaign is not found under another campaign of the same user', async () => {
    const { owner, call } = await ready();
    const a = await createCampaignViaApi(app, owner.cookie);
    const b = await createCampaignViaApi(app, owner.cookie);
    const step = await addStepViaApi(app, owner.cookie, a.id);
    expect((await call({ method: 'GET', url: `/api/campaigns/${b.id}/steps/${step.id}` })).statusCode).toBe(
      404,
    );
    expect(
      (await call({ method: 'DELETE', url: `/api/campaigns/${b.id}/steps/${step.id}` })).statusCode,
    ).toBe(404);
  });
});

describe('audience', () => {
  it('de-duplicates across lists case-insensitively, leaves suppressed addresses out, keeps custom fields', async () => {
    const { owner, account, call } = await ready(0);
    const emails = testEmails(4, 'aud');
    const first = await createListWithContacts(
      app,
      owner.user.id,
      [
        { email: emails[0]!, firstName: 'Amaka', customFields: { industry: 'Agriculture' } },
        { email: emails[1]!, firstName: 'Bayo' },
        { email: emails[2]!, firstName: 'Chiamaka' },
      ],
      { customFields: ['industry'] },
    );
    const second = await createListWithContacts(app, owner.user.id, [
      { email: emails[0]!.toUpperCase(), firstName: 'Duplicate' },
      { email: emails[3]!, firstName: 'Dayo' },
    ]);
    await addSuppression({
      db: app.services.db,
      userId: owner.user.id,
      email: emails[2]!,
      reason: 'unsubscribed',
    });

    const resolved = [];
    for await (const c of resolveAudience({
      db: app.services.db,
      userId: owner.user.id,
      audience: { listIds: [first.id, second.id], leadFilters: [] },
    }))
      resolved.push(c);
    expect(resolved.map((c) => c.email).sort()).toEqual([emails[0]!, emails[1]!, emails[3]!].sort());
    expect(resolved.find((c) => c.email === emails[0])).toMatchObject({
      firstName: 'Amaka',
      fields: { industry: 'Agriculture' },
    });

    const campaign = await createCampaignViaApi(app, owner.cookie, {
      audience: { listIds: [first.id, second.id] },
      senderAccountIds: [account.id],
    });
    await addStepViaApi(app, owner.cookie, campaign.id);
    const launched = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launched.json<Campaign>().contactCount).toBe(3);
    const contacts = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, campaign.id));
    expect(contacts.map((c) => c.email).sort()).toEqual([emails[0]!, emails[1]!, emails[3]!].sort());
    expect(contacts.find((c) => c.email === emails[0])!.fields).toEqual({ industry: 'Agriculture' });
  });

  it("a directory lead whose address a list already gave, or an earlier filter, goes once, with the list's data", async () => {
    const { owner } = await ready(0);
    const tag = uniqueTag();
    const [onList, twice, alone] = testEmails(3, 'leads');
    const list = await createListWithContacts(app, owner.user.id, [{ email: onList!, firstName: 'Listed' }]);
    await insertDirectoryContacts(app, tag, [
      { email: onList!.toUpperCase(), contactName: 'From Directory', category: 'logistics' },
      { email: twice!, contactName: 'Twice Over', category: 'logistics' },
      { email: ` ${twice!.toUpperCase()}`, contactName: 'Twice Again', category: 'logistics' },
      { email: alone!, contactName: 'Alone Here', category: 'logistics' },
    ]);
    const filter = { country: ['NG'], city: [`${tag}ville`], category: ['logistics'] };
    const resolved = [];
    for await (const c of resolveAudience({
      db: app.services.db,
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [filter, filter] },
    }))
      resolved.push(c);
    expect(resolved.map((c) => [c.email.toLowerCase(), c.firstName]).sort()).toEqual(
      [
        [onList!, 'Listed'],
        [twice!, 'Twice'],
        [alone!, 'Alone'],
      ].sort(),
    );
  });

  it('leaves out the addresses the verifier judged invalid (by default) or risky too, as the audience asks', async () => {
    const { owner, account, call } = await ready(0);
    const [good, refused, catchAll, never] = testEmails(4, 'verdict');
    const list = await createListWithContacts(app, owner.user.id, [
      { email: good!.toUpperCase() },
      { email: refused! },
      { email: catchAll! },
      { email: never! },
    ]);
    const verdict = (
      email: string,
      status: 'valid' | 'invalid' | 'risky',
      reason: 'accepted' | 'rejected' | 'catch_all',
    ) => ({ email, domain: email.split('@')[1]!, status, reason, checkedAt: new Date() });
    await app.services.db
      .insert(emailVerifications)
      .values([
        verdict(good!, 'valid', 'accepted'),
        verdict(refused!, 'invalid', 'rejected'),
        verdict(catchAll!, 'risky', 'catch_all'),
      ]);
    const sentTo = async (skipUnverified?: 'none' | 'invalid' | 'risky') => {
      const emails: string[] = [];
      for await (const c of resolveAudience({
        db: app.services.db,
        userId: owner.user.id,
        audience: { listIds: [list.id], leadFilters: [], ...(skipUnverified ? { skipUnverified } : {}) },
      }))
        emails.push(c.email.toLowerCase());
      return emails.sort();
    };
    expect(await sentTo()).toEqual([good!, catchAll!, never!].sort());
    expect(await sentTo('risky')).toEqual([good!, never!].sort());
    expect(await sentTo('none')).toEqual([good!, refused!, catchAll!, never!].sort());

    const campaign = await createCampaignViaApi(app, owner.cookie, {
      audience: { listIds: [list.id], skipUnverified: 'risky' },
      senderAccountIds: [account.id],
    });
    expect(campaign.audience.skipUnverified).toBe('risky');
    await addStepViaApi(app, owner.cookie, campaign.id);
    const launched = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launched.json<Campaign>().contactCount).toBe(2);
  });
});
