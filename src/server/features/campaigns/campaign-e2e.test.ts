import { randomUUID } from 'node:crypto';
import { campaignContacts, campaigns, outboxMessages } from '@server/db/schema/index';
import { advanceClock, resetClock } from '@server/lib/clock';
import type { Campaign } from '@shared/campaigns';
import { TRACKING_PATHS } from '@shared/sending';
import {
  addStepViaApi,
  createCampaignViaApi,
  createListWithContacts,
  testEmails,
} from '@tests/factories/campaigns';
import { createSinkAccount, dispatchContext } from '@tests/factories/dispatch';
import { createUser } from '@tests/factories/users';
import { type SmtpSink, startSmtpSink } from '@tests/fakes/smtp-sink';
import { as, createTestApp } from '@tests/setup/test-app';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processInboundMessage } from '../inbound/inbound.service';
import { drainOutbox } from '../sending/sending.service';
import { advanceCampaignSequences } from './sequencing';

/*
 * The end-to-end test: a 2-step campaign to 50 contacts through a real SMTP sink with a test
 * clock. Every message personalised with unsubscribe headers; a reply ends one contact's sequence, an
 * unsubscribe another's; the rest get step 2 after the delay; the campaign completes.
 */

let app: FastifyInstance;
let sink: SmtpSink;
const DAY = 86_400_000;
const NAMES = [
  'Adaeze',
  'Babatunde',
  'Chinedu',
  'Damilola',
  'Efua',
  'Folake',
  'Gbenga',
  'Halima',
  'Ikenna',
  'Jumoke',
];

beforeAll(async () => {
  app = await createTestApp();
  sink = await startSmtpSink({ keepRaw: true });
});
afterAll(async () => {
  resetClock();
  await sink.close();
  await app.close();
});

function header(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(unfolded);
  return match ? match[1]!.trim() : null;
}

/** The decoded text of a raw message (quoted-printable soft breaks and =XX escapes undone). */
function decoded(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describe('a 2-step campaign to 50 contacts, end to end', () => {
  it('personalises, honours a reply and an unsubscribe, sends step 2 after the delay, completes', async () => {
    const owner = await createUser(app, {
      plan: 'starter',
      status: 'active',
      periodEnd: new Date(Date.now() + 400 * DAY),
    });
    const account = await createSinkAccount(app, owner.user.id, { imapEnabled: false });
    const emails = testEmails(50, 'demo');
    const firstNameOf = new Map(emails.map((email, i) => [email, `${NAMES[i % NAMES.length]}${i}`]));
    const list = await createListWithContacts(
      app,
      owner.user.id,
      emails.map((email, i) => ({
        email,
        firstName: firstNameOf.get(email)!,
        company: `Company ${i}`,
        countryCode: 'NG',
        city: 'Lagos',
      })),
    );
    const campaign = await createCampaignViaApi(app, owner.cookie, {
      name: 'Demo outreach',
      audience: { listIds: [list.id] },
      senderAccountIds: [account.id],
    });
    const step1 = await addStepViaApi(app, owner.cookie, campaign.id, {
      variants: [
        {
          key: 'A',
          subject: 'A partnership for {{ company }}',
          bodyHtml:
            '<p>{Hi|Hello} {{ firstName | default: "there" }},</p><p>We deliver across Lagos. See <a href="https://kanofoods.test/offer">our offer</a>.</p><p>{{ senderName }}</p>',
          splitPercent: 100,
        },
      ],
    });
    const step2 = await addStepViaApi(app, owner.cookie, campaign.id, {
      delayDays: 3,
      condition: 'no_reply',
      variants: [
        {
          key: 'A',
          subject: 'Re: A partnership for {{ company }}',
          bodyHtml: '<p>{{ firstName }}, just checking you saw my note.</p>',
          splitPercent: 100,
        },
      ],
    });

    const launch = await as(
      app,
      owner.cookie,
    )({ method: 'POST', url: `/api/campaigns/${campaign.id}/launch` });
    expect(launch.statusCode).toBe(200);
    expect(launch.json<Campaign>()).toMatchObject({ status: 'active', contactCount: 50 });

    // --- Step 1 goes to all 50 -------------------------------------------------------------------------
    const ctx = dispatchContext(app, sink.port, owner.user.id);
    const first = await drainOutbox(ctx);
    expect(first.sent).toBe(50);
    const toOurs = (address: string) => emails.includes(address.toLowerCase());
    const step1Mail = sink.messages.filter((m) => m.to.some(toOurs));
    expect(step1Mail).toHaveLength(50);
    for (const mail of step1Mail) {
      const to = mail.to[0]!.toLowerCase();
      const body = decoded(mail.raw);
      expect(body).toContain(firstNameOf.get(to)!);
      expect(body).toMatch(/(Hi|Hello) /);
      expect(body).toContain('Ada Okafor'); // {{ senderName }}
      expect(body).not.toContain('{{');
      expect(header(mail.raw, 'List-Unsubscribe')).toMatch(/<https?:\/\/[^>]+\/u\/[^>]+>/);
      expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    }
    const sentRows = await app.services.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.campaignId, campaign.id));
    const contacts = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, campaign.id));
    const contactByEmail = new Map(contacts.map((c) => [c.email, c]));
    const messageTo = (email: string) =>
      sentRows.find((m) => m.campaignContactId === contactByEmail.get(email)!.id && m.stepId === step1.id)!;

    // --- One replies, one unsubscribes -----------------------------------------------------------------
    const replier = emails[7]!;
    const original = messageTo(replier);
    const raw = [
      `From: ${firstNameOf.get(replier)} <${replier}>`,
      `To: ${account.fromEmail}`,
      `Subject: Re: ${original.subject}`,
      `Message-ID: <reply-${randomUUID()}@kanofoods.test>`,
      `In-Reply-To: <${original.messageId}>`,
      `References: <${original.messageId}>`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Thanks for reaching out. Yes, we are interested: can you call me on Tuesday?',
      '',
    ].join('\r\n');
    const reply = await processInboundMessage({
      db: app.services.db,
      log: app.log,
      raw,
      senderAccountId: account.id,
    });
    expect(reply).toMatchObject({ kind: 'reply', matched: true });

    const leaver = emails[21]!;
    const unsubscribe = await app.inject({
      method: 'POST',
      url: TRACKING_PATHS.unsubscribe(messageTo(leaver).token),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribe.statusCode).toBe(200);

    // --- Before the delay: nothing more goes -----------------------------------------------------------
    const advance = () =>
      advanceCampaignSequences({
        db: app.services.db,
        queue: null,
        appUrl: app.services.env.APP_URL,
        onlyUserId: owner.user.id,
      });
    advanceClock(2 * DAY);
    expect((await advance()).queued).toBe(0);
    expect((await drainOutbox(ctx)).sent).toBe(0);

    // --- After 3 days: step 2 to the other 48 ----------------------------------------------------------
    advanceClock(DAY + 60_000);
    const due = await advance();
    expect(due.queued).toBe(48);
    const second = await drainOutbox(ctx);
    expect(second.sent).toBe(48);
    const step2Mail = sink.messages.filter((m) => m.to.some(toOurs)).slice(50);
    expect(step2Mail).toHaveLength(48);
    const step2To = step2Mail.map((m) => m.to[0]!.toLowerCase());
    expect(step2To).not.toContain(replier);
    expect(step2To).not.toContain(leaver);
    for (const mail of step2Mail) {
      expect(decoded(mail.raw)).toContain(`${firstNameOf.get(mail.to[0]!.toLowerCase())}, just checking`);
      expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    }
    const step2Rows = (
      await app.services.db.select().from(outboxMessages).where(eq(outboxMessages.campaignId, campaign.id))
    ).filter((m) => m.stepId === step2.id);
    expect(step2Rows.every((m) => m.state === 'sent')).toBe(true);

    // --- Nothing left: the campaign completes ----------------------------------------------------------
    const end = await advance();
    expect(end.completedCampaigns).toEqual([campaign.id]);
    const [row] = await app.services.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(row!.status).toBe('completed');
    expect(row!.completedAt).not.toBeNull();
    const finalContacts = await app.services.db
      .select()
      .from(campaignContacts)
      .where(eq(campaignContacts.campaignId, campaign.id));
    const statusOf = (email: string) => finalContacts.find((c) => c.email === email)!.status;
    expect(statusOf(replier)).toBe('replied');
    expect(statusOf(leaver)).toBe('unsubscribed');
    expect(finalContacts.filter((c) => c.status === 'completed')).toHaveLength(48);
    // Each contact got exactly one copy of each step they were due.
    const perAddress = new Map<string, number>();
    for (const m of sink.messages.filter((x) => x.to.some(toOurs)))
      perAddress.set(m.to[0]!.toLowerCase(), (perAddress.get(m.to[0]!.toLowerCase()) ?? 0) + 1);
    expect(perAddress.get(replier)).toBe(1);
    expect(perAddress.get(leaver)).toBe(1);
    expect([...perAddress.values()].filter((n) => n === 2)).toHaveLength(48);
  });
});
