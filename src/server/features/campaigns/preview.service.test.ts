import { randomUUID } from 'node:crypto';
import type { PersonalizePreview } from '@shared/personalize';
import { addCampaign, addList, addSenderAccount } from '@tests/factories/personalize';
import { createUser, type TestUser } from '@tests/factories/users';
import { mailTo, waitForMail } from '@tests/setup/dev-mail';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const tag = () => randomUUID().slice(0, 8);

async function setup(owner: TestUser) {
  const id = tag();
  const list = await addList(app, {
    userId: owner.user.id,
    customFields: ['industry'],
    contacts: [
      {
        email: `ngozi-${id}@client.test`,
        firstName: 'Ngozi',
        company: 'Ngozi Farms',
        customFields: { industry: 'Agriculture' },
      },
      { email: `bare-${id}@client.test`, firstName: null, company: null },
    ],
  });
  const account = await addSenderAccount(app, { userId: owner.user.id, devMailbox: true });
  const { campaign, steps } = await addCampaign(app, {
    userId: owner.user.id,
    audience: { listIds: [list.id], leadFilters: [] },
    accountIds: [account.id],
    steps: [
      {
        variants: [
          {
            subject: '{Hi|Hello} {{ firstName | default: "there" }}',
            bodyHtml: '<p>{{ company | default: "your team" }} in {{ industry }} — {{ senderName }}</p>',
          },
        ],
      },
    ],
  });
  return { id, list, account, campaign, step: steps[0]! };
}

describe('POST /api/campaigns/:id/preview', () => {
  it('previews as the first audience contact, the chosen one, or the sample', async () => {
    const owner = await createUser(app);
    const { id, campaign, step } = await setup(owner);
    const request = as(app, owner.cookie);

    const first = await request({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: step.id, variantKey: 'A' },
    });
    expect(first.statusCode).toBe(200);
    const preview = first.json<PersonalizePreview>();
    expect(preview.sample).toBe(false);
    expect(preview.contact.email).toBe(`ngozi-${id}@client.test`);
    expect(preview.subject).toMatch(/^(Hi|Hello) Ngozi$/);
    expect(preview.html).toContain('<p>Ngozi Farms in Agriculture — Tunde Bello</p>');
    // The footer the recipient sees, and a text part.
    expect(preview.html).toContain('Unsubscribe');
    expect(preview.text).toContain('Ngozi Farms in Agriculture');
    expect(preview.unknownTags).toEqual([]);

    const bare = await request({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: step.id, email: `BARE-${id}@client.test` },
    });
    expect(bare.statusCode).toBe(200);
    const barePreview = bare.json<PersonalizePreview>();
    expect(barePreview.subject).toMatch(/^(Hi|Hello) there$/);
    expect(barePreview.html).toContain('your team in  —');
    expect(barePreview.fallbacksUsed.sort()).toEqual(['company', 'firstName', 'industry']);

    const sample = await request({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: step.id, sample: true },
    });
    expect(sample.json<PersonalizePreview>().sample).toBe(true);
    expect(sample.json<PersonalizePreview>().contact.firstName).toBe('Amaka');

    const stranger = await request({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: step.id, email: 'nobody@else.test' },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('previews the same spin a contact will be sent', async () => {
    const owner = await createUser(app);
    const { campaign, step } = await setup(owner);
    const subjects = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const response = await as(
        app,
        owner.cookie,
      )({
        method: 'POST',
        url: `/api/campaigns/${campaign.id}/preview`,
        payload: { stepId: step.id },
      });
      subjects.add(response.json<PersonalizePreview>().subject);
    }
    expect(subjects.size).toBe(1);
  });

  it("answers 404 for another user's campaign, step or variant", async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const { campaign, step } = await setup(owner);
    const theirs = await as(
      app,
      other.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: step.id },
    });
    expect(theirs.statusCode).toBe(404);
    const prelaunch = await as(
      app,
      other.cookie,
    )({ method: 'GET', url: `/api/campaigns/${campaign.id}/prelaunch` });
    expect(prelaunch.statusCode).toBe(404);
    const noStep = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: randomUUID() },
    });
    expect(noStep.statusCode).toBe(404);
    const noVariant = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: step.id, variantKey: 'C' },
    });
    expect(noVariant.statusCode).toBe(404);
    const anonymous = await app.inject({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: step.id },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /api/campaigns/:id/test-send', () => {
  it('sends one personalised copy to the user through the chosen account', async () => {
    const owner = await createUser(app);
    const { campaign, step, account } = await setup(owner);
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/test-send`,
      payload: { stepId: step.id, variantKey: 'A', senderAccountId: account.id },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true, to: owner.email, warnings: [] });
    const message = await waitForMail(app, owner.email);
    expect(message.fromAddress).toContain(account.fromEmail);
    expect(message.subject).toMatch(/^\[Test\] (Hi|Hello) Ngozi$/);
    expect(message.headers.find((h) => h.key === 'List-Unsubscribe')?.value).toContain('/u/');
    expect(message.headers.find((h) => h.key === 'List-Unsubscribe-Post')?.value).toBe(
      'List-Unsubscribe=One-Click',
    );
    expect(message.html).toContain('Ngozi Farms in Agriculture');
    expect(message.text).toContain('Ngozi Farms in Agriculture');
  });

  it('sends a copy with an unknown merge tag but warns that it goes out empty', async () => {
    const owner = await createUser(app);
    const { list, account } = await setup(owner);
    const { campaign, steps } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [account.id],
      steps: [
        {
          variants: [
            { subject: 'Hello {{ frstName }}', bodyHtml: '<p>Hello {{ frstName }}, see you on [Date].</p>' },
          ],
        },
      ],
    });
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/test-send`,
      payload: { stepId: steps[0]!.id, variantKey: 'A', senderAccountId: account.id },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().warnings).toEqual([
      'Subject: {{ frstName }} is not a merge tag (did you mean {{ firstName }}?): it would be sent empty',
      '{{ frstName }} is not a merge tag (did you mean {{ firstName }}?): it would be sent empty',
      '[Date] is a placeholder: replace it with the real text',
    ]);
    const message = await waitForMail(app, owner.email);
    expect(message.html).toContain('Hello , see you on [Date].');
  });

  it("refuses another user's sender account and campaign", async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const { campaign, step } = await setup(owner);
    const theirAccount = await addSenderAccount(app, { userId: other.user.id, devMailbox: true });
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/test-send`,
      payload: { stepId: step.id, senderAccountId: theirAccount.id },
    });
    expect(response.statusCode).toBe(404);
    const notTheirs = await as(
      app,
      other.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/test-send`,
      payload: { stepId: step.id, senderAccountId: theirAccount.id },
    });
    expect(notTheirs.statusCode).toBe(404);
    expect(await mailTo(app, owner.email)).toEqual([]);
    expect(await mailTo(app, other.email)).toEqual([]);
  });

  it('gives a safe message when the server cannot be reached', async () => {
    const owner = await createUser(app);
    const { campaign, step } = await setup(owner);
    const dead = await addSenderAccount(app, { userId: owner.user.id, port: 587 });
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/test-send`,
      payload: { stepId: step.id, senderAccountId: dead.id, to: 'me@owner.test' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });
});

describe('POST /api/personalize/preview', () => {
  it('renders with the sample contact and reports unknown tags', async () => {
    const owner = await createUser(app);
    const response = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: '/api/personalize/preview',
      payload: { subject: 'Hello {{ firstName }}', html: '<p>{{ compny }} {{ city }}</p>' },
    });
    expect(response.statusCode).toBe(200);
    const preview = response.json<PersonalizePreview>();
    expect(preview.subject).toBe('Hello Amaka');
    expect(preview.html).toContain('<p> Lagos</p>');
    expect(preview.unknownTags).toEqual(['compny']);
    expect(preview.sample).toBe(true);
  });

  it("uses the first contact of the user's own lists, never another user's", async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const id = tag();
    const list = await addList(app, {
      userId: owner.user.id,
      customFields: ['region'],
      contacts: [{ email: `kofi-${id}@client.test`, firstName: 'Kofi', customFields: { region: 'Ashanti' } }],
    });
    const mine = await as(
      app,
      owner.cookie,
    )({
      method: 'POST',
      url: '/api/personalize/preview',
      payload: { subject: 'Hi {{ firstName }}', html: '<p>{{ region }}</p>', listIds: [list.id] },
    });
    expect(mine.json<PersonalizePreview>().html).toContain('<p>Ashanti</p>');
    expect(mine.json<PersonalizePreview>().unknownTags).toEqual([]);
    const theirs = await as(
      app,
      other.cookie,
    )({
      method: 'POST',
      url: '/api/personalize/preview',
      payload: { subject: 'Hi {{ firstName }}', html: '<p>{{ region }}</p>', listIds: [list.id] },
    });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json<PersonalizePreview>().subject).toBe('Hi Amaka');
    expect(theirs.json<PersonalizePreview>().unknownTags).toEqual(['region']);
  });
});
