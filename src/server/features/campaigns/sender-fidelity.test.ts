import { emailEvents, outboxMessages, senderAccounts } from '@server/db/schema/index';
import { advanceClock, resetClock } from '@server/lib/clock';
import type { Campaign, StepInput } from '@shared/campaigns';
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
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox } from '../sending/sending.service';
import { advanceCampaignSequences } from './sequencing';

/*
 * Sending fidelity (issue "every message true to the mailbox that sends it"): rotation picks the account
 * at the moment of sending, so everything that names the sender — From, the signature's merge tags, the
 * footer — must come from that account; and a contact hears from one mailbox for the whole sequence.
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

const SIGNED = (text: string) =>
  `<p>Hello {{ firstName }},</p><p>${text}</p><p>Best regards,<br>{{ senderName }}<br>{{ senderEmail }}</p>`;

async function setUp(
  contacts: number,
  body: (step: number) => string = (n) => SIGNED(`Step ${n}.`),
  companies: { sam?: string | null; sade?: string | null } = {},
) {
  const owner: TestUser = await createUser(app, {
    plan: 'starter',
    status: 'active',
    periodEnd: new Date(Date.now() + 400 * DAY),
  });
  const sam = await createSinkAccount(app, owner.user.id, { fromName: 'Sam Sender', company: companies.sam });
  const sade = await createSinkAccount(app, owner.user.id, {
    fromName: 'Sade Sender',
    company: companies.sade,
  });
  const emails = testEmails(contacts);
  const list = await createListWithContacts(
    app,
    owner.user.id,
    emails.map((email, i) => ({ email, firstName: `Lead${i}`, company: 'Kano Foods', countryCode: 'NG' })),
  );
  const created = await createCampaignViaApi(app, owner.cookie, {
    audience: { listIds: [list.id] },
    senderAccountIds: [sam.id, sade.id],
  });
  await addStepViaApi(app, owner.cookie, created.id, {
    variants: [variant('Tomatoes for {{ company }}', body(1))],
  });
  // Step 2 has its own subject (not a thread reply); step 3 replies in the thread.
  await addStepViaApi(app, owner.cookie, created.id, {
    delayDays: 2,
    condition: 'always',
    variants: [variant('Following up, {{ firstName }}', body(2))],
  });
  await addStepViaApi(app, owner.cookie, created.id, {
    delayDays: 2,
    condition: 'always',
    variants: [variant('', body(3))],
  });
  const launched = await as(
    app,
    owner.cookie,
  )({ method: 'POST', url: `/api/campaigns/${created.id}/launch` });
  expect(launched.statusCode).toBe(200);
  return { owner, sam, sade, campaign: launched.json<Campaign>() };
}

const advance = (userId: string) =>
  advanceCampaignSequences({
    db: app.services.db,
    queue: null,
    appUrl: app.services.env.APP_URL,
    onlyUserId: userId,
  });

async function sentOf(campaignId: string) {
  return app.services.db
    .select()
    .from(outboxMessages)
    .where(and(eq(outboxMessages.campaignId, campaignId), eq(outboxMessages.state, 'sent')));
}

/** Each delivered message parsed, with the account that sent it. */
async function deliveries(campaignId: string) {
  const rows = await sentOf(campaignId);
  return Promise.all(
    rows.map(async (row) => {
      const copy = sink.messages.find((m) => m.messageId === row.messageId)!;
      return { row, mail: await simpleParser(copy.raw) };
    }),
  );
}

async function runSequence(owner: TestUser, steps: number) {
  const ctx = dispatchContext(app, sink.port, owner.user.id);
  await drainOutbox(ctx);
  for (let step = 2; step <= steps; step++) {
    advanceClock(2 * DAY + 60_000);
    await advance(owner.user.id);
    await drainOutbox(ctx);
  }
}

describe('every message is true to the mailbox that sends it', () => {
  it('From, signature and footer name the same person: the account rotation picked', async () => {
    const { owner, sam, sade, campaign } = await setUp(4);
    await runSequence(owner, 3);
    const delivered = await deliveries(campaign.id);
    expect(delivered).toHaveLength(12);
    const names = new Map([
      [sam.id, sam],
      [sade.id, sade],
    ]);
    for (const { row, mail } of delivered) {
      const account = names.get(row.senderAccountId!)!;
      expect(mail.from?.value[0]).toMatchObject({ name: account.fromName, address: account.fromEmail });
      expect(mail.html).toContain(`Best regards,<br>${account.fromName}<br>${account.fromEmail}`);
      expect(mail.text).toContain(account.fromName);
      // The footer's identity is the sending account's too, and nobody else is named anywhere.
      const other = account.id === sam.id ? sade : sam;
      expect(mail.html).not.toContain(other.fromName);
      expect(mail.text).not.toContain(other.fromName);
      expect(String(mail.html)).not.toMatch(/[\uE000-\uE00F]/);
    }
    // Rotation really used both mailboxes.
    expect(new Set(delivered.map((d) => d.row.senderAccountId)).size).toBe(2);
  });

  it('one contact, one mailbox: later steps, with or without their own subject, come from the first step’s account', async () => {
    const { owner, campaign } = await setUp(4);
    await runSequence(owner, 3);
    const rows = await sentOf(campaign.id);
    const byContact = new Map<string, Set<string>>();
    for (const row of rows) {
      const set = byContact.get(row.campaignContactId) ?? new Set<string>();
      set.add(row.senderAccountId!);
      byContact.set(row.campaignContactId, set);
    }
    expect(byContact.size).toBe(4);
    for (const accounts of byContact.values()) expect(accounts.size).toBe(1);
  });

  it('when a contact’s mailbox is paused, another takes over and the timeline says so', async () => {
    const { owner, sam, sade, campaign } = await setUp(4);
    const ctx = dispatchContext(app, sink.port, owner.user.id);
    await drainOutbox(ctx);
    const first = await sentOf(campaign.id);
    const samContacts = first.filter((r) => r.senderAccountId === sam.id).map((r) => r.campaignContactId);
    expect(samContacts.length).toBeGreaterThan(0);
    await app.services.db
      .update(senderAccounts)
      .set({ status: 'paused' })
      .where(eq(senderAccounts.id, sam.id));

    advanceClock(2 * DAY + 60_000);
    await advance(owner.user.id);
    await drainOutbox(ctx);
    const second = (await sentOf(campaign.id)).filter((r) => !first.some((f) => f.id === r.id));
    expect(second).toHaveLength(4);
    expect(second.every((r) => r.senderAccountId === sade.id)).toBe(true);
    const switched = await app.services.db
      .select()
      .from(emailEvents)
      .where(and(eq(emailEvents.campaignId, campaign.id), eq(emailEvents.type, 'sender_changed')));
    expect(switched.map((e) => e.campaignContactId).sort()).toEqual([...samContacts].sort());
    expect(switched[0]!.detail).toBe(
      `${sam.fromEmail} is paused: ${sade.fromEmail} writes to this contact from now on`,
    );
    const timeline = await as(
      app,
      owner.cookie,
    )({
      method: 'GET',
      url: `/api/campaigns/${campaign.id}/contacts/${samContacts[0]}/timeline`,
    });
    expect(timeline.json<{ type: string }[]>().map((e) => e.type)).toContain('sender_changed');
  });

  it('a template that reshapes the sender’s name is rendered for one account and sent from it', async () => {
    const { owner, campaign } = await setUp(
      3,
      (n) => `<p>Step ${n}</p><p>— {{ senderName | truncate: 6 }}</p>`,
    );
    await runSequence(owner, 1);
    const delivered = await deliveries(campaign.id);
    expect(delivered).toHaveLength(3);
    for (const { row, mail } of delivered) {
      const [account] = await app.services.db
        .select()
        .from(senderAccounts)
        .where(eq(senderAccounts.id, row.senderAccountId!));
      expect(String(mail.html).match(/— [^<]*/)?.[0]).toBe(`— ${account!.fromName.slice(0, 3)}...`);
    }
  });

  it('{{ senderCompany }} names the sending account’s company, or the fallback for an account with none', async () => {
    const { owner, sam, campaign } = await setUp(
      4,
      (n) =>
        `<p>Step ${n}.</p><p>We at {{ senderCompany | default: "our team" }} grow tomatoes.</p><p>[{{ senderCompany }}]</p>`,
      { sam: 'Sam & Sons Farms', sade: null },
    );
    await runSequence(owner, 1);
    const delivered = await deliveries(campaign.id);
    expect(delivered).toHaveLength(4);
    for (const { row, mail } of delivered) {
      if (row.senderAccountId === sam.id) {
        expect(mail.html).toContain('We at Sam &amp; Sons Farms grow tomatoes.');
        expect(mail.html).toContain('[Sam &amp; Sons Farms]');
        expect(mail.text).toContain('We at Sam & Sons Farms grow tomatoes.');
      } else {
        expect(mail.html).toContain('We at our team grow tomatoes.');
        expect(mail.html).toContain('[]');
        expect(mail.html).not.toContain('Sam &amp; Sons');
      }
      expect(String(mail.html)).not.toMatch(/[\uE000-\uE00F]/);
      expect(String(mail.text)).not.toMatch(/[\uE000-\uE00F]/);
    }
    expect(new Set(delivered.map((d) => d.row.senderAccountId)).size).toBe(2);
  });
});
