import { campaignSenderAccounts, outboxMessages, senderAccounts } from '@server/db/schema/index';
import { advanceClock, now, resetClock } from '@server/lib/clock';
import { type Campaign, type StepInput, THREAD_REPLY } from '@shared/campaigns';
import {
  addStepViaApi,
  createCampaignViaApi,
  createListWithContacts,
  stepBody,
  testEmails,
} from '@tests/factories/campaigns';
import { createSinkAccount, dispatchContext } from '@tests/factories/dispatch';
import { createUser, type TestUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountLocalDate } from '../sender-accounts/sender-accounts.service';
import { allocateSenders, drainOutbox } from '../sending/sending.service';
import { advanceCampaignSequences } from './sequencing';
import { replyReferences, replySubject } from './thread-reply';

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

const variant = (subject: string, bodyHtml: string): StepInput['variants'][number] => ({
  key: 'A',
  subject,
  bodyHtml,
  splitPercent: 100,
});

/** A follow-up two days on whose empty subject makes it a reply in the thread. */
const threadedFollowUp = (
  body: string,
  condition: StepInput['condition'] = 'always',
): Partial<StepInput> => ({
  delayDays: 2,
  condition,
  variants: [variant('', body)],
});

async function launch(owner: TestUser, campaignId: string): Promise<Campaign> {
  const launched = await as(
    app,
    owner.cookie,
  )({ method: 'POST', url: `/api/campaigns/${campaignId}/launch` });
  if (launched.statusCode !== 200) throw new Error(`launch ${launched.statusCode}: ${launched.body}`);
  return launched.json<Campaign>();
}

function advance(userId: string) {
  return advanceCampaignSequences({
    db: app.services.db,
    queue: null,
    appUrl: app.services.env.APP_URL,
    onlyUserId: userId,
  });
}

async function messagesOf(campaignId: string) {
  return app.services.db.select().from(outboxMessages).where(eq(outboxMessages.campaignId, campaignId));
}

/** What the sink received for these Message-IDs, parsed as a mail client would. */
async function received(messageIds: string[]) {
  const wanted = new Set(messageIds);
  return Promise.all(
    sink.messages.filter((m) => m.messageId && wanted.has(m.messageId)).map((m) => simpleParser(m.raw)),
  );
}

describe('follow-ups replying in the same thread', () => {
  it('answer the last message with Re:, In-Reply-To and References, from the account that sent it', async () => {
    const owner = await paidUser();
    const first = await createSinkAccount(app, owner.user.id);
    const second = await createSinkAccount(app, owner.user.id);
    const emails = testEmails(4);
    const list = await createListWithContacts(
      app,
      owner.user.id,
      emails.map((email, i) => ({
        email,
        firstName: `Kemi${i}`,
        company: `Kano Foods ${i}`,
        countryCode: 'NG',
      })),
    );
    const created = await createCampaignViaApi(app, owner.cookie, {
      audience: { listIds: [list.id] },
      senderAccountIds: [first.id, second.id],
    });
    await addStepViaApi(app, owner.cookie, created.id, {
      variants: [variant('Fresh tomatoes for {{ company }}', '<p>Hello {{ firstName }}</p>')],
    });
    await addStepViaApi(app, owner.cookie, created.id, threadedFollowUp('<p>Did you see this?</p>'));
    await addStepViaApi(app, owner.cookie, created.id, threadedFollowUp('<p>Last note from me.</p>'));
    const campaign = await launch(owner, created.id);
    const [stepOne, stepTwo, stepThree] = campaign.steps;

    expect((await drainOutbox(dispatchContext(app, sink.port, owner.user.id))).sent).toBe(4);
    const firstSends = (await messagesOf(campaign.id)).filter((m) => m.stepId === stepOne!.id);
    expect(new Set(firstSends.map((m) => m.senderAccountId))).toEqual(new Set([first.id, second.id]));

    // A third account with no sends today: Least Used would pick it for everything that is not bound
    // to its thread's account.
    const third = await createSinkAccount(app, owner.user.id);
    await app.services.db
      .insert(campaignSenderAccounts)
      .values({ campaignId: campaign.id, senderAccountId: third.id });

    advanceClock(2 * DAY + 60_000);
    expect((await advance(owner.user.id)).queued).toBe(4);
    const secondQueued = (await messagesOf(campaign.id)).filter((m) => m.stepId === stepTwo!.id);
    for (const message of secondQueued) {
      const parent = firstSends.find((m) => m.campaignContactId === message.campaignContactId)!;
      expect(message.subject).toBe(`Re: ${parent.subject}`);
      expect(message.subject).toMatch(/^Re: Fresh tomatoes for Kano Foods \d$/);
      expect(message.inReplyTo).toBe(parent.messageId);
      expect(message.threadReferences).toEqual([parent.messageId]);
      expect(message.boundSenderAccountId).toBe(parent.senderAccountId);
    }
    expect((await drainOutbox(dispatchContext(app, sink.port, owner.user.id))).sent).toBe(4);
    const secondSends = (await messagesOf(campaign.id)).filter((m) => m.stepId === stepTwo!.id);
    for (const message of secondSends) {
      const parent = firstSends.find((m) => m.campaignContactId === message.campaignContactId)!;
      expect(message.state).toBe('sent');
      expect(message.senderAccountId).toBe(parent.senderAccountId);
    }
    // As the recipient's mail program reads them.
    const mails = await received(secondSends.map((m) => m.messageId!));
    expect(mails).toHaveLength(4);
    for (const mail of mails) {
      const sent = secondSends.find((m) => `<${m.messageId}>` === mail.messageId)!;
      const parent = firstSends.find((m) => m.campaignContactId === sent.campaignContactId)!;
      const account = [first, second].find((a) => a.id === parent.senderAccountId)!;
      expect(mail.subject).toBe(`Re: ${parent.subject}`);
      expect(mail.inReplyTo).toBe(`<${parent.messageId}>`);
      expect(mail.references).toBe(`<${parent.messageId}>`);
      expect(mail.from?.value[0]?.address).toBe(account.fromEmail);
    }

    // The account that started one thread is paused: its follow-ups go from another of the campaign's
    // accounts, still in the thread. The others stay with their own account.
    await app.services.db
      .update(senderAccounts)
      .set({ status: 'paused' })
      .where(eq(senderAccounts.id, first.id));
    advanceClock(2 * DAY + 60_000);
    expect((await advance(owner.user.id)).queued).toBe(4);
    expect((await drainOutbox(dispatchContext(app, sink.port, owner.user.id))).sent).toBe(4);
    const thirdSends = (await messagesOf(campaign.id)).filter((m) => m.stepId === stepThree!.id);
    for (const message of thirdSends) {
      const one = firstSends.find((m) => m.campaignContactId === message.campaignContactId)!;
      const two = secondSends.find((m) => m.campaignContactId === message.campaignContactId)!;
      // "Re: " once, not "Re: Re: ".
      expect(message.subject).toBe(`Re: ${one.subject}`);
      expect(message.inReplyTo).toBe(two.messageId);
      expect(message.threadReferences).toEqual([one.messageId, two.messageId]);
      if (two.senderAccountId === first.id) expect(message.senderAccountId).not.toBe(first.id);
      else expect(message.senderAccountId).toBe(two.senderAccountId);
    }
    const lastMails = await received(thirdSends.map((m) => m.messageId!));
    for (const mail of lastMails) {
      const sent = thirdSends.find((m) => `<${m.messageId}>` === mail.messageId)!;
      expect(mail.references).toEqual(sent.threadReferences!.map((id) => `<${id}>`));
    }
  });

  it('a contact whose earlier steps were all skipped gets the first step’s subject and no thread', async () => {
    const owner = await paidUser();
    const account = await createSinkAccount(app, owner.user.id);
    const list = await createListWithContacts(app, owner.user.id, [
      { email: testEmails(1)[0]!, firstName: 'Bola', company: 'Ibadan Mills', countryCode: 'NG' },
    ]);
    const created = await createCampaignViaApi(app, owner.cookie, {
      audience: { listIds: [list.id] },
      senderAccountIds: [account.id],
    });
    // Nobody has clicked anything yet, so the first step is skipped for everyone.
    await addStepViaApi(app, owner.cookie, created.id, {
      condition: 'clicked',
      variants: [variant('Flour prices for {{ company }}', '<p>Hello {{ firstName }}</p>')],
    });
    await addStepViaApi(app, owner.cookie, created.id, threadedFollowUp('<p>Following up.</p>'));
    const campaign = await launch(owner, created.id);
    advanceClock(2 * DAY + 60_000);
    await advance(owner.user.id);
    const [message] = (await messagesOf(campaign.id)).filter((m) => m.stepId === campaign.steps[1]!.id);
    expect(message).toMatchObject({
      subject: 'Flour prices for Ibadan Mills',
      inReplyTo: null,
      threadReferences: null,
      boundSenderAccountId: null,
    });
    expect((await drainOutbox(dispatchContext(app, sink.port, owner.user.id))).sent).toBe(1);
    const [mail] = await received([(await messagesOf(campaign.id))[0]!.messageId!]);
    expect(mail!.subject).toBe('Flour prices for Ibadan Mills');
    expect(mail!.inReplyTo).toBeUndefined();
    expect(mail!.headers.has('references')).toBe(false);
  });

  it('keeps a subject on the first step, whatever is saved, deleted or reordered', async () => {
    const owner = await paidUser();
    const campaign = await createCampaignViaApi(app, owner.cookie);
    const request = as(app, owner.cookie);
    const url = `/api/campaigns/${campaign.id}/steps`;

    const noSubject = await request({
      method: 'POST',
      url,
      payload: stepBody({ variants: [variant('  ', '<p>Hi</p>')] }),
    });
    expect(noSubject.statusCode).toBe(400);
    expect(noSubject.json()).toMatchObject({
      message: THREAD_REPLY.firstStepNeedsSubject,
      errors: [{ path: 'variants.0.subject', message: 'Enter a subject' }],
    });

    const one = await addStepViaApi(app, owner.cookie, campaign.id, {
      variants: [variant('Cold chain for {{ company }}', '<p>Hi</p>')],
    });
    const two = await addStepViaApi(app, owner.cookie, campaign.id, threadedFollowUp('<p>Any thoughts?</p>'));
    expect(two.variants[0]!.subject).toBe('');

    const cleared = await request({
      method: 'PUT',
      url: `${url}/${one.id}`,
      payload: stepBody({ variants: [variant('', '<p>Hi</p>')] }),
    });
    expect(cleared.statusCode).toBe(400);
    const reordered = await request({
      method: 'POST',
      url: `${url}/reorder`,
      payload: { stepIds: [two.id, one.id] },
    });
    expect(reordered.statusCode).toBe(400);
    expect(reordered.json().message).toBe(THREAD_REPLY.firstStepMovedWithoutSubject);
    const deleted = await request({ method: 'DELETE', url: `${url}/${one.id}` });
    expect(deleted.statusCode).toBe(400);
    expect(deleted.json().message).toBe(THREAD_REPLY.firstStepMovedWithoutSubject);

    // The preview shows the subject the contact will see: "Re: " and the nearest earlier subject.
    const preview = await request({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: two.id, sample: true },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().subject).toMatch(/^Re: Cold chain for /);
    const three = await addStepViaApi(app, owner.cookie, campaign.id, {
      delayDays: 2,
      variants: [variant('Last call on cold chain', '<p>Closing the loop.</p>')],
    });
    const four = await addStepViaApi(app, owner.cookie, campaign.id, threadedFollowUp('<p>PS</p>'));
    const later = await request({
      method: 'POST',
      url: `/api/campaigns/${campaign.id}/preview`,
      payload: { stepId: four.id, sample: true },
    });
    expect(later.json().subject).toBe('Re: Last call on cold chain');
    expect(three.position).toBe(3);

    // Another user cannot touch the steps.
    const stranger = await paidUser();
    const foreign = await as(app, stranger.cookie)({ method: 'DELETE', url: `${url}/${one.id}` });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('allocation with a preferred account', () => {
  it('uses the thread’s account, waits for it when full, and falls back once it is paused', async () => {
    const owner = await paidUser();
    const full = await createSinkAccount(app, owner.user.id, { dailyCap: 5 });
    const free = await createSinkAccount(app, owner.user.id);
    const paused = await createSinkAccount(app, owner.user.id, { status: 'paused' });
    const campaign = await createCampaignViaApi(app, owner.cookie, {
      senderAccountIds: [full.id, free.id, paused.id],
    });
    const at = now();
    await app.services.db
      .update(senderAccounts)
      .set({ sendsToday: 5, sendsDay: accountLocalDate(at, full.timeZone) })
      .where(eq(senderAccounts.id, full.id));
    const allocation = await allocateSenders({
      db: app.services.db,
      campaignId: campaign.id,
      count: 4,
      at,
      gapMinSeconds: 0,
      gapMaxSeconds: 0,
      preferredAccountIds: [full.id, free.id, paused.id, null],
    });
    expect(allocation.accounts.map((a) => a?.id ?? null)).toEqual([null, free.id, free.id, free.id]);
    expect(allocation.waitUntil[0]!.getTime()).toBeGreaterThan(at.getTime());
    expect(allocation.waitUntil.slice(1)).toEqual([null, null, null]);

    // Cooling down after errors: its thread goes from another account rather than wait on it.
    await app.services.db
      .update(senderAccounts)
      .set({ sendsToday: 0, cooldownUntil: new Date(at.getTime() + 10 * 60_000) })
      .where(eq(senderAccounts.id, full.id));
    const cooling = await allocateSenders({
      db: app.services.db,
      campaignId: campaign.id,
      count: 1,
      at,
      gapMinSeconds: 0,
      gapMaxSeconds: 0,
      preferredAccountIds: [full.id],
    });
    expect(cooling.accounts.map((a) => a?.id ?? null)).toEqual([free.id]);
    expect(cooling.waitUntil).toEqual([null]);
  });
});

describe('thread helpers', () => {
  it('puts "Re: " before a subject once', () => {
    expect(replySubject('Fresh tomatoes')).toBe('Re: Fresh tomatoes');
    expect(replySubject('RE: Fresh tomatoes')).toBe('RE: Fresh tomatoes');
    expect(replySubject(' re:Fresh')).toBe('re:Fresh');
  });

  it('keeps the first and the latest ids of a long thread', () => {
    expect(replyReferences(null, 'a@x')).toEqual(['a@x']);
    expect(replyReferences(['a@x', 'b@x'], 'c@x')).toEqual(['a@x', 'b@x', 'c@x']);
    const long = Array.from({ length: 12 }, (_, i) => `m${i}@x`);
    const kept = replyReferences(long, 'last@x');
    expect(kept).toHaveLength(10);
    expect(kept[0]).toBe('m0@x');
    expect(kept.at(-1)).toBe('last@x');
    expect(kept.slice(1, -1)).toEqual(long.slice(4));
  });
});
