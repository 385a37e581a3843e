import { randomUUID } from 'node:crypto';
import { OPEN_TRACKING_WARNING, type PrelaunchReport } from '@shared/personalize';
import { addCampaign, addList, addSenderAccount, PASSING_DOMAIN_CHECK } from '@tests/factories/personalize';
import { createUser } from '@tests/factories/users';
import { as, createTestApp } from '@tests/setup/test-app';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPrelaunchReport } from './prelaunch';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const tag = () => randomUUID().slice(0, 8);
const codes = (items: { code: string }[]) => items.map((i) => i.code);

const cleanStep = {
  variants: [
    {
      subject: 'Cold-chain storage for {{ company | default: "your business" }}',
      bodyHtml:
        '<p>Hi {{ firstName | default: "there" }},</p><p>We run refrigerated warehouses in Kano and Lagos. Would a short call next week help? Details: <a href="https://coldchain.ng/kano">our Kano site</a>.</p><p>{{ senderName }}</p>',
    },
  ],
};

async function report(userId: string, campaignId: string): Promise<PrelaunchReport> {
  return getPrelaunchReport({ db: app.services.db, userId, campaignId });
}

describe('GET /api/campaigns/:id/prelaunch', () => {
  it('blocks a campaign with no steps, no audience and no sender', async () => {
    const owner = await createUser(app);
    const { campaign } = await addCampaign(app, { userId: owner.user.id });
    const response = await as(
      app,
      owner.cookie,
    )({ method: 'GET', url: `/api/campaigns/${campaign.id}/prelaunch` });
    expect(response.statusCode).toBe(200);
    const body = response.json<PrelaunchReport>();
    expect(body.ready).toBe(false);
    expect(codes(body.blockers)).toEqual(['no_steps', 'empty_audience', 'no_sender']);
    expect(body.audienceSize).toBe(0);
    expect(body.estimatedFinish).toBeNull();
  });

  it('passes a clean campaign and estimates its finish', async () => {
    const owner = await createUser(app);
    const id = tag();
    const list = await addList(app, {
      userId: owner.user.id,
      contacts: Array.from({ length: 30 }, (_, i) => ({
        email: `c${i}-${id}@client.test`,
        firstName: `Name${i}`,
        company: `Company ${i}`,
        countryCode: 'NG',
      })),
    });
    const account = await addSenderAccount(app, { userId: owner.user.id, dailyCap: 20 });
    const { campaign } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [account.id],
      steps: [cleanStep],
    });
    const result = await report(owner.user.id, campaign.id);
    expect(result.blockers).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.ready).toBe(true);
    expect(result.audienceSize).toBe(30);
    expect(result.dailyCapacity).toBe(20);
    expect(result.estimatedFinish).not.toBeNull();
    expect(codes(result.passed)).toEqual(
      expect.arrayContaining([
        'merge_tags',
        'links',
        'spam_score',
        'unsubscribe',
        'audience',
        'fallbacks',
        'senders',
        'domains',
      ]),
    );
  });

  it('warns, without blocking, when {{ senderCompany }} meets a sender account with no company', async () => {
    const owner = await createUser(app);
    const id = tag();
    const list = await addList(app, {
      userId: owner.user.id,
      contacts: [
        { email: `c-${id}@client.test`, firstName: 'Amaka', company: 'Okafor Foods', countryCode: 'NG' },
      ],
    });
    const named = await addSenderAccount(app, { userId: owner.user.id, company: 'Bello Cold Chain' });
    const unnamed = await addSenderAccount(app, { userId: owner.user.id });
    const step = {
      variants: [
        {
          ...cleanStep.variants[0]!,
          bodyHtml: `${cleanStep.variants[0]!.bodyHtml}<p>{{ senderCompany | default: "our team" }}</p>`,
        },
      ],
    };
    const { campaign } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [named.id, unnamed.id],
      steps: [step],
    });
    const result = await report(owner.user.id, campaign.id);
    expect(result.blockers).toEqual([]);
    expect(result.ready).toBe(true);
    const warning = result.warnings.find((w) => w.code === 'sender_company_missing');
    expect(warning?.message).toBe(
      `Sender account ${unnamed.fromEmail} has no company: {{ senderCompany }} shows its fallback in the emails it sends`,
    );
    expect(warning?.detail).not.toContain(named.fromEmail);
    // The tag is the sender's, not the contact's: no contact is counted as missing it.
    expect(codes(result.warnings)).not.toContain('fallbacks');

    // Every account named: no warning; a copy without the tag never warns.
    const { campaign: allNamed } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [named.id],
      steps: [step],
    });
    expect(codes((await report(owner.user.id, allNamed.id)).warnings)).not.toContain(
      'sender_company_missing',
    );
    const { campaign: noTag } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [unnamed.id],
      steps: [cleanStep],
    });
    expect(codes((await report(owner.user.id, noTag.id)).warnings)).not.toContain('sender_company_missing');
  });

  it('scores each step as sent, names the engine and its rules, and sends a short step without the pixel', async () => {
    const owner = await createUser(app);
    const id = tag();
    const list = await addList(app, {
      userId: owner.user.id,
      contacts: [{ email: `ada-${id}@client.test`, firstName: 'Ada', countryCode: 'NG' }],
    });
    const account = await addSenderAccount(app, { userId: owner.user.id });
    const base = {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [account.id],
      steps: [cleanStep],
    };

    const off = await report(owner.user.id, (await addCampaign(app, base)).campaign.id);
    expect(codes(off.warnings)).not.toContain('open_tracking');
    // SPAMASSASSIN=off in tests: the built-in rules score, and the report says so.
    expect(off.spam).toMatchObject({ engine: 'builtin', required: 5 });
    expect(off.spam!.note).toBe('SpamAssassin is turned off on this server');
    expect(off.spam!.copies).toHaveLength(1);
    expect(off.spam!.copies[0]).toMatchObject({ at: 'Step 1', variantKey: 'A', pixel: false });
    expect(off.passed.find((p) => p.code === 'spam_score')?.message).toMatch(/as sent \(built-in rules/);

    const on = await report(
      owner.user.id,
      (await addCampaign(app, { ...base, settings: { trackOpens: true } })).campaign.id,
    );
    const warning = on.warnings.find((w) => w.code === 'open_tracking');
    expect(warning?.message).toBe(OPEN_TRACKING_WARNING);
    // The short clean copy goes without the pixel, so it costs nothing; the detail says what it would have.
    expect(warning?.detail).toMatch(
      /^Sent without the pixel \(opens not counted\):\nStep 1: the pixel would cost \+\d\.\d \(HTML_IMAGE_ONLY_\d\d\)$/,
    );
    expect(on.spam!.copies[0]!.pixel).toBe(false);
    expect(on.spam!.copies[0]!.rules.map((r) => r.rule)).not.toContainEqual(
      expect.stringMatching(/^HTML_IMAGE_ONLY/),
    );
    expect(on.spam!.copies[0]!.score).toBe(off.spam!.copies[0]!.score);
  });

  it('names each problem of the copy, the audience and the senders', async () => {
    const owner = await createUser(app);
    const id = tag();
    const list = await addList(app, {
      userId: owner.user.id,
      customFields: ['industry'],
      contacts: [
        {
          email: `thabo-${id}@client.test`,
          firstName: 'Thabo',
          countryCode: 'ZA',
          customFields: { industry: 'Mining' },
        },
        { email: `nameless-${id}@client.test`, firstName: null, countryCode: 'DE' },
        { email: `ama-${id}@client.test`, firstName: 'Ama', countryCode: 'GH' },
      ],
    });
    const failingSpf = await addSenderAccount(app, {
      userId: owner.user.id,
      domainCheck: {
        ...PASSING_DOMAIN_CHECK,
        spf: {
          status: 'fail',
          detail: 'No SPF record',
          found: null,
          fix: { type: 'TXT', host: '@', value: 'v=spf1 mx -all' },
        },
        dkim: { ...PASSING_DOMAIN_CHECK.dkim, status: 'warn', detail: 'No DKIM key found' },
      },
    });
    const paused = await addSenderAccount(app, { userId: owner.user.id, status: 'paused' });
    const { campaign, steps } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [failingSpf.id, paused.id],
      steps: [
        {
          variants: [
            {
              key: 'A',
              subject: 'Hi {{ firstName }} in {{ industry }}',
              bodyHtml:
                '<p>{{ frstName }} see <a href="https://bit.ly/abc">this</a> and <a href="http://coldchain.ng">that</a> and <a href="www.broken">x</a></p><p><a href="{{ unsubscribe }}">unsubscribe</a></p>',
              splitPercent: 50,
            },
            {
              key: 'B',
              subject: 'URGENT!!! YOU HAVE WON $$$',
              bodyHtml:
                '<p>Dear beneficiary, act now to claim your funds. 100% guaranteed, no risk, this is not spam!!! Western Union processing fee.</p>',
              splitPercent: 50,
            },
          ],
        },
        {
          delayDays: 3,
          variants: [{ subject: 'Following up', bodyHtml: '<p>{% for x in list %}{{ x }}{% endfor %}</p>' }],
        },
      ],
    });
    const result = await report(owner.user.id, campaign.id);
    expect(result.ready).toBe(false);
    const blockerCodes = codes(result.blockers);
    expect(blockerCodes).toEqual(
      expect.arrayContaining([
        'unknown_merge_tags',
        'unsubscribe_tag',
        'link_shortener',
        'merge_tag_syntax',
        'spf_fail',
      ]),
    );
    const unknown = result.blockers.find((b) => b.code === 'unknown_merge_tags')!;
    expect(unknown.stepId).toBe(steps[0]!.id);
    expect(unknown.variantKey).toBe('A');
    expect(unknown.message).toContain('{{ frstName }} (did you mean {{ firstName }}?)');
    expect(result.blockers.find((b) => b.code === 'merge_tag_syntax')!.message).toMatch(/^Step 2:/);

    const warningCodes = codes(result.warnings);
    expect(warningCodes).toEqual(
      expect.arrayContaining([
        'broken_link',
        'insecure_link',
        'spam_score',
        'fallbacks',
        'consent',
        'sender_unhealthy',
        'dkim',
      ]),
    );
    const spam = result.warnings.find((w) => w.code === 'spam_score')!;
    expect(spam.variantKey).toBe('B');
    const fallbacks = result.warnings.filter((w) => w.code === 'fallbacks');
    // "nameless" has no first name, two contacts have no industry; firstName has no fallback written.
    expect(fallbacks.map((w) => w.message).sort()).toEqual([
      '1 of 3 contacts have no first name',
      '2 of 3 contacts have no industry',
    ]);
    expect(fallbacks.find((w) => w.message.includes('first name'))!.detail).toContain('Add a fallback');
    const consent = result.warnings.filter((w) => w.code === 'consent').map((w) => w.message);
    expect(consent).toEqual(
      expect.arrayContaining([
        expect.stringContaining('1 contacts are covered by POPIA'),
        expect.stringContaining('1 contacts are covered by GDPR'),
      ]),
    );
    expect(result.audienceSize).toBe(3);
  });

  it('blocks when every sender is paused and warns about an unchecked domain', async () => {
    const owner = await createUser(app);
    const list = await addList(app, {
      userId: owner.user.id,
      contacts: [{ email: `a-${tag()}@client.test`, firstName: 'A', company: 'Acme' }],
    });
    const paused = await addSenderAccount(app, { userId: owner.user.id, status: 'paused' });
    const { campaign } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [paused.id],
      steps: [cleanStep],
    });
    const result = await report(owner.user.id, campaign.id);
    expect(codes(result.blockers)).toEqual(['no_active_sender']);
    expect(result.estimatedFinish).toBeNull();

    const unchecked = await addSenderAccount(app, { userId: owner.user.id, domainCheck: null });
    const second = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [unchecked.id],
      steps: [cleanStep],
    });
    const next = await report(owner.user.id, second.campaign.id);
    expect(next.ready).toBe(true);
    expect(codes(next.warnings)).toEqual(['domain_unchecked']);
  });

  it('reports a deleted list of the audience as a blocker', async () => {
    const owner = await createUser(app);
    const account = await addSenderAccount(app, { userId: owner.user.id });
    const { campaign } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [randomUUID()], leadFilters: [] },
      accountIds: [account.id],
      steps: [cleanStep],
    });
    const result = await report(owner.user.id, campaign.id);
    expect(codes(result.blockers)).toEqual(['audience_invalid']);
  });
});

describe('placeholders', () => {
  it('refuses to launch while a step holds placeholders, naming the step and each placeholder', async () => {
    const owner = await createUser(app);
    const list = await addList(app, {
      userId: owner.user.id,
      contacts: [{ email: `p-${tag()}@client.test`, firstName: 'Ada', company: 'Acme', countryCode: 'NG' }],
    });
    const account = await addSenderAccount(app, { userId: owner.user.id });
    const { campaign, steps } = await addCampaign(app, {
      userId: owner.user.id,
      audience: { listIds: [list.id], leadFilters: [] },
      accountIds: [account.id],
      steps: [
        cleanStep,
        {
          delayDays: 3,
          variants: [
            {
              subject: 'Our webinar on [Date]',
              bodyHtml:
                '<p>Hi {{ firstName | default: "there" }},</p><p>When: [date and time]. Our customers see [[edit: 42% average open rate]].</p><p><a href="https://www.example.com/register">Register</a></p>',
            },
          ],
        },
      ],
    });
    const call = as(app, owner.cookie);
    const launched = await call({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launched.statusCode).toBe(422);
    const body = launched.json<{
      code: string;
      errors: { code: string; message: string; stepId?: string }[];
    }>();
    expect(body.code).toBe('unprocessable');
    const blocker = body.errors.find((e) => e.code === 'placeholders')!;
    expect(blocker.stepId).toBe(steps[1]!.id);
    expect(blocker.message).toMatch(/^Step 2: Subject: \[Date\] is a placeholder/);
    expect(blocker.message).toContain('[date and time] is a placeholder');
    expect(blocker.message).toContain('[[edit: 42% average open rate]] is marked to edit');
    expect(blocker.message).toContain('(and 1 more)');
    // The clean first step has no placeholders blocker of its own.
    expect(body.errors.filter((e) => e.code === 'placeholders')).toHaveLength(1);
    const report = await getPrelaunchReport({
      db: app.services.db,
      userId: owner.user.id,
      campaignId: campaign.id,
    });
    expect(report.blockers.find((b) => b.code === 'placeholders')!.detail).toContain(
      'The link https://www.example.com/register is a placeholder',
    );
    // Another user cannot see it.
    const stranger = await createUser(app);
    const theirs = await as(
      app,
      stranger.cookie,
    )({ method: 'GET', url: `/api/campaigns/${campaign.id}/prelaunch` });
    expect(theirs.statusCode).toBe(404);
  });
});
